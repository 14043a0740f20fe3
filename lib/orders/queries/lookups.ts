import { and, desc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import {
  chainCursors,
  merchants,
  paymentOrders,
  refunds,
  sanctionsListLoads,
  screeningFlags,
  storeBranding,
  sweeps,
  transactions,
  type PaymentOrder,
  type Refund,
  type Transaction,
} from "@/lib/db/schema";
import { withCachedPlans } from "@/lib/db/client";
import type { DbOrTx } from "@/lib/db/types";
import type { MoneyTransfer } from "../order-money";
import { orderScreeningOf, type OrderScreening } from "../screening-status";

/** One of the merchant's orders by public order id or by numeric id. */
export async function findMerchantOrder(db: DbOrTx, merchantId: number, key: { orderId: string } | { id: number }): Promise<PaymentOrder | null> {
  const match = "orderId" in key ? eq(paymentOrders.orderId, key.orderId) : eq(paymentOrders.id, key.id);
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchantId), match))
    .limit(1);
  return row ?? null;
}

/** An order by its public id, whoever owns it (the public payment page and QR code). */
export async function findOrderByPublicId(db: DbOrTx, orderId: string): Promise<PaymentOrder | null> {
  const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.orderId, orderId)).limit(1);
  return row ?? null;
}

/**
 * The transfer an order response shows, as lib/transactions/queries.ts `findLatestOrderTransfer`
 * picks it (the latest that counts toward it: never another asset, a late, reverted or dropped one), written as a
 * lateral subquery so the order, its transfer and the scanned head come back in one statement.
 * tests/api/payment-orders/round-trips.test.ts checks both give the same answer.
 */
function latestTransfer(db: DbOrTx) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.paymentOrderId, paymentOrders.id), eq(transactions.counted, true), inArray(transactions.status, ["pending", "confirmed"])))
    .orderBy(desc(transactions.blockNumber), desc(transactions.logIndex))
    .limit(1)
    .as("latest_transfer");
}

export interface OrderView {
  order: PaymentOrder;
  /** The transfer the response shows, null until one is detected. */
  transfer: Transaction | null;
  /** The scanner's last fully scanned block on the order's chain. */
  head: bigint | null;
  shopName: string;
  /** Where the deposit went, once a sweep was queued. */
  sweep: { status: string; txHash: string | null } | null;
  /** The order's refunds, oldest first. */
  refunds: Refund[];
  /** Every transfer to the order, dropped ones included, in block order: what arrived and what counted (./order-money.ts). */
  transfers: MoneyTransfer[];
  /** Whether a payer matched the sanctions list and what became of it, and the list's date. */
  screening: OrderScreening;
}

/** The statuses of the order's screening flags (held, recorded, released) as one JSON array, in the same statement. */
const screeningOfOrder = sql<unknown>`(select coalesce(json_agg(distinct f.status), '[]'::json)
  from ${screeningFlags} f where f.payment_order_id = ${paymentOrders.id})`;

/** The publish date of the sanctions list loaded last (deployment-wide), in the same statement. */
const latestListDate = sql<string | null>`(select l.published_on from ${sanctionsListLoads} l order by l.id desc limit 1)`;

