import { and, count, eq, sql } from "drizzle-orm";
import { orderDayTotalChanges, orderDayTotals, paymentOrders, transactions } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/map-row";
import { foldEveryMerchant, foldMerchantChanges, type FoldedTotals } from "@/lib/db/folded-changes";
import { maintainedCount } from "@/lib/db/list-counts";
import type { DbOrTx } from "@/lib/db/types";
import { orderMoneyWhere } from "./search";

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

/**
 * What the merchant's confirmed orders created in [from, to) received, in US dollars across every
 * token, valued as the exports value it (lib/transactions/valuation.ts): each counted live transfer
 * at the order's locked rate when the order was priced in USD, else at the USD price recorded when
 * the transfer was detected, rounded half up to the cent per transfer. Transfers with neither (a
 * chain without a feed) are left out of the total, and their orders counted apart.
 */
export async function confirmedUsdValue(db: DbOrTx, merchantId: number, period: { from: Date; to: Date }) {
  const o = paymentOrders;
  const t = transactions;
  const rate = sql`case when ${o.priceCurrency} = 'USD' and ${o.rate} is not null then ${o.rate}::numeric else ${t.usdRate}::numeric end`;
  const [row] = rowsOf(
    await db.execute(sql`
      select coalesce(sum(round(${t.amount} / power(10::numeric, ${o.decimals}) * ${rate}, 2)), 0)::text as total,
        count(distinct ${o.id}) filter (where ${rate} is not null)::int as valued_orders,
        count(distinct ${o.id}) filter (where ${rate} is null)::int as unvalued_orders
      from ${o} join ${t} on ${t.paymentOrderId} = ${o.id} and ${t.merchantId} = ${o.merchantId}
      where ${o.merchantId} = ${merchantId} and ${o.status} = 'confirmed'
        and ${o.createdAt} >= ${period.from.toISOString()} and ${o.createdAt} < ${period.to.toISOString()}
        and ${t.counted} and ${t.status} in ('pending', 'confirmed')`),
  );
  return { total: String(row?.total ?? "0"), valuedOrders: Number(row?.valued_orders ?? 0), unvaluedOrders: Number(row?.unvalued_orders ?? 0) };
}
