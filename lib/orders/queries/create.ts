import { and, count, eq, gte, like, sql } from "drizzle-orm";
import {
  merchantDisabledTokens,
  merchants,
  merchantWallets,
  orderMethodAddresses,
  paymentOrders,
  sanctionsListLoads,
  type NewPaymentOrder,
  type PaymentOrder,
} from "@/lib/db/schema";
import { preparedStatement, withCachedPlans } from "@/lib/db/client";
import { rowsOf, tableRowOf } from "@/lib/db/map-row";
import type { DbOrTx } from "@/lib/db/types";
import type { AcceptedMethod } from "../payment-methods";
import { likePattern } from "./search";

/** An order to insert once the merchant's wallet is known: the wallet settles the threshold. */
export type OrderDraft = Omit<NewPaymentOrder, "confirmationThreshold" | "id" | "paymentToleranceBps">;

export interface OrderInsertOutcome {
  /** The merchant's wallet on the order's chain, as the statement saw it (null: none). */
  wallet: { walletAddress: string; isActive: boolean } | null;
  /** The new order; null when nothing was inserted: no active wallet, another wallet, the nonce taken, or the currency switched off. */
  order: PaymentOrder | null;
  /** The store switched the order's currency off on its chain (lib/tokens): nothing was inserted. */
  tokenDisabled: boolean;
  /** The publish date of the sanctions list loaded now (the new order's `screening.list_date`); null: none loaded. */
  listDate: string | null;
}

const p = sql.placeholder;

/**
 * Order creation in one statement: reads the merchant's wallet on the chain and inserts the order
 * only when the wallet is active and is the one the deposit address was computed for; the
 * (merchant, nonce) unique index decides whether the nonce is free (ON CONFLICT DO NOTHING: a
 * used nonce, or one a concurrent insert just took, inserts nothing, never a 500). The merchant's
 * payment tolerance is copied onto the order in the same statement. The text is built once and
 * its plan cached (`withCachedPlans`): the wallet is found by its (merchant, chain) key, the
 * merchant by id, and the nonce is checked by the index itself, never by a lookup the planner
 * could route through the (merchant, created_at) index.
 */
const insertOrder = preparedStatement(
  "orders_insert_if_wallet_matches",
  () => sql`
    with w as (
      select wallet_address, is_active, confirmation_threshold from ${merchantWallets}
      where merchant_id = ${p("merchantId")}::integer and blockchain_id = ${p("blockchainId")}::integer
      limit 1
    ),
    off as (
      select true as token_off from ${merchantDisabledTokens}
      where merchant_id = ${p("merchantId")}::integer and blockchain_id = ${p("blockchainId")}::integer and symbol = ${p("currency")}::text
    ),
    ins as (
      insert into ${paymentOrders} (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, deposit_factory_version, order_info, webhook_url, redirect_url, confirmation_threshold,
        expires_at, price_amount, price_currency, rate, rate_source, item_name, item_quantity, accepted_methods, payment_tolerance_bps, created_at, updated_at)
      select ${p("orderId")}::text, ${p("merchantId")}::integer, ${p("nonce")}::bigint, ${p("blockchainId")}::integer, ${p("currency")}::text,
        ${p("tokenAddress")}::text, ${p("decimals")}::integer, ${p("amount")}::numeric, ${p("amountReceived")}::numeric, ${p("status")}::text,
        ${p("receivingAddress")}::text, ${p("depositDestination")}::text, ${p("depositSalt")}::text, ${p("depositFactory")}::text, ${p("depositFactoryVersion")}::integer, ${p("orderInfo")}::text,
        ${p("webhookUrl")}::text, ${p("redirectUrl")}::text, w.confirmation_threshold,
        ${p("expiresAt")}::timestamptz, ${p("priceAmount")}::text, ${p("priceCurrency")}::text, ${p("rate")}::text,
        ${p("rateSource")}::jsonb, ${p("itemName")}::text, ${p("itemQuantity")}::integer, ${p("acceptedMethods")}::jsonb,
        (select payment_tolerance_bps from ${merchants} where id = ${p("merchantId")}::integer),
        ${p("createdAt")}::timestamptz, ${p("updatedAt")}::timestamptz
      from w
      where w.is_active and w.wallet_address = ${p("expectedWallet")}::text and not exists (select 1 from off)
      on conflict (merchant_id, nonce) do nothing
      returning *
    )
    select w.wallet_address as w_wallet_address, w.is_active as w_is_active, off.token_off as w_token_off,
      (select l.published_on from ${sanctionsListLoads} l order by l.id desc limit 1) as w_list_date, ins.*
    from (select 1) as one left join w on true left join off on true left join ins on true`,
);

