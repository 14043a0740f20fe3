import "server-only";
import { randomInt } from "node:crypto";
import { findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import { assertTokenEnabled } from "@/lib/tokens/merchant-tokens";
import type { PaymentLink } from "@/lib/db/schema";
import { lockForTransaction } from "@/lib/db/transaction-locks";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { formatAmount, parseAmount } from "@/lib/money/amounts";
import { createOrder } from "@/lib/orders/create-order";
import { countOpenLinkOrders } from "@/lib/orders/queries";
import { defaultOrderLifetimeMs } from "@/lib/orders/schemas";
import { findMerchantById } from "@/lib/auth/queries";
import { countMerchant } from "@/lib/auth/rate-limit";
import { rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { multiplyDecimal } from "@/lib/money/decimal";
import { paymentUrl } from "@/lib/orders/serialize";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";
import { checkFiatPrice } from "@/lib/pricing/lock-price";
import { findActiveWalletChainIds } from "@/lib/wallets/queries";
import { deleteMerchantLink, findActiveLink, findMerchantLink, insertLink, updateMerchantLink } from "./queries";
import type { CreateLinkBody, CreateLinkOrderBody } from "./schemas";

type LinkOption = { blockchain: string; currency: string };

/** The public page of a link. */
export function linkUrl(linkId: string): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/link/${linkId}`;
}

export function serializeLink(link: PaymentLink) {
  return {
    id: link.linkId,
    title: link.title,
    amount: link.amount,
    price_amount: link.priceAmount,
    price_currency: link.priceCurrency,
    options: link.options as LinkOption[],
    max_quantity: link.maxQuantity,
    is_active: link.isActive,
    url: linkUrl(link.linkId),
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}

export function serializePublicLink(link: PaymentLink, shopName: string) {
  return {
    id: link.linkId,
    title: link.title,
    amount: link.amount,
    price_amount: link.priceAmount,
    price_currency: link.priceCurrency,
    options: link.options as LinkOption[],
    max_quantity: link.maxQuantity,
    shop_name: shopName,
  };
}

/**
 * Checks a link's price and options: each option a served blockchain and a token on it (canonical
 * slug and symbol kept), no duplicates; a token price in at most the token's decimals, with every
 * option the same token; a fiat price in a supported currency within its minor units.
 */
async function checkedLink(db: DbOrTx, merchantId: number, input: CreateLinkBody) {
  const fiat = input.price_amount != null;
  if (fiat === (input.amount != null)) throw validationError({ amount: ["Give amount or price_amount (with price_currency), exactly one."] });
  const options: LinkOption[] = [];
  for (const [i, option] of input.options.entries()) {
    const chain = findBlockchainBySlug(option.blockchain);
    if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `options[${i}]: blockchain '${option.blockchain}' is not supported.`);
    const token = findToken(chain, option.currency);
    if (!token) throw new ApiError("UNSUPPORTED_CURRENCY", `options[${i}]: currency '${option.currency}' is not supported on ${chain.slug}.`);
    await assertTokenEnabled(db, merchantId, chain, token, `options[${i}]: currency`);
    if (!options.some((o) => o.blockchain === chain.slug && o.currency === token.symbol)) options.push({ blockchain: chain.slug, currency: token.symbol });
    if (!fiat) parseAmount(input.amount, token.decimals);
  }
  if (!fiat && new Set(options.map((o) => o.currency)).size > 1) {
    throw validationError({ options: ["A link priced in token units takes one token (on any chains); price it in fiat to offer several tokens."] });
  }
  let priceCurrency: string | null = null;
  if (fiat) {
    priceCurrency = (input.price_currency ?? "").toUpperCase();
    if (!priceCurrency) throw validationError({ price_currency: ["Required with price_amount."] });
    if (!isFiatCurrency(priceCurrency))
      throw new ApiError(
        "UNSUPPORTED_PRICE_CURRENCY",
        `Links cannot be priced in '${input.price_currency}'; supported: ${Object.keys(fiatCurrencies).join(", ")}.`,
      );
    parseAmount(input.price_amount, fiatCurrencies[priceCurrency]);
  }
  checkOrdersPossible(input, options);
  if (input.is_active) await checkWalletsConfigured(db, merchantId, options);
  return {
    title: input.title,
    amount: fiat ? null : input.amount!,
    priceAmount: fiat ? input.price_amount! : null,
    priceCurrency,
    options,
    maxQuantity: input.max_quantity,
    isActive: input.is_active,
  };
}

/**
 * What every order from the link will meet, checked at save so a link never offers a price all its
 * orders refuse: each option's chain takes orders (a deposit factory), and the price, at one and at
 * max_quantity, passes order creation's own checks there (the token's precision and size; for a
 * fiat price its size and the feeds the conversion needs on that chain).
 */
function checkOrdersPossible(input: CreateLinkBody, options: LinkOption[]): void {
  for (const [i, option] of options.entries()) {
    const chain = findBlockchainBySlug(option.blockchain)!;
    const token = findToken(chain, option.currency)!;
    if (!chain.factory || !chain.implementation) {
      throw new ApiError(
        "INVALID_BLOCKCHAIN",
        `options[${i}]: payments on ${chain.slug} are not available: no deposit-address factory is deployed or configured for it.`,
      );
    }
    for (const quantity of new Set([1, input.max_quantity])) {
      if (input.price_amount != null) checkFiatPrice(chain, token, times(input.price_amount, quantity), input.price_currency ?? "");
      else parseAmount(times(input.amount!, quantity), token.decimals);
    }
  }
}

/**
 * An active link offers only what its orders can take: the merchant's active wallet on each option's
 * chain (order creation's WALLET_NOT_CONFIGURED, at save). A closed link (is_active false) is saved
 * as it is, so a merchant can close a link whose wallet is gone.
 */
async function checkWalletsConfigured(db: DbOrTx, merchantId: number, options: LinkOption[]): Promise<void> {
  const walletChains = await findActiveWalletChainIds(db, merchantId);
  for (const [i, option] of options.entries()) {
    const chain = findBlockchainBySlug(option.blockchain)!;
    if (!walletChains.has(chain.id)) {
      throw new ApiError(
        "WALLET_NOT_CONFIGURED",
        `options[${i}]: no active wallet is configured for ${chain.slug}; add one with POST /api/merchant-wallets/, or leave ${option.currency} on ${chain.slug} out.`,
      );
    }
  }
}

export async function createLink(db: DbOrTx, merchantId: number, input: CreateLinkBody, now = new Date()): Promise<PaymentLink> {
  return insertLink(db, { ...(await checkedLink(db, merchantId, input)), linkId: newId("paymentLink"), merchantId, createdAt: now, updatedAt: now });
}

export async function getLinkOrThrow(db: DbOrTx, merchantId: number, linkId: string): Promise<PaymentLink> {
  const link = await findMerchantLink(db, merchantId, linkId);
  if (!link) throw notFound("Payment link");
  return link;
}

/** PUT replaces the link's settings; orders already made from it are not touched. */
export async function updateLink(db: DbOrTx, merchantId: number, linkId: string, input: CreateLinkBody, now = new Date()): Promise<PaymentLink> {
  const link = await updateMerchantLink(db, merchantId, linkId, { ...(await checkedLink(db, merchantId, input)), updatedAt: now });
  if (!link) throw notFound("Payment link");
  return link;
}

export async function deleteLink(db: DbOrTx, merchantId: number, linkId: string): Promise<void> {
  if (!(await deleteMerchantLink(db, merchantId, linkId))) throw notFound("Payment link");
}

export async function getPublicLinkOrThrow(db: DbOrTx, linkId: string) {
  const found = await findActiveLink(db, linkId);
  if (!found) throw notFound("Payment link");
  return found;
}

/**
 * What the link's public page and GET /api/links/{id} show: the options the merchant still has an
 * active wallet for (a wallet switched off after the link was saved takes its options off the page).
 */
export async function getPublicLinkView(db: DbOrTx, linkId: string) {
  const { link, shopName } = await getPublicLinkOrThrow(db, linkId);
  const walletChains = await findActiveWalletChainIds(db, link.merchantId);
  const view = serializePublicLink(link, shopName);
  return { ...view, options: view.options.filter((o) => walletChains.has(findBlockchainBySlug(o.blockchain)?.id ?? -1)) };
}

/** Throws 429 RATE_LIMITED when the link, or all the merchant's links, have as many orders pending as they may. */
async function assertRoomForLinkOrder(db: DbOrTx, link: PaymentLink, now: Date): Promise<void> {
  const open = await countOpenLinkOrders(db, link.merchantId, link.linkId, new Date(now.getTime() - defaultOrderLifetimeMs));
  if (open.link >= env.LINK_OPEN_ORDERS_PER_LINK || open.merchant >= env.LINK_OPEN_ORDERS_PER_MERCHANT) {
    // Retry once the oldest could have expired: at most an order lifetime.
    throw rateLimitedError({ retryAfterSeconds: 60 });
  }
}

/**
 * The caps decided in the transaction that inserts the order, under a lock per merchant: the count
 * and the insert of parallel link orders go one after another, so the caps hold however many come
 * at once (issue 49). Taken only for the insert, after the price is read.
 */
const linkOrderAdmission = (link: PaymentLink, now: Date) => async (tx: DbOrTx) => {
  await lockForTransaction(tx, [`link-orders:${link.merchantId}`]);
  await assertRoomForLinkOrder(tx, link, now);
};

/** Throws 429 RATE_LIMITED when the link's merchant is over its hourly limit or (as far as can be seen now) has too many link orders pending. */
async function assertLinkMayCreateOrder(db: DbOrTx, link: PaymentLink, now: Date): Promise<void> {
  // Early, without a lock: a flood past the caps is refused before it counts toward the hourly limit.
  await assertRoomForLinkOrder(db, link, now);
  const merchant = await findMerchantById(db, link.merchantId);
  if (!merchant) throw notFound("Payment link");
  const quota = await countMerchant(db, { merchantId: merchant.id, plan: merchant.plan, rateLimitPerHour: merchant.rateLimitPerHour }, now);
  if (quota.exceeded) throw rateLimitedError(quota);
}

/** price × quantity, exactly, in the same decimal notation (the link page's live total uses the same rule). */
const times = multiplyDecimal;

/**
 * A fresh order from a link for a customer: one of its options, a quantity within its bound, the
 * link's price × quantity (fiat prices converted at the rate of now), a nonce the gateway picks,
 * and order_info naming the link. The merchant's wallet on that chain must be set, as for any order.
 * Anyone may call it, so (issue 24) each order counts toward the merchant's own hourly rate limit,
 * and a link stops taking orders while LINK_OPEN_ORDERS_PER_LINK of its orders, or
 * LINK_OPEN_ORDERS_PER_MERCHANT of all the merchant's link orders, are still pending (429).
 */
export async function createOrderFromLink(db: DbOrTx, linkId: string, input: CreateLinkOrderBody, now = new Date()) {
  const { link } = await getPublicLinkOrThrow(db, linkId);
  await assertLinkMayCreateOrder(db, link, now);
  const options = link.options as LinkOption[];
  const option = options.find((o) => o.blockchain === input.blockchain.toLowerCase() && o.currency.toLowerCase() === input.currency.toLowerCase());
  if (!option)
    throw validationError({ currency: [`Not offered by this link; choose one of ${options.map((o) => `${o.currency} on ${o.blockchain}`).join(", ")}.`] });
  if (input.quantity > link.maxQuantity) throw validationError({ quantity: [`At most ${link.maxQuantity}.`] });
  const price = link.priceAmount
    ? { price_amount: times(link.priceAmount, input.quantity), price_currency: link.priceCurrency! }
    : { amount: times(link.amount!, input.quantity) };
  const orderInfo = JSON.stringify({ payment_link: link.linkId, title: link.title, quantity: input.quantity });
  for (let attempt = 0; ; attempt++) {
    try {
      // 2^48 nonces: a collision with the merchant's own is unlikely, and retried.
      const order = await createOrder(
        db,
        link.merchantId,
        { ...price, blockchain: option.blockchain, currency: option.currency, order_info: orderInfo, nonce: randomInt(1, 2 ** 48) },
        {
          item: { name: link.title, quantity: input.quantity },
          admit: linkOrderAdmission(link, now),
        },
      );
      return {
        order_id: order.orderId,
        payment_url: paymentUrl(order.orderId),
        amount: formatAmount(BigInt(order.amount), order.decimals),
        currency: order.currency,
        blockchain: option.blockchain,
      };
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "DUPLICATE_NONCE") || attempt >= 2) throw error;
    }
  }
}
