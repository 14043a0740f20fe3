import { and, asc, count, desc, eq, getTableColumns, gt, gte, inArray, isNull, like, lt, lte, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { chainCursors, merchantDisabledTokens, merchants, merchantWallets, orderDayTotalChanges, orderDayTotals, orderMethodAddresses, paymentOrders, refunds, sweeps, transactions, type NewPaymentOrder, type PaymentOrder, type Refund, type Transaction } from "@/lib/db/schema";
import { preparedStatement, withCachedPlans } from "@/lib/db/client";
import { rowsOf, tableRowOf } from "@/lib/db/map-row";
import { foldEveryMerchant, foldMerchantChanges, type FoldedTotals } from "@/lib/db/folded-changes";
import { maintainedCount } from "@/lib/db/list-counts";
import { afterCursor, isExactCount, listCount, readKeysetPage, sortKeyText, type CountedList, type KeysetWindow, type SortKeyPart } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";
import { exactCountBound } from "@/lib/list-window";
import type { OrderingField } from "./schemas";
import type { AcceptedMethod } from "./payment-methods";
import type { MoneyTransfer } from "./order-money";

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

export interface OrderFilters {
  status?: string;
  blockchainId?: number;
  /** Matched case-insensitively. */
  currency?: string;
  nonce?: number;
}

/**
 * Amounts compare by value, not by base units: 1 USDC (10^6 units) is more than 0.001 ETH
 * (10^15 units). Scaling every amount to 36 decimals keeps the comparison exact.
 */
const amountValue = sql`(${paymentOrders.amount} * power(10::numeric, 36 - ${paymentOrders.decimals}))`;

/**
 * Each ordering's full sort key, the same direction throughout, so one index serves it and a
 * cursor is one row comparison: created_at then id; amount (by value) then id; status then
 * created_at then id (so the status index also serves the status filter).
 */
const sortKeys: Record<OrderingField, SortKeyPart[]> = {
  created_at: [
    { expression: paymentOrders.createdAt, type: "timestamptz" },
    { expression: paymentOrders.id, type: "integer" },
  ],
  amount: [
    { expression: amountValue, type: "numeric" },
    { expression: paymentOrders.id, type: "integer" },
  ],
  status: [
    { expression: paymentOrders.status, type: "text" },
    { expression: paymentOrders.createdAt, type: "timestamptz" },
    { expression: paymentOrders.id, type: "integer" },
  ],
};

export const orderSortKeyWidth = (field: OrderingField) => sortKeys[field].length;

/**
 * The merchant's orders by status, chain and token as the database keeps their number: exact, a few
 * rows read. An empty status or token filters nothing, as in the dashboard's `orderFilterWhere`.
 */
function maintainedOrderCount(merchantId: number, filters: { status?: string; blockchainId?: number; currency?: string }) {
  return maintainedCount("orders", merchantId, {
    kinds: filters.status ? [filters.status] : undefined,
    scopeId: filters.blockchainId,
    currency: filters.currency || undefined,
  });
}

/**
 * Whether one of the orders' list indexes holds the filters and the ordering with no other
 * condition, so reading it in order takes exactly the page's rows (`readKeysetPage`'s
 * `inIndexOrder`): (merchant, created_at, id) and (merchant, amount value, id) unfiltered; the
 * status, chain and currency indexes, each (merchant, X, created_at, id), for one of those filters
 * by created_at, and the status one for the status ordering. Not a nonce (one order at most, by its
 * own index) nor two filters (one index holds one of them; the planner weighs the rest).
 */
function indexServesOrder(filters: OrderFilters, field: OrderingField): boolean {
  if (filters.nonce !== undefined) return false;
  const held = [filters.status !== undefined && "status", filters.blockchainId !== undefined && "chain", filters.currency !== undefined && "currency"].filter(Boolean);
  if (held.length === 0) return true;
  if (held.length > 1) return false;
  return field === "created_at" || (field === "status" && held[0] === "status");
}

/**
 * One page of a merchant's orders and the total matching the filters (exact: the maintained
 * count; with a nonce, which matches one order at most, counted). The page is read with one extra
 * row, which says whether a next page exists; `after` (a cursor) replaces the offset for pages
 * reached by `next` links.
 */
export async function listOrders(
  db: DbOrTx,
  merchantId: number,
  filters: OrderFilters,
  ordering: { field: OrderingField; descending: boolean },
  window: KeysetWindow,
) {
  const where = and(
    eq(paymentOrders.merchantId, merchantId),
    filters.status !== undefined ? eq(paymentOrders.status, filters.status) : undefined,
    filters.blockchainId !== undefined ? eq(paymentOrders.blockchainId, filters.blockchainId) : undefined,
    filters.currency !== undefined ? sql`lower(${paymentOrders.currency}) = lower(${filters.currency})` : undefined,
    filters.nonce !== undefined ? eq(paymentOrders.nonce, filters.nonce) : undefined,
  );
  const keys = sortKeys[ordering.field];
  // The nonce filter is the one the maintained counts are not kept by (it matches one order at most).
  const maintained = filters.nonce === undefined ? maintainedOrderCount(merchantId, filters) : undefined;
  // Page and total in one statement (an uncorrelated subquery, run once); deep page numbers from the nearer end.
  const { page, count, nextKey } = await readKeysetPage(
    db,
    { table: paymentOrders, where, countOrder: sortKeys.created_at, maintained },
    window,
    (read, handle) => {
      const direction = ordering.descending !== read.reverse ? desc : asc;
      return handle
        .select({ order: getTableColumns(paymentOrders), sortKey: sortKeyText(keys), total: read.total })
        .from(paymentOrders)
        .where(and(where, afterCursor(keys, read.after, ordering.descending)))
        .orderBy(...keys.map((k) => direction(k.expression)))
        .limit(read.limit)
        .offset(read.offset);
    },
    { inIndexOrder: indexServesOrder(filters, ordering.field) },
  );
  return { rows: page.map((row): PaymentOrder => row.order), count, nextKey };
}

/** An order to insert once the merchant's wallet is known: the wallet settles the threshold. */
export type OrderDraft = Omit<NewPaymentOrder, "confirmationThreshold" | "id" | "paymentToleranceBps">;

export interface OrderInsertOutcome {
  /** The merchant's wallet on the order's chain, as the statement saw it (null: none). */
  wallet: { walletAddress: string; isActive: boolean } | null;
  /** The new order; null when nothing was inserted: no active wallet, another wallet, the nonce taken, or the currency switched off. */
  order: PaymentOrder | null;
  /** The store switched the order's currency off on its chain (lib/tokens): nothing was inserted. */
  tokenDisabled: boolean;
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
    select w.wallet_address as w_wallet_address, w.is_active as w_is_active, off.token_off as w_token_off, ins.*
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
  };
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

/** The statement behind an order's responses: the order, its transfer, head, shop name, sweep and refunds. */
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
      shopName: merchants.shopName,
      sweepStatus: sweeps.status,
      sweepTxHash: sweeps.txHash,
      refunds: refundsOfOrder,
      transfers: transfersOfOrder,
    })
    .from(paymentOrders)
    .innerJoin(merchants, eq(merchants.id, paymentOrders.merchantId))
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

