import "server-only";
import { formatGwei, formatUnits, parseGwei, type Address, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import type { Blockchain, TokenInfo } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { devnetRelayer } from "@/lib/chains/sandbox-devnet";
import { withDeadline } from "@/lib/deadline";
import { env } from "@/lib/env";
import { observeRelayerBalance } from "@/lib/metrics/record";
import { ApiError } from "@/lib/http/errors";
import { describeError, log } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import type { FeedAnswer } from "@/lib/pricing/convert";
import { readFeed } from "@/lib/pricing/price-feeds";

/**
 * When relaying is worth it and affordable (docs/design/payments.md › Gasless payments): the same
 * rule decides whether the payment page offers "Pay without gas" and whether the relay endpoint
 * sends one.
 */

/**
 * The gas the offer counts a relay at before there is a signature to estimate: a
 * transferWithAuthorization to a fresh deposit address measures about 85,000 (`npm run bench -- gas`),
 * sent with a gas limit 20% above its estimate. The relay checks again with its own estimate, so
 * an order offered is not refused for a few thousand gas.
 */
export const offerRelayGas: RelayGas = { expected: 100_000n, limit: 120_000n };

/**
 * Who pays the relays' gas: the devnet's relayer account in the sandbox, GASLESS_RELAYER_PRIVATE_KEY
 * elsewhere, never the sweeper's key by default (null: no gasless payments on the chain).
 */
export function relayerKey(chain: Blockchain): Hex | null {
  if (chain.isDevnet) return devnetRelayer.privateKey;
  return (env.GASLESS_RELAYER_PRIVATE_KEY as Hex | undefined) ?? null;
}

/** The relay's fee ceiling on a chain: GASLESS_MAX_FEE_GWEI, never above the chain's own ceiling. */
export function relayFeeCeiling(chain: Blockchain): bigint {
  const own = env.GASLESS_MAX_FEE_GWEI === undefined ? null : parseGwei(env.GASLESS_MAX_FEE_GWEI.toFixed(9));
  return own !== null && own < chain.maxFeePerGas ? own : chain.maxFeePerGas;
}

/** The relayer's floor on a chain, in wei: GASLESS_RELAYER_MIN_BALANCE_GAS at the chain's fee ceiling (what a sweep may pay per gas). */
export function relayerFloorWei(chain: Blockchain): bigint {
  return BigInt(env.GASLESS_RELAYER_MIN_BALANCE_GAS) * chain.maxFeePerGas;
}

/** Whether gasless payments exist at all for this token on this chain (EIP-3009, a relayer, an RPC, budgets above 0). */
export function gaslessConfigured(
  chain: Blockchain,
  token: TokenInfo | null | undefined,
): token is TokenInfo & { address: Address; eip3009: NonNullable<TokenInfo["eip3009"]> } {
  return Boolean(
    token?.address && token.eip3009 && relayerKey(chain) && chain.rpcUrl && env.GASLESS_GAS_PER_MERCHANT_PER_HOUR > 0 && env.GASLESS_GAS_PER_HOUR > 0,
  );
}

/** What the rule reads from the chain. */
export interface RelayConditions {
  /** Base fee + priority fee now: what a relay mined now pays per gas. */
  feePerGas: bigint;
  /** US dollars per whole native coin (the chain's `<NATIVE>/USD` feed); null: the chain has no such feed. */
  nativeUsd: FeedAnswer | null;
  /** US dollars per whole token, by symbol: its `<TOKEN>/USD` feed, or its $1 peg where the chain has none. */
  tokenUsd: Map<string, FeedAnswer>;
  relayerBalance: bigint;
}

/**
 * A gasless token without its own `<TOKEN>/USD` feed counts at one dollar: right for USDC; for
 * EURC (a euro is worth more than a dollar) it undervalues the payment, so the rule refuses a
 * marginal relay sooner, never one it should refuse.
 */
const dollarPeg: FeedAnswer = { answer: 1n, decimals: 0 };

/**
 * Reads the relay's conditions now: the fee per gas, the native coin's and the gasless tokens' USD
 * prices (a stale or broken feed throws its PRICE_FEED_* error, as for a fiat-priced order) and the
 * relayer's balance (also the `gateway_gasless_relayer_balance_wei` gauge).
 */
export async function readRelayConditions(chain: Blockchain, now: Date): Promise<RelayConditions> {
  const key = relayerKey(chain);
  if (!key) throw new Error(`No gasless relayer on ${chain.slug}`);
  const client = chainClient(chain);
  const nativePair = `${chain.nativeCurrency.symbol.toUpperCase()}/USD`;
  const tokens = chain.tokens.filter((t) => t.address && t.eip3009);
  const [block, tip, relayerBalance, nativeUsd, ...tokenPrices] = await Promise.all([
    client.getBlock({ blockTag: "latest" }),
    client.estimateMaxPriorityFeePerGas(),
    client.getBalance({ address: privateKeyToAddress(key) }),
    chain.priceFeeds[nativePair] ? readFeed(chain, nativePair, now, client) : null,
    ...tokens.map((t) => {
      const pair = `${t.symbol.toUpperCase()}/USD`;
      return chain.priceFeeds[pair] ? readFeed(chain, pair, now, client) : dollarPeg;
    }),
  ]);
  observeRelayerBalance(chain.slug, relayerBalance, relayerFloorWei(chain));
  return {
    feePerGas: (block.baseFeePerGas ?? 0n) + tip,
    nativeUsd,
    tokenUsd: new Map(tokens.map((t, i) => [t.symbol, tokenPrices[i]!])),
    relayerBalance,
  };
}

/** Dollars with 18 decimals, so token amounts and wei compare exactly. */
const usdScale = 18;
const usdOfToken = (units: bigint, decimals: number, price: FeedAnswer) =>
  (units * price.answer * 10n ** BigInt(usdScale)) / 10n ** BigInt(decimals + price.decimals);
const usdOfWei = (wei: bigint, price: FeedAnswer) => (wei * price.answer) / 10n ** BigInt(price.decimals);
/** A configured decimal (dollars, a share) as an integer scaled by 10^digits, without float error. */
const scaled = (value: number, digits: number) => BigInt(Math.round(value * 10 ** digits));
/** "about $0.34", "less than $0.01". */
const aboutDollars = (usd: bigint) => {
  const value = Number(formatUnits(usd, usdScale));
  return value < 0.01 ? "less than $0.01" : `about $${value.toFixed(2)}`;
};
const dollars = (usd: bigint) => `$${Number(formatUnits(usd, usdScale)).toFixed(2)}`;

export interface RelayGas {
  /** The gas the relay is expected to use: its cost. */
  expected: bigint;
  /** The gas limit it is sent with: the most it can cost, for the relayer's floor. */
  limit: bigint;
}

/**
 * Why relaying `due` (base units of `token`) at `gas` is refused now, or null when it may go:
 * - no `<NATIVE>/USD` feed on the chain: its gas cannot be valued (503 SERVICE_UNAVAILABLE);
 * - base fee + tip above the relay's fee ceiling (503 GAS_PRICE_TOO_HIGH);
 * - the amount due is worth less than GASLESS_MIN_ORDER_USD, or the relay would cost more than
 *   GASLESS_MAX_COST_SHARE of it at the current fee (400 RELAY_NOT_WORTHWHILE);
 * - after it, the relayer could hold less than its floor (503 SERVICE_UNAVAILABLE).
 */
export function relayRefusal(
  chain: Blockchain,
  token: TokenInfo,
  due: bigint,
  gas: RelayGas,
  conditions: RelayConditions,
): { outcome: "not_worthwhile" | "floor" | "unpriced" | "gas_price"; error: ApiError } | null {
  if (!conditions.nativeUsd) {
    return {
      outcome: "unpriced",
      error: new ApiError(
        "SERVICE_UNAVAILABLE",
        `Gasless payments are not available on ${chain.name}: it has no ${chain.nativeCurrency.symbol}/USD price feed to value the relay's gas.`,
      ),
    };
  }
  const ceiling = relayFeeCeiling(chain);
  if (conditions.feePerGas > ceiling) return { outcome: "gas_price", error: gasPriceTooHigh(chain, ceiling) };
  const value = usdOfToken(due, token.decimals, conditions.tokenUsd.get(token.symbol) ?? dollarPeg);
  const minimum = scaled(env.GASLESS_MIN_ORDER_USD, 6) * 10n ** BigInt(usdScale - 6);
  if (value < minimum) {
    return {
      outcome: "not_worthwhile",
      error: new ApiError(
        "RELAY_NOT_WORTHWHILE",
        `The amount due is worth ${aboutDollars(value)}, below the ${dollars(minimum)} a payment without gas needs; pay from your wallet.`,
      ),
    };
  }
  const cost = usdOfWei(gas.expected * conditions.feePerGas, conditions.nativeUsd);
  const shareMillionths = scaled(env.GASLESS_MAX_COST_SHARE, 6);
  if (cost * 1_000_000n > value * shareMillionths) {
    return {
      outcome: "not_worthwhile",
      error: new ApiError(
        "RELAY_NOT_WORTHWHILE",
        `Paying without gas would cost ${aboutDollars(cost)} in gas now, more than ${Number(shareMillionths) / 10_000}% of the ${dollars(value)} due; pay from your wallet.`,
      ),
    };
  }
  if (conditions.relayerBalance - gas.limit * ceiling < relayerFloorWei(chain)) {
    return { outcome: "floor", error: relayerAtFloor(chain) };
  }
  return null;
}

export function gasPriceTooHigh(chain: Blockchain, ceiling: bigint): ApiError {
  return new ApiError(
    "GAS_PRICE_TOO_HIGH",
    `Gas on ${chain.name} is above the gasless ceiling of ${formatGwei(ceiling)} gwei; nothing was sent. Pay from your wallet, or try again later.`,
  );
}

export function relayerAtFloor(chain: Blockchain): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", `Gasless payments on ${chain.name} are paused: the relayer's balance is at its floor. Pay from your wallet.`);
}

