import "server-only";
import { isIP } from "node:net";
import { findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import { disabledTokenError } from "@/lib/tokens/merchant-tokens";
import { computeDepositAddress, newOrderSalt } from "@/lib/chains/deposit-address";
import type { PaymentOrder } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import type { RequestMeter } from "@/lib/auth/rate-limit";
import { ApiError, validationError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { kick, quietChainBackstopMs, taskNames } from "@/lib/jobs/kick";
import { bareHostname, currentUrlPolicy, parseWebhookUrl, refusedAddressReason, UnsafeUrlError } from "@/lib/webhooks/url-safety";
import { getAddress } from "viem";
import { lockFiatPrice } from "@/lib/pricing/lock-price";
import { maxBaseUnits, parseAmount } from "@/lib/money/amounts";
import { prepareExtraMethods, type AcceptedMethod } from "./payment-methods";
import { findOrderIdByNonce, findSanctionsListDate, insertOrderIfWalletMatches, insertOrderMethodAddresses, setAcceptedMethods } from "./queries";
import { orderScreeningOf } from "./screening-status";
import { serializeOrder } from "./serialize";
import { defaultOrderLifetimeMs, type CreateOrderBody } from "./schemas";

/**
 * The sanctions list's date as the statement that inserted each new order read it (no statement
 * more for the creation response); keyed by the order object createOrder returns.
 */
const listDateAtInsert = new WeakMap<PaymentOrder, string | null>();

/**
 * The wallet address last seen per merchant and chain: only a guess for computing the deposit
 * address before the one statement runs (the statement checks it, so a stale guess costs a
 * second statement, never a wrong order). Bounded; the oldest entry goes first.
 */
const walletHints = new Map<string, string>();
const walletHintLimit = 10_000;

function rememberWallet(key: string, walletAddress: string): void {
  walletHints.delete(key);
  walletHints.set(key, walletAddress);
  if (walletHints.size > walletHintLimit) walletHints.delete(walletHints.keys().next().value!);
}

/** DUPLICATE_NONCE names the order that has the nonce, so a retried create can find what it made. */
const duplicateNonce = (nonce: number, orderId: string | null) =>
  new ApiError("DUPLICATE_NONCE", `Nonce ${nonce} has already been used for another order${orderId ? ` (${orderId})` : ""}.`, {
    nonce: [`Already used by order ${orderId ?? "(unknown)"}; GET /api/payment-orders/?nonce=${nonce} finds it.`],
    ...(orderId ? { order_id: [orderId] } : {}),
  });

function parseOrderInfo(value: unknown): string {
  if (typeof value !== "string") throw new ApiError("INVALID_ORDER_INFO", "order_info must be a string holding JSON text.");
  try {
    JSON.parse(value);
  } catch {
    throw new ApiError("INVALID_ORDER_INFO", "order_info is not valid JSON.");
  }
  return value;
}

/**
 * The deployment's webhook URL policy (live: https only, no credentials, no private IP literal).
 * Host names are resolved and checked at delivery, not here: a DNS hiccup must not fail an order.
 */
function checkWebhookUrl(raw: string): void {
  try {
    const policy = currentUrlPolicy();
    const url = parseWebhookUrl(raw, policy);
    const host = bareHostname(url);
    const reason = isIP(host) ? refusedAddressReason(host, url, policy) : null;
    if (reason) throw new UnsafeUrlError(`The URL points to ${reason}; webhook URLs must be ${policy.allowLoopback ? "public or loopback" : "public"}.`);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw validationError({ webhook_url: [error.message] });
    throw error;
  }
}

/**
 * Creates a pending payment order with its own deposit address.
 *
 * When several things are wrong, the first failing check decides the error, in this order:
 * 1. request shape (the zod schema in the route, then expires_at in the future and the
 *    deployment's webhook URL policy) → VALIDATION_ERROR
 * 2. blockchain slug unknown, or no deposit factory on it → INVALID_BLOCKCHAIN
 * 3. currency not offered on that blockchain → UNSUPPORTED_CURRENCY
 * 4. amount not a positive decimal string within the token's precision and uint256 → INVALID_AMOUNT;
 *    or, for a fiat price: price_currency not offered or no feed for it on the chain →
 *    UNSUPPORTED_PRICE_CURRENCY, a feed unreadable → PRICE_FEED_UNAVAILABLE, stale → PRICE_FEED_STALE
 * 5. order_info not a string of valid JSON → INVALID_ORDER_INFO
 * 6. no active merchant wallet on that blockchain → WALLET_NOT_CONFIGURED
 * 7. nonce already used by this merchant → DUPLICATE_NONCE
 * A currency the store switched off on the chain (lib/tokens) is refused by that statement too,
 * before 6 and 7 → UNSUPPORTED_CURRENCY.
 * Cheap request checks come first; the database decides the last two in the same single
 * statement that inserts the order (lib/orders/queries.ts `insertOrderIfWalletMatches`). With an
 * API request's `meter`, that statement waits for the request's count, which ran meanwhile (over
 * the limit: 429, nothing inserted). `admit`, when given, runs first in the insert's transaction
 * and may throw to refuse the order (a payment link's caps take a lock and count there); `alongside`
 * runs after the insert in the same transaction.
 */
export async function createOrder(
  db: DbOrTx,
  merchantId: number,
  input: CreateOrderBody,
  options: {
    now?: Date;
    meter?: RequestMeter | null;
    item?: { name: string; quantity: number } | null;
    admit?: (tx: DbOrTx) => Promise<void>;
    /** Runs after the insert in its transaction: a record that must exist exactly when the order does (an invoice's payment). */
    alongside?: (tx: DbOrTx, order: PaymentOrder) => Promise<void>;
  } = {},
): Promise<PaymentOrder> {
  const { now = new Date(), meter = null, item = null, admit, alongside } = options;
  const expiresAt = input.expires_at ? new Date(input.expires_at) : new Date(now.getTime() + defaultOrderLifetimeMs);
  if (expiresAt.getTime() <= now.getTime()) throw validationError({ expires_at: ["Must be in the future."] });
  if (input.webhook_url) checkWebhookUrl(input.webhook_url);

  const chain = findBlockchainBySlug(input.blockchain);
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Blockchain '${input.blockchain}' is not supported; see GET /api/blockchains/.`);
  if (!chain.factory || !chain.implementation) {
    throw new ApiError("INVALID_BLOCKCHAIN", `Payments on ${chain.slug} are not available: no deposit-address factory is deployed or configured for it.`);
  }
  const token = findToken(chain, input.currency);
  if (!token) {
    const offered = chain.tokens.map((t) => t.symbol).join(", ");
    throw new ApiError("UNSUPPORTED_CURRENCY", `Currency '${input.currency}' is not supported on ${chain.slug}; supported: ${offered}.`);
  }
  // A fiat price is converted at a rate read from the chain's price feeds, locked for the order's lifetime.
  const locked = input.price_amount != null ? await lockFiatPrice(chain, token, input.price_amount, input.price_currency ?? "", now) : null;
  const amount = locked ? locked.amount : parseAmount(input.amount, token.decimals);
  if (amount > maxBaseUnits) throw new ApiError("INVALID_AMOUNT", "The converted amount is too large.");
  const orderInfo = parseOrderInfo(input.order_info);
  // Further (chain, token) methods the customer may choose on the payment page (issue 27); none: the one method above, as ever.
  const fiat = locked ? { priceAmount: input.price_amount, priceCurrency: input.price_currency ?? "" } : null;
  const extraMethods = input.accepted_methods?.length
    ? await prepareExtraMethods(db, merchantId, { chain, token, amount }, input.accepted_methods, fiat, now)
    : [];

  // One statement decides checks 6 and 7 and inserts. The deposit address needs the wallet (it is
  // bound into the forwarder), so it is computed for the wallet this process last saw there; the
  // statement inserts only if that is still the wallet, else it answers the wallet and we go again.
  const hintKey = `${merchantId}:${chain.id}`;
  let expectedWallet = walletHints.get(hintKey) ?? null;
  for (let attempt = 0; attempt < 3; attempt++) {
    // The forwarder can only ever pay the wallet bound here, whatever the wallet becomes later.
    const destination = expectedWallet ? getAddress(expectedWallet) : null;
    const salt = newOrderSalt();
    const receivingAddress = destination ? computeDepositAddress({ factory: chain.factory, implementation: chain.implementation, destination, salt }) : "";
    // Over the API rate limit nothing is inserted: 429 comes before every other answer.
    if (attempt === 0) await meter?.admit();
    const ownDeposit = {
      receivingAddress,
      depositDestination: destination ?? "",
      depositSalt: salt,
      depositFactory: chain.factory,
      depositFactoryVersion: chain.factoryVersion,
    };
    const acceptedMethods: AcceptedMethod[] | null = extraMethods.length
      ? [
          {
            blockchainId: chain.id,
            currency: token.symbol,
            tokenAddress: token.address,
            decimals: token.decimals,
            amount: amount.toString(),
            rate: locked?.rate ?? null,
            rateSource: locked?.rateSource ?? null,
            ...ownDeposit,
            confirmationThreshold: 0,
          },
          // The order's own chain in another token shares its deposit address.
          ...extraMethods.map((m) => (m.blockchainId === chain.id ? { ...m, ...ownDeposit } : m)),
        ]
      : null;
    const insert = async (handle: DbOrTx) => {
      const result = await insertOrderIfWalletMatches(
        handle,
        {
          orderId: newId("order"),
          merchantId,
          nonce: input.nonce,
          blockchainId: chain.id,
          currency: token.symbol,
          tokenAddress: token.address,
          decimals: token.decimals,
          amount: amount.toString(),
          amountReceived: "0",
          status: "pending",
          receivingAddress,
          depositDestination: destination ?? "",
          depositSalt: salt,
          depositFactory: ownDeposit.depositFactory,
          depositFactoryVersion: ownDeposit.depositFactoryVersion,
          orderInfo,
          webhookUrl: input.webhook_url ?? null,
          redirectUrl: input.redirect_url ?? null,
          expiresAt,
          priceAmount: locked?.priceAmount ?? null,
          priceCurrency: locked?.priceCurrency ?? null,
          rate: locked?.rate ?? null,
          rateSource: locked?.rateSource ?? null,
          itemName: item?.name ?? null,
          itemQuantity: item?.quantity ?? null,
          acceptedMethods,
          createdAt: now,
          updatedAt: now,
        },
        expectedWallet,
      );
      if (result.order && acceptedMethods) {
        // The order's own chain's threshold is the one the statement copied from the wallet.
        const threshold = result.order.confirmationThreshold;
        const settled = acceptedMethods.map((m) => (m.blockchainId === chain.id ? { ...m, confirmationThreshold: threshold } : m));
        result.order = await setAcceptedMethods(handle, result.order.id, settled);
        const byChain = new Map(settled.map((m) => [m.blockchainId, m.receivingAddress]));
        await insertOrderMethodAddresses(
          handle,
          result.order.id,
          [...byChain].map(([blockchainId, receivingAddress]) => ({ blockchainId, receivingAddress })),
        );
      }
      return result;
    };
    const outcome =
      acceptedMethods || admit || alongside
        ? await db.transaction(async (tx) => {
            await admit?.(tx);
            const result = await insert(tx);
            if (result.order && alongside) await alongside(tx, result.order);
            return result;
          })
        : await insert(db);
    // A currency the store switched off: refused by the same statement (no statement more).
    if (outcome.tokenDisabled) throw disabledTokenError(chain, token);
    if (!outcome.wallet || !outcome.wallet.isActive) {
      walletHints.delete(hintKey);
      throw new ApiError("WALLET_NOT_CONFIGURED", `No active wallet is configured for ${chain.slug}; add one with POST /api/merchant-wallets/.`);
    }
    rememberWallet(hintKey, outcome.wallet.walletAddress);
    if (outcome.order) {
      listDateAtInsert.set(outcome.order, outcome.listDate);
      // A quiet chain's watcher sleeps until the first deadline it knew of: a shorter window wakes it.
      if (expiresAt.getTime() - now.getTime() < quietChainBackstopMs) await kick(taskNames.watchChain(chain.slug));
      return outcome.order;
    }
    // The expected wallet, active, and no row: the (merchant, nonce) index refused the nonce,
    // already used or just taken by a concurrent request (committed now either way), so a
    // second read names the order that has it.
    if (outcome.wallet.walletAddress === expectedWallet) throw duplicateNonce(input.nonce, await findOrderIdByNonce(db, merchantId, input.nonce));
    expectedWallet = outcome.wallet.walletAddress;
  }
  throw new Error(`The ${chain.slug} wallet of merchant ${merchantId} kept changing while an order was created.`);
}

/**
 * A new order as POST /api/payment-orders/ answers it: no payer yet, so screening is clear, against
 * the list loaded when it was inserted (read again only for an order createOrder did not return).
 */
export async function serializeNewOrder(db: DbOrTx, order: PaymentOrder) {
  const listDate = listDateAtInsert.has(order) ? listDateAtInsert.get(order)! : await findSanctionsListDate(db);
  return serializeOrder(order, null, null, [], undefined, orderScreeningOf([], listDate));
}
