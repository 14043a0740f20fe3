import { and, asc, desc, eq, getTableColumns, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { paymentOrders, transactions, type PaymentOrder } from "@/lib/db/schema";
import { rowsOf, tableRowOf } from "@/lib/db/map-row";
import { isExactCount, listCount, readKeysetPage, sortKeyText, type CountedList } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";
import { exactCountBound } from "@/lib/list-window";
import { indexServesOrder, maintainedOrderCount, sortKeys } from "./list";

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
export function orderMoneyWhere(money: OrderSearch["money"]): SQL | undefined {
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
export function orderFilterWhere(merchantId: number, search: OrderSearch): SQL {
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
  const inIndexOrder =
    !q &&
    !search.money &&
    indexServesOrder({ status: search.status || undefined, blockchainId: search.blockchainId, currency: search.currency || undefined }, "created_at");
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