/**
 * Orders on a chain the lifecycle must look at: processing ones (a reorg may have taken their
 * transfers), pending ones with money (amount_received, kept by the scanner as transfers are
 * recorded: lib/chains/queries.ts refreshPendingReceived) or past their deadline, and expired ones
 * that received their asset after expiry. Each part is read from a partial index of only such
 * orders (issue 31), never by looking at every open order of the chain; the predicates are
 * literals so the planner can prove they match those indexes.
 */
export async function findOrdersToEvaluate(db: DbOrTx, blockchainId: number, now: Date) {
  const inFlight = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), sql`(${paymentOrders.status} = 'processing' or (${paymentOrders.status} = 'pending' and ${paymentOrders.amountReceived} > 0))`));
  const pastDeadline = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), sql`${paymentOrders.status} = 'pending'`, lte(paymentOrders.expiresAt, now)));
  // Late payments: live transfers that did not count (transactions_uncounted_idx), of the order's asset, on an expired order.
  const late = await db
    .selectDistinct({ order: getTableColumns(paymentOrders) })
    .from(transactions)
    .innerJoin(paymentOrders, eq(paymentOrders.id, transactions.paymentOrderId))
    .where(
      and(
        sql`not ${transactions.counted} and ${transactions.status} in ('pending', 'confirmed')`,
        eq(transactions.blockchainId, blockchainId),
        eq(paymentOrders.blockchainId, blockchainId),
        sql`${paymentOrders.status} = 'expired'`,
        sql`${transactions.tokenAddress} is not distinct from ${paymentOrders.tokenAddress}`,
      ),
    );
  const seen = new Set<number>();
  const orders: PaymentOrder[] = [];
  for (const order of [...inFlight, ...pastDeadline, ...late.map((row) => row.order)]) {
    if (seen.has(order.id)) continue;
    seen.add(order.id);
    orders.push(order);
  }
  return orders;
}

/** When the first pending order on a chain reaches its deadline (null: none pending): the one thing a chain's clock decides without a new block. */
export async function nextPendingDeadline(db: DbOrTx, blockchainId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: paymentOrders.expiresAt })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), sql`${paymentOrders.status} = 'pending'`))
    .orderBy(asc(paymentOrders.expiresAt))
    .limit(1);
  return row?.at ?? null;
}

/** Moves an order from `from` to its next state; false if another worker got there first (idempotent transitions). */
export async function transitionOrder(db: DbOrTx, id: number, from: string, values: Partial<PaymentOrder> & { updatedAt: Date }) {
  const [row] = await db
    .update(paymentOrders)
    .set(values)
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, from)))
    .returning();
  return row ?? null;
}

