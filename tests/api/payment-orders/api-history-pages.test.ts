import { sql } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { GET as listOrders } from "@/app/api/payment-orders/route";
import { noSortSettings, noSortsApplicationName } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/map-row";
import { backend, setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

/**
 * Issue 51 item 6: page numbers of a history made through the API. Its own file, so its database
 * is fresh and nothing has analyzed it: the planner has no statistics for the merchant's orders
 * (as where autovacuum is off or behind, and on PGlite, which has none), the case in which page 20
 * sorted the merchant's whole history.
 */
const statements: Array<{ query: string; params: unknown[] }> = [];
const testDb = setupTestDatabase({ logger: { logQuery: (query, params) => void statements.push({ query, params }) } });

afterEach(() => {
  vi.useRealTimers();
});

const pageSize = 3;
/** 130 orders: 44 pages of 3, the last with one; page 20 is read forward by OFFSET, the last from the end. */
const orderCount = 130;
/** Orders made within one millisecond of the stopped clock: they share created_at and are told apart by id. */
const tieGroup = 7;

/** `orderCount` orders through POST /api/payment-orders/, `tieGroup` at a time on one millisecond. */
async function historyWithTies(merchant: TestMerchant): Promise<void> {
  const start = Date.now();
  vi.useFakeTimers({ toFake: ["Date"], now: start });
  for (let made = 0; made < orderCount; made++) {
    vi.setSystemTime(start + Math.floor(made / tieGroup));
    await createOrder(merchant, { amount: String(1 + (made % 5)) });
  }
  vi.useRealTimers();
}

/** The merchant's order ids in the list's order, from the table itself. */
async function idsInOrder(merchantId: number, descending: boolean): Promise<number[]> {
  const direction = sql.raw(descending ? "desc" : "asc");
  const rows = rowsOf(
    await testDb.db.execute(sql`select id from payment_orders where merchant_id = ${merchantId} order by created_at ${direction}, id ${direction}`),
  );
  return rows.map((row) => Number(row.id));
}

type Statement = { query: string; params: unknown[] };

const inline = (statement: Statement) => {
  let text = statement.query;
  for (let i = statement.params.length; i >= 1; i--) text = text.replaceAll(`$${i}`, `'${String(statement.params[i - 1]).replaceAll("'", "''")}'`);
  return text;
};

/**
 * Whether the request ran its page statement with the planner's sorts off, as the list reads do
 * (`withoutSorts`): on PGlite, a settings statement before it in the same request; on PostgreSQL,
 * the statement is the last one a connection of the no-sort pool ran (pg_stat_activity).
 */
async function ranWithoutSorts(ran: Statement[], at: number): Promise<boolean> {
  if (backend === "pglite") return ran.slice(0, at).some((s) => /set_config\(/.test(s.query) && s.params.includes("enable_sort") && s.params.includes("off"));
  const page = ran[at]!.query;
  const rows = rowsOf(
    await testDb.db.execute(sql`select query from pg_stat_activity where datname = current_database() and application_name = ${noSortsApplicationName}`),
  );
  return rows.some((row) => page.startsWith(String(row.query)));
}

/** The plan of a request's page statement as the request ran it: with the no-sort settings when it ran with them. */
async function pagePlanOf(ran: Statement[]): Promise<string> {
  const at = ran.findIndex((s) => /^select .* from "payment_orders"/s.test(s.query) && /order by/.test(s.query));
  expect(at, ran.map((s) => s.query).join("\n")).toBeGreaterThanOrEqual(0);
  const settings = (await ranWithoutSorts(ran, at)) ? Object.entries(noSortSettings) : [];
  let plan = "";
  await testDb.db.transaction(async (tx) => {
    for (const [name, value] of settings) await tx.execute(sql`select set_config(${name}, ${value}, true)`);
    plan = rowsOf(await tx.execute(sql.raw(`explain (analyze, costs off, timing off, summary off) ${inline(ran[at]!)}`)))
      .map((row) => String(row["QUERY PLAN"]))
      .join("\n");
  });
  return plan;
}

describe("page numbers of a history made through the API, with created_at ties", () => {
  test("pages 1, 2, 20, the last and one beyond give each order once, in the list's order, either direction; next links go on from page 20", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await historyWithTies(merchant);
    const [tied] = rowsOf(
      await testDb.db.execute(sql`select count(*)::int - count(distinct created_at)::int as n from payment_orders where merchant_id = ${merchant.id}`),
    );
    expect(Number(tied!.n)).toBe(orderCount - Math.ceil(orderCount / tieGroup));
    const lastPage = Math.ceil(orderCount / pageSize);
    for (const ordering of ["-created_at", "created_at"]) {
      const ids = await idsInOrder(merchant.id, ordering.startsWith("-"));
      const path = (page: number) => `/api/payment-orders/?ordering=${ordering}&page_size=${pageSize}&page=${page}`;
      const seen: number[] = [];
      for (const page of [1, 2, 20, lastPage, lastPage + 1]) {
        const res = await call(listOrders, "GET", path(page), { token: merchant.access });
        expect(res.status).toBe(200);
        const pageIds = res.body.results.map((o: { id: number }) => o.id);
        expect(pageIds, `${ordering} page ${page}`).toEqual(ids.slice((page - 1) * pageSize, page * pageSize));
        expect(res.body.count).toBe(orderCount);
        expect(res.body.next === null, `${ordering} page ${page}`).toBe(page >= lastPage);
        expect(res.body.previous).toBe(
          page === 1 ? null : `/api/payment-orders/?ordering=${ordering}&page_size=${pageSize}&page=${Math.min(page - 1, lastPage)}`,
        );
        seen.push(...pageIds);
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toHaveLength(pageSize * 3 + (orderCount - pageSize * (lastPage - 1)));
      // Page 20's next link, by cursor, is page 21 by number.
      const page20 = await call(listOrders, "GET", path(20), { token: merchant.access });
      const byCursor = await call(listOrders, "GET", page20.body.next, { token: merchant.access });
      expect(byCursor.body.results.map((o: { id: number }) => o.id)).toEqual(ids.slice(20 * pageSize, 21 * pageSize));
    }
  });

  test("each page's statement reads the created-at index in order, never a sort of the history, though the planner has no statistics for the merchant (EXPLAIN)", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await historyWithTies(merchant);
    const lastPage = Math.ceil(orderCount / pageSize);
    const first = await call(listOrders, "GET", `/api/payment-orders/?page_size=${pageSize}`, { token: merchant.access });
    for (const path of [
      `/api/payment-orders/?page_size=${pageSize}`,
      `/api/payment-orders/?page_size=${pageSize}&page=2`,
      `/api/payment-orders/?page_size=${pageSize}&page=20`,
      `/api/payment-orders/?page_size=${pageSize}&page=${lastPage}`,
      `/api/payment-orders/?ordering=created_at&page_size=${pageSize}&page=20`,
      `/api/payment-orders/?ordering=-amount&page_size=${pageSize}&page=20`,
      `/api/payment-orders/?status=pending&page_size=${pageSize}&page=20`,
      first.body.next,
    ]) {
      const before = statements.length;
      const res = await call(listOrders, "GET", path, { token: merchant.access });
      expect(res.status, path).toBe(200);
      expect(res.body.results.length, path).toBeGreaterThan(0);
      const plan = await pagePlanOf(statements.slice(before));
      // (The first page and a cursor's carry the maintained count beside, read from list_counts.)
      expect(plan, path).not.toMatch(/\bSort\b|(Seq Scan|Bitmap Heap Scan) on payment_orders/);
      // The index scan returns the page and the rows it skips (20 pages of 3 at most), not the merchant's 130.
      const scanned = [...plan.matchAll(/Index (?:Only )?Scan.* on payment_orders .*actual rows=(\d+)/g)].map((m) => Number(m[1]));
      expect(scanned.length, plan).toBeGreaterThan(0);
      expect(Math.max(...scanned), plan).toBeLessThanOrEqual(20 * pageSize + 1);
    }
  });
});
