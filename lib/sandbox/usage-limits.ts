import "server-only";
import type { TokenInfo } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { addToCounter } from "@/lib/rate-limit/queries";
import { validationError } from "@/lib/http/errors";

/**
 * The shared sandbox devnet's budgets (issue 13): every merchant shares one node, so mined blocks
 * and faucet sends are counted per merchant per hour (fixed window, in `rate_limit_counters` like
 * the API limit), faucet amounts are capped per call, and the public "simulate" mines at most
 * `maxSimulatedBlocks` per call, charged to the order's merchant.
 */
export const maxSimulatedBlocks = 20;
const hourMs = 60 * 60 * 1000;

/** Largest faucet drip per call, in whole units: 10 of the native coin, 100,000 of a token. */
export function faucetCapUnits(token: Pick<TokenInfo, "address">): bigint {
  return token.address === null ? 10n : 100_000n;
}

export function assertFaucetAmount(token: Pick<TokenInfo, "address" | "decimals" | "symbol">, amount: bigint): void {
  const cap = faucetCapUnits(token);
  if (amount > cap * 10n ** BigInt(token.decimals)) throw validationError({ amount: [`At most ${cap} ${token.symbol} per faucet call in the sandbox.`] });
}

/** Adds `n` to this hour's counter for `key` and refuses with 429 when that takes it over `limit` (nothing is refunded). */
async function spend(db: DbOrTx, key: string, n: number, limit: number, now = new Date()): Promise<void> {
  const windowStart = Math.floor(now.getTime() / hourMs) * hourMs;
  if ((await addToCounter(db, key, new Date(windowStart), n)) > limit) {
    throw rateLimitedError({ retryAfterSeconds: Math.max(1, Math.ceil((windowStart + hourMs - now.getTime()) / 1000)) });
  }
}

/**
 * Who spends: the merchant's own tools (API, dashboard), or the public payment page's simulate,
 * which anyone with a pay URL can call and which therefore has budgets of its own (issue 24).
 */
export type SandboxSpender = "merchant" | "public";

/** Charges `blocks` mined blocks to the hourly budget (SANDBOX_MINE_BLOCKS_PER_HOUR, or SANDBOX_PUBLIC_MINE_BLOCKS_PER_HOUR). */
export function spendMinedBlocks(db: DbOrTx, merchantId: number, blocks: number, now?: Date, spender: SandboxSpender = "merchant"): Promise<void> {
  if (spender === "public") return spend(db, `sandbox-public-mine:${merchantId}`, blocks, env.SANDBOX_PUBLIC_MINE_BLOCKS_PER_HOUR, now);
  return spend(db, `sandbox-mine:${merchantId}`, blocks, env.SANDBOX_MINE_BLOCKS_PER_HOUR, now);
}

/** Charges one faucet transfer (faucet, pay; simulate: the public budget) (SANDBOX_FAUCET_SENDS_PER_HOUR, SANDBOX_PUBLIC_SENDS_PER_HOUR). */
export function spendFaucetSend(db: DbOrTx, merchantId: number, now?: Date, spender: SandboxSpender = "merchant"): Promise<void> {
  if (spender === "public") return spend(db, `sandbox-public-faucet:${merchantId}`, 1, env.SANDBOX_PUBLIC_SENDS_PER_HOUR, now);
  return spend(db, `sandbox-faucet:${merchantId}`, 1, env.SANDBOX_FAUCET_SENDS_PER_HOUR, now);
}