/** Orders on a chain whose deposit address is among `addresses` (any status: late payments count as facts too). */
export async function findOrdersByDepositAddresses(db: DbOrTx, blockchainId: number, addresses: string[]) {
  if (addresses.length === 0) return [];
  return db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), inArray(paymentOrders.receivingAddress, addresses)));
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
    .where(and(eq(paymentOrders.merchantId, merchantId), gte(paymentOrders.createdAt, since), eq(paymentOrders.status, "pending"), like(paymentOrders.orderInfo, '{"payment_link":%')));
  return { merchant: row?.merchant ?? 0, link: row?.link ?? 0 };
}

/** Whether `address` (checksummed) is the deposit address of any order of any merchant on any of `blockchainIds` (served by the chain/address index). */
export async function isAnyOrderDepositAddress(db: DbOrTx, blockchainIds: number[], address: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(and(inArray(paymentOrders.blockchainId, blockchainIds), eq(paymentOrders.receivingAddress, address)))
    .limit(1);
  return row !== undefined;
}

/** Of `addresses` (checksummed), those that are deposit addresses of the merchant's orders on `blockchainIds` (an order's own or one of its methods'). */
export async function merchantDepositAddressesAmong(db: DbOrTx, merchantId: number, blockchainIds: number[], addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0 || blockchainIds.length === 0) return new Set();
  const [own, methods] = await Promise.all([
    db
      .select({ address: paymentOrders.receivingAddress })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.merchantId, merchantId), inArray(paymentOrders.blockchainId, blockchainIds), inArray(paymentOrders.receivingAddress, addresses))),
    db
      .select({ address: orderMethodAddresses.receivingAddress })
      .from(orderMethodAddresses)
      .innerJoin(paymentOrders, eq(paymentOrders.id, orderMethodAddresses.paymentOrderId))
      .where(and(eq(paymentOrders.merchantId, merchantId), inArray(orderMethodAddresses.blockchainId, blockchainIds), inArray(orderMethodAddresses.receivingAddress, addresses))),
  ]);
  return new Set([...own, ...methods].map((row) => row.address));
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

/**
 * The customer's refund address, signed by `signedBy`, a sender of one of the order's counted
 * transfers (lib/refunds/set-refund-address.ts). A payer's signature replaces any earlier one.
 */
export async function setOrderRefundAddress(db: DbOrTx, id: number, address: string, signedBy: string, now: Date): Promise<PaymentOrder | null> {
  const [row] = await db.update(paymentOrders).set({ refundAddress: address, refundAddressAt: now, refundAddressSignedBy: signedBy }).where(eq(paymentOrders.id, id)).returning();
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

const openNative = sql`${paymentOrders.status} in ('pending', 'processing') and ${paymentOrders.tokenAddress} is null`;

/**
 * Open orders on a chain paid in its native coin (their deposits may arrive by internal transfer),
 * at most `limit` of them (payment_orders_chain_open_native_idx): the newest, and the next ones
 * after `afterId` in id order (wrapping round), so a pass reads a bounded window however many are
 * open and successive passes cover them all.
 */
export async function findOpenNativeOrders(db: DbOrTx, blockchainId: number, window: { newest: number; afterId: number; next: number }): Promise<{ orders: PaymentOrder[]; lastId: number }> {
  const onChain = and(eq(paymentOrders.blockchainId, blockchainId), openNative);
  const newest = await db.select().from(paymentOrders).where(onChain).orderBy(desc(paymentOrders.id)).limit(window.newest);
  let rotating = await db.select().from(paymentOrders).where(and(onChain, gt(paymentOrders.id, window.afterId))).orderBy(asc(paymentOrders.id)).limit(window.next);
  if (rotating.length < window.next && window.afterId > 0) {
    const wrapped = await db.select().from(paymentOrders).where(and(onChain, lte(paymentOrders.id, window.afterId))).orderBy(asc(paymentOrders.id)).limit(window.next - rotating.length);
    rotating = [...rotating, ...wrapped];
  }
  const byId = new Map<number, PaymentOrder>();
  for (const order of [...rotating, ...newest]) byId.set(order.id, order);
  // Where the next pass goes on from (0: from the start).
  return { orders: [...byId.values()], lastId: rotating.at(-1)?.id ?? 0 };
}

/**
 * Deposit addresses on a chain where its native coin is awaited, at most `limit` + 1 (the newest
 * first; one more says there are more): of orders paid in the chain's coin (pending or processing,
 * payment_orders_chain_open_native_idx) and of pending orders with several methods, one of them
 * this chain's coin (order_method_addresses). The scanner reads their balances.
 */
export async function findOpenNativeAddresses(db: DbOrTx, blockchainId: number, limit: number): Promise<string[]> {
  const own = await db
    .select({ address: paymentOrders.receivingAddress })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), openNative))
    .orderBy(desc(paymentOrders.id))
    .limit(limit + 1);
  const native = JSON.stringify([{ blockchainId, tokenAddress: null }]);
  const byMethod = await db
    .select({ address: orderMethodAddresses.receivingAddress })
    .from(orderMethodAddresses)
    .innerJoin(paymentOrders, eq(paymentOrders.id, orderMethodAddresses.paymentOrderId))
    .where(and(eq(orderMethodAddresses.blockchainId, blockchainId), eq(paymentOrders.status, "pending"), sql`${paymentOrders.acceptedMethods} @> ${native}::jsonb`))
    .orderBy(desc(paymentOrders.id))
    .limit(limit + 1);
  return [...new Set([...own, ...byMethod].map((r) => r.address))].slice(0, limit + 1);
}