export async function insertOrderIfWalletMatches(db: DbOrTx, draft: OrderDraft, expectedWallet: string | null): Promise<OrderInsertOutcome> {
  const iso = (d: Date | undefined | null) => (d ? d.toISOString() : null);
  const result = await insertOrder(withCachedPlans(db), {
    merchantId: draft.merchantId,
    blockchainId: draft.blockchainId,
    orderId: draft.orderId,
    nonce: draft.nonce,
    currency: draft.currency,
    tokenAddress: draft.tokenAddress ?? null,
    decimals: draft.decimals,
    amount: draft.amount,
    amountReceived: draft.amountReceived ?? "0",
    status: draft.status,
    receivingAddress: draft.receivingAddress,
    depositDestination: draft.depositDestination,
    depositSalt: draft.depositSalt,
    depositFactory: draft.depositFactory,
    depositFactoryVersion: draft.depositFactoryVersion ?? 1,
    orderInfo: draft.orderInfo,
    webhookUrl: draft.webhookUrl ?? null,
    redirectUrl: draft.redirectUrl ?? null,
    expiresAt: iso(draft.expiresAt),
    priceAmount: draft.priceAmount ?? null,
    priceCurrency: draft.priceCurrency ?? null,
    rate: draft.rate ?? null,
    rateSource: draft.rateSource == null ? null : JSON.stringify(draft.rateSource),
    itemName: draft.itemName ?? null,
    itemQuantity: draft.itemQuantity ?? null,
    acceptedMethods: draft.acceptedMethods == null ? null : JSON.stringify(draft.acceptedMethods),
    createdAt: iso(draft.createdAt),
    updatedAt: iso(draft.updatedAt),
    expectedWallet,
  });
  const [row] = rowsOf(result);
  return {
    wallet: row?.w_wallet_address != null ? { walletAddress: String(row.w_wallet_address), isActive: row.w_is_active === true } : null,
    order: row?.id != null ? tableRowOf(paymentOrders, row) : null,
    tokenDisabled: row?.w_token_off === true,
    listDate: row?.w_list_date != null ? String(row.w_list_date) : null,
  };
}

/**
 * Pending orders of a merchant created from payment links since `since` (link orders live the
 * default lifetime, so older ones are no longer pending), and of them those of `linkId`. Served by
 * the merchant/created_at index; link orders are told by the order_info the link writes.
 */
export async function countOpenLinkOrders(db: DbOrTx, merchantId: number, linkId: string, since: Date): Promise<{ merchant: number; link: number }> {
  const linkPrefix = `{"payment_link":"${likePattern(linkId)}"%`;
  const [row] = await db
    .select({
      merchant: count(),
      link: sql<number>`count(*) filter (where ${paymentOrders.orderInfo} like ${linkPrefix})`.mapWith(Number),
    })
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.merchantId, merchantId),
        gte(paymentOrders.createdAt, since),
        eq(paymentOrders.status, "pending"),
        like(paymentOrders.orderInfo, '{"payment_link":%'),
      ),
    );
  return { merchant: row?.merchant ?? 0, link: row?.link ?? 0 };
}

/** The deposit address of each chain of an order with several methods. */
export async function insertOrderMethodAddresses(
  db: DbOrTx,
  paymentOrderId: number,
  addresses: { blockchainId: number; receivingAddress: string }[],
): Promise<void> {
  if (addresses.length === 0) return;
  await db.insert(orderMethodAddresses).values(addresses.map((a) => ({ paymentOrderId, ...a })));
}

/** Stores an order's accepted methods (its own chain's entries completed once the insert settled the threshold). */
export async function setAcceptedMethods(db: DbOrTx, id: number, methods: AcceptedMethod[]): Promise<PaymentOrder> {
  const [row] = await db.update(paymentOrders).set({ acceptedMethods: methods }).where(eq(paymentOrders.id, id)).returning();
  return row!;
}