function jsonStrings(value: unknown): string[] {
  return (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as string[];
}

/** The publish date of the sanctions list loaded last; null: none loaded. */
export async function findSanctionsListDate(db: DbOrTx): Promise<string | null> {
  const [load] = await db.select({ publishedOn: sanctionsListLoads.publishedOn }).from(sanctionsListLoads).orderBy(desc(sanctionsListLoads.id)).limit(1);
  return load?.publishedOn ?? null;
}

/** Each order's screening (./screening-status.ts), for orders serialized outside an order view: two statements for any number. */
export async function findOrdersScreening(db: DbOrTx, orderIds: number[]): Promise<Map<number, OrderScreening>> {
  const [flags, listDate] = await Promise.all([
    orderIds.length === 0
      ? Promise.resolve([])
      : db
          .selectDistinct({ orderId: screeningFlags.paymentOrderId, status: screeningFlags.status })
          .from(screeningFlags)
          .where(inArray(screeningFlags.paymentOrderId, orderIds)),
    findSanctionsListDate(db),
  ]);
  const statuses = new Map<number, string[]>();
  for (const f of flags) statuses.set(f.orderId, [...(statuses.get(f.orderId) ?? []), f.status]);
  return new Map(orderIds.map((id) => [id, orderScreeningOf(statuses.get(id) ?? [], listDate)]));
}

/** One order's screening (the lifecycle's webhooks, a new order's response). */
export async function findOrderScreening(db: DbOrTx, orderId: number): Promise<OrderScreening> {
  return (await findOrdersScreening(db, [orderId])).get(orderId)!;
}

/** Every transfer to the order as one JSON array in the same statement; amounts as text. */
const transfersOfOrder = sql<unknown>`(select coalesce(json_agg(json_build_object(
  'txHash', t.tx_hash, 'currency', t.currency, 'amount', t.amount::text, 'status', t.status, 'counted', t.counted,
  'tokenAddress', t.token_address, 'blockchainId', t.blockchain_id) order by t.block_number, t.log_index), '[]'::json)
  from ${transactions} t where t.payment_order_id = ${paymentOrders.id})`;

function transfersFromJson(value: unknown): MoneyTransfer[] {
  return (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as MoneyTransfer[];
}

/**
 * The order's refunds as one JSON array in the same statement (a correlated subquery). Amounts and
 * block numbers travel as text so no digit of a 78-digit amount is lost to a JSON number.
 */
const refundsOfOrder = sql<unknown>`(select coalesce(json_agg(json_build_object(
  'id', r.id, 'paymentOrderId', r.payment_order_id, 'merchantId', r.merchant_id, 'blockchainId', r.blockchain_id,
  'amount', r.amount::text, 'currency', r.currency, 'tokenAddress', r.token_address, 'fromAddress', r.from_address,
  'toAddress', r.to_address, 'reason', r.reason, 'status', r.status, 'txHash', r.tx_hash, 'logIndex', r.log_index,
  'blockNumber', r.block_number::text, 'blockHash', r.block_hash, 'confirmedAt', r.confirmed_at,
  'createdAt', r.created_at, 'updatedAt', r.updated_at) order by r.id), '[]'::json)
  from ${refunds} r where r.payment_order_id = ${paymentOrders.id})`;

type RefundJsonRow = Omit<Refund, "blockNumber" | "confirmedAt" | "createdAt" | "updatedAt"> & {
  blockNumber: string | null;
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

function refundsFromJson(value: unknown): Refund[] {
  const list = (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as RefundJsonRow[];
  return list.map((r) => ({
    ...r,
    blockNumber: r.blockNumber === null ? null : BigInt(r.blockNumber),
    confirmedAt: r.confirmedAt === null ? null : new Date(r.confirmedAt),
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
  }));
}

/**
 * The statement behind an order's responses: the order, its transfer, head, shop name (the store's
 * display name when its branding sets one: what its customers see), sweep and refunds.
 */
function orderViewQuery(db: DbOrTx, where: SQL | undefined) {
  const transfer = latestTransfer(db);
  const transferFields = Object.fromEntries(Object.keys(getTableColumns(transactions)).map((name) => [name, transfer[name as keyof Transaction]])) as {
    [K in keyof Transaction]: (typeof transfer)[K];
  };
  return db
    .select({
      order: getTableColumns(paymentOrders),
      transfer: transferFields,
      head: chainCursors.lastBlock,
      shopName: sql<string>`coalesce(${storeBranding.displayName}, ${merchants.shopName})`,
      sweepStatus: sweeps.status,
      sweepTxHash: sweeps.txHash,
      refunds: refundsOfOrder,
      transfers: transfersOfOrder,
      screening: screeningOfOrder,
      listDate: latestListDate,
    })
    .from(paymentOrders)
    .innerJoin(merchants, eq(merchants.id, paymentOrders.merchantId))
    .leftJoin(storeBranding, eq(storeBranding.merchantId, paymentOrders.merchantId))
    .leftJoinLateral(transfer, sql`true`)
    .leftJoin(chainCursors, eq(chainCursors.blockchainId, paymentOrders.blockchainId))
    .leftJoin(sweeps, eq(sweeps.paymentOrderId, paymentOrders.id))
    .where(where)
    .limit(1);
}

/**
 * The order views, built once per database handle with placeholders (drizzle prepared queries):
 * GET order and the payment page's status (polled by every open page) are the hottest reads, and
 * building this statement cost more than running it. They run with cached plans
 * (`withCachedPlans`): the order is found by one unique key only (its public id, or its id) and
 * every joined table by its key; whose order it is, withApi's callers check on the row
 * (`findMerchantOrderView`), since a `merchant_id = …` condition would offer the planner the
 * (merchant, created_at) index, which a plan cached on a nearly empty table can pick for good.
 */
function preparedOrderViews(db: DbOrTx) {
  return {
    byOrderId: orderViewQuery(db, eq(paymentOrders.orderId, sql.placeholder("orderId"))).prepare("order_view_by_order_id"),
    byId: orderViewQuery(db, eq(paymentOrders.id, sql.placeholder("id"))).prepare("order_view_by_id"),
  };
}

const orderViews = new WeakMap<DbOrTx, ReturnType<typeof preparedOrderViews>>();

function orderViewsOf(db: DbOrTx) {
  const handle = withCachedPlans(db);
  let views = orderViews.get(handle);
  if (!views) orderViews.set(handle, (views = preparedOrderViews(handle)));
  return views;
}

type OrderViewRow = Awaited<ReturnType<ReturnType<typeof preparedOrderViews>["byOrderId"]["execute"]>>[number];

function toOrderView(row: OrderViewRow | undefined): OrderView | null {
  if (!row) return null;
  return {
    order: row.order,
    transfer: row.transfer?.id != null ? (row.transfer as Transaction) : null,
    head: row.head ?? null,
    shopName: row.shopName,
    sweep: row.sweepStatus != null ? { status: row.sweepStatus, txHash: row.sweepTxHash ?? null } : null,
    refunds: refundsFromJson(row.refunds),
    transfers: transfersFromJson(row.transfers),
    screening: orderScreeningOf(jsonStrings(row.screening), row.listDate ?? null),
  };
}

/** One of the merchant's orders with its transfer and head (GET /api/payment-orders/{id}/). */
export async function findMerchantOrderView(db: DbOrTx, merchantId: number, key: { orderId: string } | { id: number }): Promise<OrderView | null> {
  const views = orderViewsOf(db);
  const [row] = "orderId" in key ? await views.byOrderId.execute({ orderId: key.orderId }) : await views.byId.execute({ id: key.id });
  // Another merchant's order is as good as none (404), whichever key found it.
  return row && row.order.merchantId === merchantId ? toOrderView(row) : null;
}

/** An order by its public id with its transfer, head and shop name (the payment page's status). */
export async function findPublicOrderView(db: DbOrTx, orderId: string): Promise<OrderView | null> {
  const [row] = await orderViewsOf(db).byOrderId.execute({ orderId });
  return toOrderView(row);
}

/** The public id of the merchant's order with this nonce (null: none). */
export async function findOrderIdByNonce(db: DbOrTx, merchantId: number, nonce: number): Promise<string | null> {
  const [row] = await db
    .select({ orderId: paymentOrders.orderId })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchantId), eq(paymentOrders.nonce, nonce)))
    .limit(1);
  return row?.orderId ?? null;
}

/** Locks one of the merchant's orders for the rest of the transaction (refunds of one order are created one at a time). */
export async function lockMerchantOrder(db: DbOrTx, merchantId: number, id: number): Promise<PaymentOrder | null> {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, merchantId), eq(paymentOrders.id, id)))
    .for("update");
  return row ?? null;
}