/** How long the payment page's offer reuses the conditions it read: every open page polls the order every 1.5 s. */
const offerConditionsTtlMs = (chain: Blockchain) => (chain.isDevnet ? 1_000 : 15_000);
/** The payment page never waits longer than this for them: past it, no offer this time. */
const offerConditionsDeadlineMs = 2_000;

/**
 * The conditions for the payment page's offer: read at most once per chain every few seconds in
 * this process (offerConditionsTtlMs), shared by concurrent callers. Null when they could not be read
 * (RPC down, a stale feed): no offer then.
 */
export async function recentRelayConditions(chain: Blockchain, now = new Date()): Promise<RelayConditions | null> {
  const cache = processSingleton("relayConditions", () => new Map<string, { readAt: number; conditions: Promise<RelayConditions | null> }>());
  const key = `${chain.id}|${chain.rpcUrl}`;
  const cached = cache.get(key);
  if (cached && Date.now() - cached.readAt < offerConditionsTtlMs(chain)) return cached.conditions;
  const conditions = withDeadline(readRelayConditions(chain, now), offerConditionsDeadlineMs, "the gasless conditions").catch((error: unknown) => {
    log.warn("gasless conditions not read; no gasless offer for now", { chain: chain.slug, ...describeError(error) });
    return null;
  });
  cache.set(key, { readAt: Date.now(), conditions });
  return conditions;
}

/** The hourly relay gas budgets (GASLESS_GAS_PER_MERCHANT_PER_HOUR, GASLESS_GAS_PER_HOUR): a payment's relay and a subscription's permit count against both. */
export function relayBudgets(): { perMerchant: bigint; total: bigint } {
  return { perMerchant: BigInt(env.GASLESS_GAS_PER_MERCHANT_PER_HOUR), total: BigInt(env.GASLESS_GAS_PER_HOUR) };
}

/** 429 RELAY_BUDGET_EXHAUSTED with retry_after: the merchant's or everyone's hourly relay gas is used up. */
export function relayBudgetExhausted(exhausted: "merchant" | "all", retryAfterSeconds: number): ApiError {
  const message =
    exhausted === "merchant"
      ? "Gasless payments for this shop are paused for now; pay from your wallet or try again later."
      : "Gasless payments are paused for now; pay from your wallet or try again later.";
  return new ApiError("RELAY_BUDGET_EXHAUSTED", message, undefined, {
    body: { retry_after: retryAfterSeconds },
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