/** A UTC day as the per-day totals key it (YYYY-MM-DD). */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The merchant's per-day totals from `since` (a UTC day) on: the folded rows and the changes not
 * folded yet, one after the other (one snapshot: a change is in one table or the other, never
 * both). A reader sums them per whatever it groups by, with `having sum(orders) <> 0` so a group
 * whose orders all moved on (to another status, another day's key) is left out, as if netted first:
 * a key's orders never sum below zero, so a group sums to zero only when each of its keys does.
 * Reads a few rows per day, however many orders a day holds.
 */
function orderDayRows(merchantId: number, since: string, before?: string) {
  const range = (table: typeof orderDayTotals | typeof orderDayTotalChanges) =>
    sql`${table.merchantId} = ${merchantId} and ${table.day} >= ${since}::date${before ? sql` and ${table.day} < ${before}::date` : sql``}`;
  const columns = (table: typeof orderDayTotals | typeof orderDayTotalChanges) =>
    sql`${table.day}, ${table.blockchainId}, ${table.currency}, ${table.decimals}, ${table.status}, ${table.priceCurrency}, ${table.orders}, ${table.amount}, ${table.priceAmount}`;
  return sql`(
    select ${columns(orderDayTotals)} from ${orderDayTotals} where ${range(orderDayTotals)}
    union all
    select ${columns(orderDayTotalChanges)} from ${orderDayTotalChanges} where ${range(orderDayTotalChanges)}
  )`;
}

/** How the per-day totals' changes fold (lib/db/folded-changes.ts). */
const orderDayFolding: FoldedTotals = {
  lock: "order_day_totals",
  changes: orderDayTotalChanges,
  totals: orderDayTotals,
  keys: ["day", "blockchain_id", "currency", "decimals", "status", "price_currency"],
  sums: ["orders", "amount", "price_amount"],
};

/** Folds up to `limit` of the merchant's pending changes into its per-day totals (`foldMerchantChanges`). Returns the changes folded. */
export function foldOrderDayTotals(db: DbOrTx, merchantId: number, limit = 10_000): Promise<number> {
  return foldMerchantChanges(db, orderDayFolding, merchantId, limit);
}

/** Every merchant's pending per-day total changes folded, batch by batch (the fold-totals task): stops when aborted. Returns the changes folded. */
export function foldAllOrderDayTotals(db: DbOrTx, options: { signal?: AbortSignal; limit?: number } = {}): Promise<number> {
  return foldEveryMerchant(db, orderDayFolding, options);
}

/** A token's orders of one UTC day (every status) and the confirmed ones' amount. */
export interface TokenDay {
  day: string;
  blockchainId: number;
  currency: string;
  decimals: number;
  orders: number;
  /** Sum of the confirmed orders' amounts, base units as a decimal string. */
  confirmedAmount: string;
}

/** A token's orders in one status over the whole window. */
export interface TokenStatusCount {
  blockchainId: number;
  currency: string;
  decimals: number;
  status: string;
  orders: number;
}

/**
 * The overview's series since `since` (a UTC midnight), from the per-day totals, already summed the
 * two ways the page shows them: per token and day, and per token and status. One scan of the
 * window's per-day rows; the answer is (days + statuses) × tokens rows instead of their product.
 */
export async function overviewSeries(db: DbOrTx, merchantId: number, since: Date): Promise<{ days: TokenDay[]; statuses: TokenStatusCount[] }> {
  const rows = rowsOf(
    await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, blockchain_id, currency, decimals, status, sum(orders)::int as orders,
        coalesce(sum(amount) filter (where status = 'confirmed'), 0)::text as confirmed_amount
      from ${orderDayRows(merchantId, utcDay(since))} totals
      group by grouping sets ((day, blockchain_id, currency, decimals), (blockchain_id, currency, decimals, status))
      having sum(orders) <> 0`),
  );
  const days: TokenDay[] = [];
  const statuses: TokenStatusCount[] = [];
  for (const r of rows) {
    const token = { blockchainId: Number(r.blockchain_id), currency: String(r.currency), decimals: Number(r.decimals), orders: Number(r.orders) };
    if (r.day === null) statuses.push({ ...token, status: String(r.status) });
    else days.push({ ...token, day: String(r.day), confirmedAmount: String(r.confirmed_amount) });
  }
  return { days, statuses };
}

export async function recentOrders(db: DbOrTx, merchantId: number, limit: number) {
  return db.select().from(paymentOrders).where(eq(paymentOrders.merchantId, merchantId)).orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id)).limit(limit);
}

export interface OrderSearch {
  /** Matches the public order id or receiving address (substring), or the nonce (exact). */
  q?: string;
  status?: string;
  blockchainId?: number;
  currency?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /**
   * What happened to the money (./order-money.ts): `reversed`, a reorg took back a payment that had
   * counted and nothing replaced it (at risk, or pending again); `not_counted`, money arrived that
   * does not count toward the order (late, another asset).
   */
  money?: "reversed" | "not_counted";
}

/** The order's money filter as a condition on its row (transfers read through transactions_order_idx / transactions_uncounted_idx). */
function orderMoneyWhere(money: OrderSearch["money"]): SQL | undefined {
  const o = paymentOrders;
  if (money === "reversed") {
    return sql`(${o.atRiskReason} is not null or (${o.status} = 'pending' and ${o.amountReceived} = 0 and exists (select 1 from ${transactions} t
      where t.payment_order_id = ${o.id} and t.status = 'dropped' and t.counted)))`;
  }
  if (money === "not_counted") {
    return sql`exists (select 1 from ${transactions} t where t.payment_order_id = ${o.id} and not t.counted and t.status in ('pending', 'confirmed'))`;
  }
  return undefined;
}

/** `%`, `_` and `\` in user text match themselves in a LIKE pattern. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Text of an order id's shape (lib/ids.ts: `ORD-` + base62, the "-" its fourth character and its
 * only one) can match an order id only from the id's start: `order_id ilike '%q%'` is then
 * `lower(order_id) like 'q%'`, a range of `payment_orders_merchant_order_id_idx` instead of a trigram
 * bitmap of "ord", "rd-" and "d-…", which every order id has.
 */
const orderIdShape = /^ord-[a-z0-9]*$/i;

/**
 * The same for a deposit address (EVM: `0x` + hex, its "x" the second character and its only one):
 * text of that shape matches a receiving address only from its start, a range of
 * `payment_orders_merchant_address_idx`.
 */
const addressShape = /^0x[0-9a-f]*$/i;

/**
 * The search text matched against an order: a substring of its order id, receiving address,
 * order_info (a SKU, a customer reference) or link item name, case-insensitively, or its nonce.
 * Columns are named unqualified so the condition also applies to a subquery of the table's rows.
 */
function orderTextWhere(q: string): SQL {
  const column = (c: { name: string }) => sql.identifier(c.name);
  const pattern = likePattern(q);
  return or(
    orderIdShape.test(q) ? sql`lower(${column(paymentOrders.orderId)}) like ${`${q.toLowerCase()}%`}` : sql`${column(paymentOrders.orderId)} ilike ${pattern}`,
    addressShape.test(q)
      ? sql`lower(${column(paymentOrders.receivingAddress)}) like ${`${q.toLowerCase()}%`}`
      : sql`${column(paymentOrders.receivingAddress)} ilike ${pattern}`,
    // What the merchant wrote on the order (a SKU, a customer reference) and a link order's item.
    sql`${column(paymentOrders.orderInfo)} ilike ${pattern}`,
    sql`${column(paymentOrders.itemName)} ilike ${pattern}`,
    /^\d{1,15}$/.test(q) ? sql`${column(paymentOrders.nonce)} = ${Number(q)}` : undefined,
  )!;
}

/** The search's conditions other than the text (each one an index of the table can order by created_at). */
function orderFilterWhere(merchantId: number, search: OrderSearch): SQL {
  return and(
    eq(paymentOrders.merchantId, merchantId),
    search.status ? eq(paymentOrders.status, search.status) : undefined,
    search.blockchainId !== undefined ? eq(paymentOrders.blockchainId, search.blockchainId) : undefined,
    search.currency ? sql`lower(${paymentOrders.currency}) = lower(${search.currency})` : undefined,
    search.from ? gte(paymentOrders.createdAt, search.from) : undefined,
    search.to ? lt(paymentOrders.createdAt, search.to) : undefined,
    orderMoneyWhere(search.money),
  )!;
}

/**
 * How far a text search's count is exact. A text matching a share of every order ever made
 * ("500", a SKU) would otherwise be counted by reading each match (the trigram index only
 * proposes candidates, every one a heap read to check): beyond this many matches the count is the
 * planner's estimate ("About …"). One dashboard page: the newest-rows probe (`searchOrders`)
 * settles the first page and whether the count is exact from the same rows.
 */
export const textSearchExactCountBound = 25;

/**
 * The newest rows a text search checks first (`searchOrders`): enough for a text on ~1 % of the
 * orders (a common SKU) to fill the first page and pass the count's bound; a rarer text finds
 * fewer and is answered by the trigram index instead, after this bounded read.
 */
export const textSearchProbeRows = 2_500;

/** The probe answers pages up to this many matches deep; deeper pages go to the trigram index directly. */
const textSearchProbeMatches = 100;

/**
 * An order id or an address, or the start of one long enough to be rare (4 base62 characters: one
 * order in ~15 M; 8 hex characters: one in ~4 G): straight to the indexes, no probe.
 */
const distinctiveId = /^(ord-[a-z0-9]{4,}|0x[0-9a-f]{8,})$/i;

/**
 * The dashboard's order search, newest first, with the matching total: exact by the maintained
 * counts when it filters only by status, chain and token; with dates, exact up to `exactCountBound`
 * (`textSearchExactCountBound` with a text `q`), estimated beyond (`exact` false).
 *
 * A text search first checks the newest `textSearchProbeRows` rows matching the other filters, in
 * the (merchant, created_at, id) order, stopping at the matches the page and the count's bound
 * need: a common text ("500", a SKU on 1 % of the orders) is answered from a few thousand rows
 * however long the history, where the trigram index would build a bitmap of every match. When
 * those rows hold enough matches, the page is the same (the k newest matches are among the
 * newest rows); when they are all of the merchant's rows, so is the count. Otherwise (a rare
 * text) the trigram index answers, as does an order id or an address, which go there directly.
 */
export async function searchOrders(db: DbOrTx, merchantId: number, search: OrderSearch, window: { limit: number; offset: number }) {
  const q = search.q?.trim();
  const filters = orderFilterWhere(merchantId, search);
  const where = q ? and(filters, orderTextWhere(q)) : filters;
  const bound = q ? textSearchExactCountBound : exactCountBound;
  // Without text or dates the filters are ones the database keeps counts by: exact at any size.
  const maintained = !q && !search.from && !search.to && !search.money ? maintainedOrderCount(merchantId, search) : undefined;
  const list: CountedList = { table: paymentOrders, where, countOrder: q ? [] : sortKeys.created_at, maintained };
  if (q && !distinctiveId.test(q) && window.offset + window.limit <= textSearchProbeMatches) {
    const probed = await probeNewestOrders(db, filters, orderTextWhere(q), Math.max(bound + 1, window.offset + window.limit));
    if (probed) {
      const rows = probed.matches.slice(window.offset, window.offset + window.limit);
      // Every row the filters allow was read and no more than wanted matched: these are all the matches.
      if (probed.complete) return { rows, count: probed.matches.length, exact: true };
      // More may match than were read: never fewer than the matches in hand (a later page would precede this one).
      const count = Math.max(await listCount(db, list, Math.min(probed.matches.length, bound + 1), bound), probed.matches.length);
      return { rows, count, exact: isExactCount(list, count, bound) };
    }
  }
  // Without text a deep page number is read from the nearer end, as the API's list does. A text
  // search reads forward: its matches come unordered from the trigram index and are all sorted
  // either way, and beyond its small exact bound a page counted from the end would be a position
  // against the estimate, not the page OFFSET gives.
  // Dates are a range of every list index's created_at, after its equality columns: they keep the order.
  const inIndexOrder = !q && !search.money && indexServesOrder({ status: search.status || undefined, blockchainId: search.blockchainId, currency: search.currency || undefined }, "created_at");
  const { page, count } = await readKeysetPage(
    db,
    list,
    { ...window, after: null },
    (read, handle) =>
      handle
        .select({ order: getTableColumns(paymentOrders), sortKey: sortKeyText(sortKeys.created_at), total: read.total })
        .from(paymentOrders)
        .where(where)
        .orderBy(...sortKeys.created_at.map((k) => (read.reverse ? asc : desc)(k.expression)))
        .limit(read.limit)
        .offset(read.offset),
    { bound, fromNearerEnd: !q, inIndexOrder },
  );
  return { rows: page.map((row): PaymentOrder => row.order), count, exact: isExactCount(list, count, bound) };
}

/**
 * The newest `wanted` orders matching `filters` and `text` among the newest `textSearchProbeRows`
 * matching `filters`, newest first: the (merchant, created_at, id) index (or the filter's own,
 * which ends with created_at, id) read backwards until `wanted` match or the probe's rows are
 * read. null when that does not settle the answer: fewer than `wanted` matched and there are
 * older rows the probe did not read. `complete`: the matches are all there are (the probe read every
 * row the filters allow and no more than `wanted` matched).
 */
async function probeNewestOrders(db: DbOrTx, filters: SQL, text: SQL, wanted: number): Promise<{ matches: PaymentOrder[]; complete: boolean } | null> {
  const newest = (columns: SQL) =>
    sql`select ${columns} from ${paymentOrders} where ${filters} order by ${paymentOrders.createdAt} desc, ${paymentOrders.id} desc limit ${textSearchProbeRows}`;
  // One more than wanted: whether the matches go on past them.
  const rows = rowsOf(await db.execute(sql`select * from (${newest(sql`*`)}) newest where ${text} order by created_at desc, id desc limit ${wanted + 1}`));
  const matches = rows.slice(0, wanted).map((row) => tableRowOf(paymentOrders, row));
  if (rows.length > wanted) return { matches, complete: false };
  // No more matches among the newest rows: they are all of them only if the probe read every row the filters allow (index only).
  const [probed] = rowsOf(await db.execute(sql`select count(*)::int as n from (${newest(sql`1`)}) probe`));
  return Number(probed?.n ?? 0) < textSearchProbeRows ? { matches, complete: true } : null;
}

/** An order as the CSV export writes it: only its columns, timestamps already as ISO 8601 UTC text. */
export interface ExportOrderRow {
  orderId: string;
  createdAt: string;
  status: string;
  failureReason: string | null;
  blockchainId: number;
  currency: string;
  amount: string;
  amountReceived: string;
  decimals: number;
  nonce: string;
  receivingAddress: string;
  expiresAt: string;
  confirmedAt: string | null;
  orderInfo: string;
  id: number;
  tokenAddress: string | null;
  atRiskReason: string | null;
  priceAmount: string | null;
  priceCurrency: string | null;
  rate: string | null;
  /** The rate's feed answers as JSON text (lib/pricing/lock-price.ts RateSource[]). */
  rateSource: string | null;
  /** The keyset cursor after this row (created_at and id as the database's text, so microseconds survive). */
  sortKey: string[];
}

/** A timestamptz as JavaScript's `toISOString()` writes it (UTC, milliseconds, `Z`). */
const isoText = (column: SQLWrapper) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One batch of the CSV export, oldest first, after the keyset cursor: one range of the (merchant,
 * created_at, id) index per batch, so batches stay cheap however deep the export goes, and rows
 * created meanwhile cannot shift it. Only the exported columns are read, as text, through a raw
 * statement: mapping all of an order's ~40 columns through drizzle's row mapper (and parsing four
 * timestamps into Dates) took most of an export's time (issue 31: 45% of CPU in drizzle, 18% GC).
 */
export async function exportOrdersBatch(db: DbOrTx, merchantId: number, range: { from: Date; to: Date }, after: string[] | null, limit: number): Promise<ExportOrderRow[]> {
  const keys = sortKeys.created_at;
  const o = paymentOrders;
  // After a cursor, the cursor alone is the lower bound: beside `created_at >= from` the index
  // scan would start at `from` and read every row already exported (each batch slower).
  const lowerBound = after ? afterCursor(keys, { ordering: "created_at", key: after }, false) : sql`${o.createdAt} >= ${range.from.toISOString()}::timestamptz`;
  const result = await db.execute(sql`select ${o.orderId} as "orderId", ${isoText(o.createdAt)} as "createdAt", ${o.status} as "status",
      ${o.failureReason} as "failureReason", ${o.blockchainId} as "blockchainId", ${o.currency} as "currency",
      ${o.amount}::text as "amount", ${o.amountReceived}::text as "amountReceived", ${o.decimals} as "decimals",
      ${o.nonce}::text as "nonce", ${o.receivingAddress} as "receivingAddress", ${isoText(o.expiresAt)} as "expiresAt",
      ${isoText(o.confirmedAt)} as "confirmedAt", ${o.orderInfo} as "orderInfo", ${o.id} as "id", ${o.tokenAddress} as "tokenAddress",
      ${o.atRiskReason} as "atRiskReason", ${o.priceAmount} as "priceAmount", ${o.priceCurrency} as "priceCurrency", ${o.rate} as "rate",
      ${o.rateSource}::text as "rateSource", ${sortKeyText(keys)} as "sortKey"
    from ${o}
    where ${o.merchantId} = ${merchantId} and ${lowerBound} and ${o.createdAt} < ${range.to.toISOString()}::timestamptz
    order by ${o.createdAt}, ${o.id}
    limit ${limit}`);
  return rowsOf(result) as unknown as ExportOrderRow[];
}

/**
 * Whether any of the merchant's orders was paid (processing or confirmed), from the maintained
 * counts: a few rows, however long the history (a probe of the orders themselves would read every
 * one of a merchant whose orders were never paid).
 */
export async function hasPaidOrders(db: DbOrTx, merchantId: number): Promise<boolean> {
  const [row] = rowsOf(await db.execute(sql`select ${maintainedCount("orders", merchantId, { kinds: ["processing", "confirmed"] })} as paid`));
  return Number(row?.paid ?? 0) > 0;
}

/**
 * The merchant's orders whose payment a reorg took back (`orderMoneyWhere("reversed")`), per chain
 * and token: how many and the amounts they were for. At-risk orders are a partial index's few rows;
 * pending ones are read through the status index.
 */
export async function reversedOrderTotals(db: DbOrTx, merchantId: number) {
  const o = paymentOrders;
  return db
    .select({ blockchainId: o.blockchainId, currency: o.currency, decimals: o.decimals, orders: count(), amount: sql<string>`sum(${o.amount})::text` })
    .from(o)
    .where(and(eq(o.merchantId, merchantId), orderMoneyWhere("reversed")))
    .groupBy(o.blockchainId, o.currency, o.decimals)
    .orderBy(o.blockchainId, o.currency);
}

/**
 * A confirmed order whose payment a reorg took away stays confirmed but is flagged at risk, once:
 * null when it is not confirmed or already flagged.
 */
export async function flagOrderAtRisk(db: DbOrTx, id: number, reason: "payment_reorged", now: Date): Promise<PaymentOrder | null> {
  const [row] = await db
    .update(paymentOrders)
    .set({ atRiskReason: reason, atRiskAt: now, updatedAt: now })
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, "confirmed"), isNull(paymentOrders.atRiskReason)))
    .returning();
  return row ?? null;
}

/**
 * The merchant's confirmed orders created in [previousFrom, to), split at `from`: per price currency,
 * the sum of their fiat prices in each period; token-priced orders (no fiat price) counted apart as
 * currency null. For the overview's fiat totals and their trend.
 */
export async function confirmedFiatTotals(db: DbOrTx, merchantId: number, periods: { previousFrom: Date; from: Date; to: Date }) {
  // The periods are whole UTC days (the overview's): the per-day totals answer them exactly.
  const from = utcDay(periods.from);
  const rows = rowsOf(
    await db.execute(sql`
      select nullif(price_currency, '') as currency,
        sum(price_amount) filter (where day >= ${from}::date)::text as current,
        sum(price_amount) filter (where day < ${from}::date)::text as previous,
        coalesce(sum(orders) filter (where day >= ${from}::date), 0)::int as current_orders
      from ${orderDayRows(merchantId, utcDay(periods.previousFrom), utcDay(periods.to))} totals
      where status = 'confirmed'
      group by price_currency
      having sum(orders) <> 0`),
  );
  return rows.map((r) => ({
    currency: r.currency === null ? null : String(r.currency),
    current: r.current === null ? null : String(r.current),
    previous: r.previous === null ? null : String(r.previous),
    currentOrders: Number(r.current_orders),
  }));
}

/** Money that fixes an order's method: a live transfer that counted toward it. */
const paymentArrived = sql`exists (select 1 from ${transactions} t where t.payment_order_id = ${paymentOrders.id} and t.counted and t.status in ('pending', 'confirmed'))`;

/**
 * Makes `method` the order's own (chain, token, amount, rate, deposit address, threshold), only
 * while it is pending with no money arrived; null when it is not (the method is fixed).
 */
export async function switchOrderMethod(db: DbOrTx, id: number, method: AcceptedMethod, now: Date): Promise<PaymentOrder | null> {
  const [row] = await db
    .update(paymentOrders)
    .set({
      blockchainId: method.blockchainId,
      currency: method.currency,
      tokenAddress: method.tokenAddress,
      decimals: method.decimals,
      amount: method.amount,
      rate: method.rate,
      rateSource: method.rateSource,
      receivingAddress: method.receivingAddress,
      depositDestination: method.depositDestination,
      depositSalt: method.depositSalt,
      depositFactory: method.depositFactory,
      depositFactoryVersion: method.depositFactoryVersion,
      confirmationThreshold: method.confirmationThreshold,
      updatedAt: now,
    })
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, "pending"), eq(paymentOrders.amountReceived, "0"), sql`not ${paymentArrived}`))
    .returning();
  return row ?? null;
}

/** Orders with several methods whose deposit address on `blockchainId` is among `addresses` (the scanner: money by a method not chosen yet). */
export async function findOrdersByMethodAddresses(db: DbOrTx, blockchainId: number, addresses: string[]): Promise<PaymentOrder[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .select({ order: getTableColumns(paymentOrders) })
    .from(orderMethodAddresses)
    .innerJoin(paymentOrders, eq(paymentOrders.id, orderMethodAddresses.paymentOrderId))
    .where(and(eq(orderMethodAddresses.blockchainId, blockchainId), inArray(orderMethodAddresses.receivingAddress, addresses)));
  return rows.map((r) => r.order);
}

/** The deposit address of each chain of an order with several methods. */
export async function insertOrderMethodAddresses(db: DbOrTx, paymentOrderId: number, addresses: { blockchainId: number; receivingAddress: string }[]): Promise<void> {
  if (addresses.length === 0) return;
  await db.insert(orderMethodAddresses).values(addresses.map((a) => ({ paymentOrderId, ...a })));
}

/** Stores an order's accepted methods (its own chain's entries completed once the insert settled the threshold). */
export async function setAcceptedMethods(db: DbOrTx, id: number, methods: AcceptedMethod[]): Promise<PaymentOrder> {
  const [row] = await db.update(paymentOrders).set({ acceptedMethods: methods }).where(eq(paymentOrders.id, id)).returning();
  return row!;
}