/** How a refund address was given (payment_orders.refund_address_source). */
export type RefundAddressSource = "payer_signature" | "email_link" | "merchant";

/**
 * Sets the customer's refund address with how it was given and by whom
 * (lib/refunds/set-refund-address.ts, lib/receipts/refund-address-link.ts,
 * lib/refunds/enter-refund-address.ts): a payer's signature, a one-time mailed link, or a member
 * after contact. The latest proven one replaces any earlier one; refunds already built keep their
 * own `to_address`. `signedBy` only for a payer's signature.
 */
export async function setOrderRefundAddress(
  db: DbOrTx,
  id: number,
  address: string,
  given: { source: RefundAddressSource; givenBy: string; signedBy?: string | null },
  now: Date,
): Promise<PaymentOrder | null> {
  const [row] = await db
    .update(paymentOrders)
    .set({
      refundAddress: address,
      refundAddressAt: now,
      refundAddressSignedBy: given.signedBy ?? null,
      refundAddressSource: given.source,
      refundAddressGivenBy: given.givenBy,
    })
    .where(eq(paymentOrders.id, id))
    .returning();
  return row ?? null;
}

/** The distinct senders of an order's transfers that counted toward it: who paid it. */
export async function listOrderPayers(db: DbOrTx, paymentOrderId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ from: transactions.fromAddress })
    .from(transactions)
    .where(and(eq(transactions.paymentOrderId, paymentOrderId), eq(transactions.counted, true), inArray(transactions.status, ["pending", "confirmed"])));
  return rows.map((row) => row.from);
}

/** Locks an order's row for the rest of the transaction (its events are numbered one after the other). */
export async function lockOrder(db: DbOrTx, id: number): Promise<void> {
  await db.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.id, id)).for("update");
}
