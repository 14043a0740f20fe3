import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as listOrders } from "@/app/api/payment-orders/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { GET as listDeliveries } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { rowsOf } from "@/lib/db/map-row";
import { exactCountBound } from "@/lib/list-window";
import { searchOrders } from "@/lib/orders/queries";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call, type CallResult, type Handler } from "../../helpers/request";

/**
 * Lists that cost the same at any history (issue 31): counts exact up to `exactCountBound`, `next`
 * links that page by keyset, and every list statement read from an index in its order (EXPLAIN).
 */
const statements: Array<{ query: string; params: unknown[] }> = [];
const testDb = setupTestDatabase({ logger: { logQuery: (query, params) => void statements.push({ query, params }) } });

// Each call's nonces (the template's, then one per copy) follow the last call's: ranges drawn at random
// overlapped now and then (a duplicate (merchant, nonce) seen once in CI, with 2,000 and 9,999 copies).
let nextNonce = 900_000_000;

/**
 * `count` more orders of the merchant copied in bulk from one made through the API: nonces,
 * order ids and addresses unique, created one minute apart going back in time, amounts repeating
 * (ties the keyset must break by id), statuses mixed; with a transfer, an event and a delivery each.
 */
async function growHistory(merchant: TestMerchant, count: number, endpointId: number) {
  const template = await createOrder(merchant, { nonce: nextNonce });
  nextNonce += count + 1;
  await testDb.db.execute(sql`
    insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
      receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at)
    select 'ORD-bulk' || t.id || 'x' || g, t.merchant_id, t.nonce + g, t.blockchain_id, t.currency, t.token_address, t.decimals,
      ((g % 7) + 1) * 1000000, 0, (array['confirmed', 'expired', 'confirmed', 'failed', 'pending'])[1 + g % 5],
      t.receiving_address || 'b' || g, t.deposit_destination, t.deposit_salt, t.deposit_factory, t.order_info, t.confirmation_threshold,
      t.expires_at, t.created_at - make_interval(mins => g), t.created_at - make_interval(mins => g)
    from payment_orders t, generate_series(1, ${count}) g where t.order_id = ${template.order_id}`);
  await testDb.db.execute(sql`
    insert into transactions (blockchain_id, tx_hash, log_index, block_number, block_hash, block_timestamp, from_address, to_address, currency, amount,
      status, payment_order_id, merchant_id, counted, created_at, updated_at)
    select o.blockchain_id, '0x' || md5(o.order_id) || md5(o.order_id || 'b'), 0, 1, '0x' || md5('b'), o.created_at, '0x' || md5('f'), o.receiving_address,
      o.currency, o.amount, 'confirmed', o.id, o.merchant_id, true, o.created_at, o.created_at
    from payment_orders o where o.order_id like ${`ORD-bulk${template.id}x%`}`);
  await testDb.db.execute(sql`
    insert into order_events (id, merchant_id, payment_order_id, type, sequence, data, created_at)
    select 'evt_bulk' || o.id, o.merchant_id, o.id, 'payment.' || o.status, 1, '{}'::jsonb, o.created_at
    from payment_orders o where o.order_id like ${`ORD-bulk${template.id}x%`}`);
  await testDb.db.execute(sql`
    insert into webhook_deliveries (message_id, merchant_id, event_id, endpoint_id, event_type, url, body, status, attempts, completed_at, created_at, updated_at)
    select 'msg_' || e.id, e.merchant_id, e.id, ${endpointId}, e.type, 'https://shop.example.com/hooks', '{}', 'succeeded', 1, e.created_at, e.created_at, e.created_at
    from order_events e join payment_orders o on o.id = e.payment_order_id where o.order_id like ${`ORD-bulk${template.id}x%`}`);
  await testDb.db.execute(sql`analyze`);
}

async function newEndpoint(merchant: TestMerchant): Promise<number> {
  const [row] = rowsOf(
    await testDb.db.execute(sql`
      insert into webhook_endpoints (merchant_id, url, events, secret, created_at, updated_at)
      values (${merchant.id}, 'https://shop.example.com/hooks', '{}', 'whsec_test', now(), now()) returning id`),
  );
  return Number(row!.id);
}

/** Every item of a list, following `next` links from the first page. */
async function followNext(handler: Handler, path: string, merchant: TestMerchant, params: Record<string, string> = {}) {
  const seen: unknown[] = [];
  let link: string | null = path;
  let pages = 0;
  while (link) {
    const res: CallResult = await call(handler, "GET", link, { token: merchant.access, params });
    expect(res.status).toBe(200);
    seen.push(...res.body.results);
    link = res.body.next;
    if (++pages > 200) throw new Error("next links do not end");
  }
  return { seen, pages };
}

describe("keyset next links", () => {
  test("following next links visits every order once, in the order page numbers give, for each ordering (ties on amount break by id)", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await growHistory(merchant, 60, await newEndpoint(merchant));
    for (const ordering of ["-created_at", "created_at", "-amount", "amount", "status", "-status"]) {
      const byPages: unknown[] = [];
      for (let page = 1; page <= 7; page++) {
        const res = await call(listOrders, "GET", `/api/payment-orders/?ordering=${ordering}&page_size=10&page=${page}`, { token: merchant.access });
        byPages.push(...res.body.results);
      }
      const { seen, pages } = await followNext(listOrders, `/api/payment-orders/?ordering=${ordering}&page_size=10`, merchant);
      expect(pages).toBe(7);
      expect(seen).toHaveLength(61);
      expect(seen, ordering).toEqual(byPages);
    }
  });

  test("a next link reached by cursor keeps the filters, and its page reads only after the cursor", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await growHistory(merchant, 30, await newEndpoint(merchant));
    const { seen } = await followNext(listOrders, "/api/payment-orders/?status=confirmed&page_size=4", merchant);
    const all = await call(listOrders, "GET", "/api/payment-orders/?status=confirmed&page_size=100", { token: merchant.access });
    expect(seen).toEqual(all.body.results);
    expect(all.body.count).toBe(seen.length);
  });

  test("events, transactions and deliveries: next links visit every item once, newest first", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const endpointId = await newEndpoint(merchant);
    await growHistory(merchant, 25, endpointId);
    const events = await followNext(listEvents, "/api/events/?page_size=7", merchant);
    expect(new Set(events.seen.map((e) => (e as { id: string }).id)).size).toBe(25);
    const transfers = await followNext(listTransactions, "/api/transactions/?page_size=7", merchant);
    expect(transfers.seen).toHaveLength(25);
    const all = await call(listTransactions, "GET", "/api/transactions/?page_size=100", { token: merchant.access });
    expect(transfers.seen).toEqual(all.body.results);
    const deliveries = await followNext(listDeliveries, `/api/webhook-endpoints/${endpointId}/deliveries/?page_size=7`, merchant, { id: String(endpointId) });
    expect(new Set(deliveries.seen.map((d) => (d as { id: number }).id)).size).toBe(25);
  });

  test("a cursor that is not one, or one of another ordering, is 400 VALIDATION_ERROR on cursor", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await growHistory(merchant, 5, await newEndpoint(merchant));
    const first = await call(listOrders, "GET", "/api/payment-orders/?ordering=-amount&page_size=2", { token: merchant.access });
    const cursor = new URL(first.body.next, "http://x").searchParams.get("cursor")!;
    for (const path of [
      `/api/payment-orders/?ordering=created_at&cursor=${cursor}`,
      "/api/payment-orders/?cursor=bm9wZQ",
      "/api/payment-orders/?cursor=a%20b",
    ]) {
      const res = await call(listOrders, "GET", path, { token: merchant.access });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.cursor).toBeDefined();
    }
    const events = await call(listEvents, "GET", "/api/events/?cursor=bm9wZQ", { token: merchant.access });
    expect(events.status).toBe(400);
  });
});

describe("deep pages by number (read from the nearer end)", () => {
  test("pages 1 to the last, by number, give every order exactly once in the list's order, for each ordering and a filter; next links from a deep page go on from it", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await growHistory(merchant, 60, await newEndpoint(merchant)); // 61 orders: the last page of 7 has 5
    for (const path of [
      "ordering=-created_at",
      "ordering=created_at",
      "ordering=-amount",
      "ordering=amount",
      "ordering=status",
      "ordering=-status",
      "status=confirmed",
    ]) {
      const all = await call(listOrders, "GET", `/api/payment-orders/?${path}&page_size=100`, { token: merchant.access });
      const ids = all.body.results.map((o: { id: number }) => o.id);
      const lastPage = Math.ceil(all.body.count / 7);
      const byPages: number[] = [];
      for (let page = 1; page <= lastPage + 1; page++) {
        const res = await call(listOrders, "GET", `/api/payment-orders/?${path}&page_size=7&page=${page}`, { token: merchant.access });
        expect(res.status).toBe(200);
        expect(res.body.count, path).toBe(ids.length);
        byPages.push(...res.body.results.map((o: { id: number }) => o.id));
        // next exists exactly up to the last page; previous on every page after the first.
        expect(res.body.next === null, `${path} page ${page}`).toBe(page >= lastPage);
        expect(res.body.previous === null).toBe(page === 1);
        if (page === lastPage) expect(res.body.results).toHaveLength(ids.length - 7 * (lastPage - 1));
        if (page === lastPage + 1) expect(res.body.results).toEqual([]);
      }
      expect(byPages, path).toEqual(ids);
      expect(new Set(byPages).size).toBe(ids.length);
      // A page in the back half (read in reverse) links on by cursor to the rest, in order.
      const deep = await call(listOrders, "GET", `/api/payment-orders/?${path}&page_size=7&page=${lastPage - 1}`, { token: merchant.access });
      const { seen } = await followNext(listOrders, deep.body.next, merchant);
      expect(
        seen.map((o) => (o as { id: number }).id),
        path,
      ).toEqual(ids.slice(7 * (lastPage - 1)));
    }
  });

  test("transactions and the dashboard search: every page by number in order, the last page partial", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await growHistory(merchant, 40, await newEndpoint(merchant));
    const all = await call(listTransactions, "GET", "/api/transactions/?page_size=100", { token: merchant.access });
    const byPages: unknown[] = [];
    for (let page = 1; page <= 6; page++)
      byPages.push(...(await call(listTransactions, "GET", `/api/transactions/?page_size=8&page=${page}`, { token: merchant.access })).body.results);
    expect(byPages).toEqual(all.body.results);
    const search = await searchOrders(testDb.db, merchant.id, {}, { limit: 100, offset: 0 });
    const searchPages: number[] = [];
    for (let offset = 0; offset < 50; offset += 9)
      searchPages.push(...(await searchOrders(testDb.db, merchant.id, {}, { limit: 9, offset })).rows.map((o) => o.id));
    expect(searchPages).toEqual(search.rows.map((o) => o.id));
  });

  test("events and deliveries, unfiltered and filtered: pages 1 to the last by number give every item once in the list's order, the count exact; next links from a deep page go on from it", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const endpointId = await newEndpoint(merchant);
    await growHistory(merchant, 60, endpointId);
    // Every third delivery failed, for the status filter.
    await testDb.db.execute(sql`update webhook_deliveries set status = 'failed' where endpoint_id = ${endpointId} and id % 3 = 0`);
    const params = { id: String(endpointId) };
    const deliveries = `/api/webhook-endpoints/${endpointId}/deliveries/`;
    const lists: Array<[Handler, string]> = [
      [listEvents, "/api/events/?"],
      [listEvents, "/api/events/?event=payment.confirmed&"],
      [listDeliveries, `${deliveries}?`],
      [listDeliveries, `${deliveries}?status=failed&`],
    ];
    for (const [handler, path] of lists) {
      const all = await call(handler, "GET", `${path}page_size=100`, { token: merchant.access, params });
      const ids = all.body.results.map((item: { id: string | number }) => item.id);
      expect(ids.length, path).toBeGreaterThan(10);
      expect(all.body.count, path).toBe(ids.length);
      const lastPage = Math.ceil(ids.length / 4);
      const byPages: unknown[] = [];
      for (let page = 1; page <= lastPage + 1; page++) {
        const res = await call(handler, "GET", `${path}page_size=4&page=${page}`, { token: merchant.access, params });
        expect(res.status).toBe(200);
        expect(res.body.count, `${path} page ${page}`).toBe(ids.length);
        expect(res.body.next === null, `${path} page ${page}`).toBe(page >= lastPage);
        expect(res.body.previous === null).toBe(page === 1);
        byPages.push(...res.body.results.map((item: { id: string | number }) => item.id));
      }
      expect(byPages, path).toEqual(ids);
      const deep = await call(handler, "GET", `${path}page_size=4&page=${lastPage - 1}`, { token: merchant.access, params });
      const { seen } = await followNext(handler, deep.body.next, merchant, params);
      expect(
        seen.map((item) => (item as { id: string | number }).id),
        path,
      ).toEqual(ids.slice(4 * (lastPage - 1)));
    }
    // Another merchant's endpoint is 404, whatever the page.
    const other = await createMerchant();
    expect((await call(listDeliveries, "GET", `${deliveries}?page=3`, { token: other.access, params })).status).toBe(404);
  });

  test("the last page reads only its own rows from the index (EXPLAIN ANALYZE), in either ordering, on every keyset list", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const endpointId = await newEndpoint(merchant);
    await growHistory(merchant, 3000, endpointId);
    const handlers: Record<string, Handler> = {
      "payment-orders": listOrders,
      transactions: listTransactions,
      events: listEvents,
      "webhook-endpoints": listDeliveries,
    };
    for (const path of [
      "/api/payment-orders/?page=151",
      "/api/payment-orders/?ordering=-amount&page=150",
      "/api/payment-orders/?ordering=created_at&page=148",
      "/api/transactions/?page=150",
      "/api/events/?page=150",
      "/api/events/?event=payment.expired&page=30",
      `/api/webhook-endpoints/${endpointId}/deliveries/?page=150`,
    ]) {
      const handler = handlers[path.split("/")[2]!]!;
      const before = statements.length;
      const res = await call(handler, "GET", path, { token: merchant.access, params: { id: String(endpointId) } });
      expect(res.status, path).toBe(200);
      expect(res.body.results.length, path).toBeGreaterThan(0);
      // The page's statement, not the count a deep page number reads first (`select (select count(*) …`).
      const [page] = statements
        .slice(before)
        .filter(
          (s) =>
            /^select .* from "(payment_orders|transactions|order_events|webhook_deliveries)"/s.test(s.query) &&
            /order by/.test(s.query) &&
            !/^select \(select count/.test(s.query),
        );
      let text = page!.query;
      for (let i = page!.params.length; i >= 1; i--) text = text.replaceAll(`$${i}`, `'${String(page!.params[i - 1]).replaceAll("'", "''")}'`);
      const plan = rowsOf(await testDb.db.execute(sql.raw(`explain (analyze, costs off, timing off, summary off) ${text}`)))
        .map((row) => String(row["QUERY PLAN"]))
        .join("\n");
      expect(plan, path).not.toMatch(/Seq Scan|\bSort\b/);
      // The scan under the Limit returns the page (and the few rows it skips from the end), not the 3000 before it.
      const scanned = [...plan.matchAll(/Index (?:Only )?Scan.*actual rows=(\d+)/g)].map((m) => Number(m[1]));
      expect(scanned.length, plan).toBeGreaterThan(0);
      expect(Math.max(...scanned), plan).toBeLessThanOrEqual(61);
    }
  });
});

describe("counts", () => {
  test(`count is exact up to ${exactCountBound} matching items, on every filter, then an estimate above the bound where the database keeps no count (a dashboard search by dates); the API's lists exact at any size`, async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const endpointId = await newEndpoint(merchant);
    await growHistory(merchant, exactCountBound - 1, endpointId); // + the template: exactly the bound
    const all = await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access });
    expect(all.body.count).toBe(exactCountBound);
    const [byStatus] = rowsOf(
      await testDb.db.execute(sql`select count(*)::int as n from payment_orders where merchant_id = ${merchant.id} and status = 'expired'`),
    );
    expect((await call(listOrders, "GET", "/api/payment-orders/?status=expired", { token: merchant.access })).body.count).toBe(byStatus!.n);
    expect((await call(listEvents, "GET", "/api/events/?event=payment.expired", { token: merchant.access })).body.count).toBe(byStatus!.n);
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access })).body.count).toBe(exactCountBound - 1);
    expect((await call(listEvents, "GET", "/api/events/", { token: merchant.access })).body.count).toBe(exactCountBound - 1);
    const deliveries = `/api/webhook-endpoints/${endpointId}/deliveries/`;
    expect((await call(listDeliveries, "GET", deliveries, { token: merchant.access, params: { id: String(endpointId) } })).body.count).toBe(
      exactCountBound - 1,
    );
    expect((await call(listDeliveries, "GET", `${deliveries}?page=2000`, { token: merchant.access, params: { id: String(endpointId) } })).body).toMatchObject({
      count: exactCountBound - 1,
      next: null,
      results: [],
    });
    expect((await searchOrders(testDb.db, merchant.id, { status: "expired" }, { limit: 25, offset: 0 })).count).toBe(byStatus!.n);
    // A page past the end still carries the exact count.
    const beyond = await call(listOrders, "GET", "/api/payment-orders/?status=expired&page=5000", { token: merchant.access });
    expect(beyond.body).toMatchObject({ count: byStatus!.n, next: null, results: [] });

    const secondEndpoint = await newEndpoint(merchant);
    await growHistory(merchant, 2000, secondEndpoint);
    // A dashboard search by dates counts from rows (the maintained counts are not kept by day): above the bound, the planner's estimate.
    const byDates = await searchOrders(testDb.db, merchant.id, { from: new Date(0) }, { limit: 25, offset: 0 });
    expect(byDates.exact).toBe(false);
    expect(byDates.count).toBeGreaterThan(exactCountBound);
    expect(byDates.count).toBeLessThan(3 * (exactCountBound + 2001)); // from fresh statistics

    // Orders, transactions, events and deliveries: the database keeps their number, exact at any size.
    const recount = async (table: "payment_orders" | "transactions" | "order_events", where = sql`true`) => {
      const [row] = rowsOf(
        await testDb.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where merchant_id = ${merchant.id} and ${where}`),
      );
      return Number(row!.n);
    };
    // Some orders moved to another chain and token, some transfers back to pending: each filter then keeps a part.
    await testDb.db.execute(sql`update payment_orders set blockchain_id = 1, currency = 'ETH' where merchant_id = ${merchant.id} and id % 7 = 0`);
    await testDb.db.execute(sql`update transactions set status = 'pending' where merchant_id = ${merchant.id} and id % 3 = 0`);
    const allOrders = await recount("payment_orders");
    expect(allOrders).toBe(exactCountBound + 2001);
    expect((await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access })).body.count).toBe(allOrders);
    const confirmed = await recount("payment_orders", sql`status = 'confirmed'`);
    const confirmedBaseUsdc = await recount("payment_orders", sql`status = 'confirmed' and blockchain_id = 2 and currency = 'USDC'`);
    expect(confirmedBaseUsdc).toBeGreaterThan(0);
    expect(confirmedBaseUsdc).toBeLessThan(confirmed);
    expect((await call(listOrders, "GET", "/api/payment-orders/?status=confirmed&blockchain=base&currency=usdc", { token: merchant.access })).body.count).toBe(
      confirmedBaseUsdc,
    );
    expect((await call(listOrders, "GET", "/api/payment-orders/?currency=eth", { token: merchant.access })).body.count).toBe(
      await recount("payment_orders", sql`currency = 'ETH'`),
    );
    const confirmedTransfers = await recount("transactions", sql`status = 'confirmed' and blockchain_id = 2`);
    expect(confirmedTransfers).toBeGreaterThan(0);
    expect(confirmedTransfers).toBeLessThan(await recount("transactions"));
    expect((await call(listTransactions, "GET", "/api/transactions/?status=confirmed&blockchain=base", { token: merchant.access })).body.count).toBe(
      confirmedTransfers,
    );
    expect((await call(listEvents, "GET", "/api/events/", { token: merchant.access })).body.count).toBe(exactCountBound + 1999);
    expect((await call(listEvents, "GET", "/api/events/?event=payment.confirmed", { token: merchant.access })).body.count).toBe(
      await recount("order_events", sql`type = 'payment.confirmed'`),
    );
    expect((await call(listDeliveries, "GET", deliveries, { token: merchant.access, params: { id: String(endpointId) } })).body.count).toBe(
      exactCountBound - 1,
    );
    const secondDeliveries = `/api/webhook-endpoints/${secondEndpoint}/deliveries/`;
    expect(
      (await call(listDeliveries, "GET", `${secondDeliveries}?status=succeeded`, { token: merchant.access, params: { id: String(secondEndpoint) } })).body
        .count,
    ).toBe(2000);
    const search = await searchOrders(testDb.db, merchant.id, {}, { limit: 25, offset: 0 });
    expect(search).toMatchObject({ count: allOrders, exact: true });
    expect((await searchOrders(testDb.db, merchant.id, { status: "confirmed" }, { limit: 25, offset: 0 })).count).toBe(confirmed);
    // The last page by number is the oldest orders, as OFFSET gives them.
    const lastPage = Math.ceil(allOrders / 20);
    const last = await call(listOrders, "GET", `/api/payment-orders/?page=${lastPage}`, { token: merchant.access });
    const [oldest] = rowsOf(
      await testDb.db.execute(sql`select order_id from payment_orders where merchant_id = ${merchant.id} order by created_at, id limit 1`),
    );
    expect(last.body.results).toHaveLength(allOrders - (lastPage - 1) * 20);
    expect(last.body.results.at(-1).order_id).toBe(oldest!.order_id);
  });
});

/** A text EXPLAIN without its InitPlan subtrees (the bounded count, single-row lookups), by indentation. */
function withoutInitPlans(plan: string): string {
  const kept: string[] = [];
  let skippingBelow: number | null = null;
  for (const line of plan.split("\n")) {
    const indent = line.search(/\S/);
    if (skippingBelow !== null && indent > skippingBelow) continue;
    skippingBelow = null;
    if (/^\s*InitPlan\b/.test(line)) {
      skippingBelow = indent;
      continue;
    }
    kept.push(line);
  }
  return kept.join("\n");
}

describe("EXPLAIN: every list statement reads an index in the list's order", () => {
  test("orders (each filter and ordering), events, transactions, deliveries, the dashboard search and the CSV export: no seq scan, no sort of the history", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const endpointId = await newEndpoint(merchant);
    await growHistory(merchant, 3000, endpointId);
    const other = await createMerchant(); // another merchant's history, so merchant_id is selective
    await createWallet(other);
    await growHistory(other, 3000, await newEndpoint(other));
    const first = await call(listOrders, "GET", "/api/payment-orders/?page_size=5", { token: merchant.access });
    const cursorOf = (link: string) => new URL(link, "http://x").searchParams.get("cursor");
    const requests: Array<[Handler, string, Record<string, string>?]> = [
      [listOrders, "/api/payment-orders/"],
      [listOrders, "/api/payment-orders/?status=pending&blockchain=base"],
      [listOrders, "/api/payment-orders/?status=confirmed"],
      [listOrders, "/api/payment-orders/?blockchain=base"],
      [listOrders, "/api/payment-orders/?currency=usdc"],
      [listOrders, "/api/payment-orders/?ordering=created_at"],
      [listOrders, "/api/payment-orders/?ordering=-amount"],
      [listOrders, "/api/payment-orders/?ordering=amount"],
      [listOrders, "/api/payment-orders/?ordering=status"],
      [listOrders, "/api/payment-orders/?ordering=-status&status=expired"],
      [listOrders, `/api/payment-orders/?page=2&cursor=${cursorOf(first.body.next)}`],
      // Page 20 by number (issue 51 item 6): OFFSET 380 down the created-at index, and the amount index.
      [listOrders, "/api/payment-orders/?page=20"],
      [listOrders, "/api/payment-orders/?ordering=-amount&page=20"],
      [listEvents, "/api/events/"],
      [listEvents, "/api/events/?event=payment.confirmed"],
      [listEvents, "/api/events/?page=120"],
      [listEvents, "/api/events/?event=payment.expired&page=20"],
      [listEvents, `/api/events/?page=2&cursor=${cursorOf((await call(listEvents, "GET", "/api/events/?page_size=5", { token: merchant.access })).body.next)}`],
      [listTransactions, "/api/transactions/"],
      [listTransactions, "/api/transactions/?status=failed"],
      [listTransactions, "/api/transactions/?status=confirmed&blockchain=base"],
      [listTransactions, "/api/transactions/?blockchain=base"],
      [listDeliveries, `/api/webhook-endpoints/${endpointId}/deliveries/`, { id: String(endpointId) }],
      [listDeliveries, `/api/webhook-endpoints/${endpointId}/deliveries/?status=failed`, { id: String(endpointId) }],
      [listDeliveries, `/api/webhook-endpoints/${endpointId}/deliveries/?page=120`, { id: String(endpointId) }],
      [listDeliveries, `/api/webhook-endpoints/${endpointId}/deliveries/?status=succeeded&page=100`, { id: String(endpointId) }],
    ];
    const before = statements.length;
    for (const [handler, path, params] of requests) expect((await call(handler, "GET", path, { token: merchant.access, params })).status, path).toBe(200);
    await searchOrders(testDb.db, merchant.id, { status: "expired" }, { limit: 25, offset: 0 });
    // A text on every order (the template's order_info): the newest-rows probe, newest first down the created-at index.
    expect((await searchOrders(testDb.db, merchant.id, { q: "sku" }, { limit: 25, offset: 0 })).rows).toHaveLength(25);
    expect((await searchOrders(testDb.db, merchant.id, { q: "sku", status: "expired" }, { limit: 25, offset: 25 })).rows).toHaveLength(25);
    const { ordersCsvStream } = await import("@/lib/dashboard/orders-csv");
    const reader = ordersCsvStream(testDb.db, merchant.id, { from: new Date(Date.now() - 30 * 86_400_000), to: new Date(Date.now() + 86_400_000) }).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    await reader.cancel();

    const lists = statements
      .slice(before)
      .filter((s) => /^select .* from "(payment_orders|order_events|transactions|webhook_deliveries)"/s.test(s.query) && /order by/.test(s.query));
    expect(lists.length).toBeGreaterThanOrEqual(requests.length + 2);
    for (const { query, params } of lists) {
      // The parameters inlined as literals, last first ($12 before $1).
      let text = query;
      for (let i = params.length; i >= 1; i--) {
        const value = params[i - 1];
        const literal = value === null ? "null" : `'${String(value instanceof Date ? value.toISOString() : value).replaceAll("'", "''")}'`;
        text = text.replaceAll(`$${i}`, literal);
      }
      const plan = rowsOf(await testDb.db.execute(sql.raw(`explain ${text}`)))
        .map((row) => String(row["QUERY PLAN"]))
        .join("\n");
      // The maintained counts' tables hold a few rows per merchant (a whole-table read is what they are for while small).
      expect(plan.replace(/Seq Scan on list_count(s|_changes)\b/g, ""), query).not.toMatch(/Seq Scan/);
      // A sort would read and order every matching row of the history before the first one is returned.
      // Failed transfers (failed or dropped: two ranges of the status index) are the exception: rare, sorted among themselves only.
      if (/"status" in \(/.test(query)) expect(plan, query).toMatch(/Index Cond: \(\(merchant_id = \d+\) AND \(status = ANY/);
      // The bounded count beside the page (an InitPlan) reads at most the bound's worth of rows in the
      // created-at order its filter's index has; with fewer rows than the bound, as here, PostgreSQL may
      // sort them instead (at a million orders it reads the index: `npm run bench -- scale`).
      else expect(withoutInitPlans(plan), query).not.toMatch(/\bSort\b/);
    }
    const probes = lists.filter((s) => /^select \* from \(select \* from "payment_orders"/.test(s.query));
    expect(probes).toHaveLength(2);
  });

  test("the dashboard search for an order id or a deposit address (whole or its start, any case) matches it as a range of a (merchant, lower(…)) index", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await growHistory(merchant, 3000, await newEndpoint(merchant));
    const [oldest] = rowsOf(
      await testDb.db.execute(sql`select order_id from payment_orders where merchant_id = ${merchant.id} order by created_at, id limit 1`),
    );
    const orderId = String(oldest!.order_id);
    for (const q of [orderId, orderId.toLowerCase(), orderId.slice(0, -1)]) {
      const before = statements.length;
      const found = await searchOrders(testDb.db, merchant.id, { q }, { limit: 25, offset: 0 });
      expect(
        found.rows.map((o) => o.orderId),
        q,
      ).toContain(orderId);
      // The order id part of the search is a prefix match of lower(order_id) (the rest of the OR, the
      // other columns, goes to the trigram index: at a million orders the planner ORs the two
      // bitmaps; at this size it rightly reads the merchant's 3,000 rows instead).
      const [page] = statements.slice(before).filter((s) => /^select .* from "payment_orders"/s.test(s.query) && /order by/.test(s.query));
      expect(page!.query).toMatch(/lower\("order_id"\) like \$\d+/);
      const prefix = `${q.toLowerCase()}%`;
      expect(page!.params).toContain(prefix);
      const plan = rowsOf(
        await testDb.db.execute(sql.raw(`explain select id from payment_orders where merchant_id = ${merchant.id} and lower(order_id) like '${prefix}'`)),
      )
        .map((row) => String(row["QUERY PLAN"]))
        .join("\n");
      expect(plan, q).toMatch(/payment_orders_merchant_order_id_idx/);
      expect(plan, q).toMatch(/Index Cond: \(\(merchant_id = \d+\) AND \(lower\(order_id\) ~>=~ /);
    }
    // A deposit address (0x…, whole or its start) likewise, on (merchant, lower(receiving_address)).
    const [newest] = rowsOf(
      await testDb.db.execute(sql`select receiving_address from payment_orders where merchant_id = ${merchant.id} order by created_at desc, id desc limit 1`),
    );
    const address = String(newest!.receiving_address);
    for (const q of [address.toUpperCase().replace("0X", "0x"), address.slice(0, 12)]) {
      const before = statements.length;
      expect(
        (await searchOrders(testDb.db, merchant.id, { q }, { limit: 25, offset: 0 })).rows.map((o) => o.receivingAddress),
        q,
      ).toContain(address);
      const [page] = statements.slice(before).filter((s) => /^select .* from "payment_orders"/s.test(s.query) && /order by/.test(s.query));
      expect(page!.query).toMatch(/lower\("receiving_address"\) like \$\d+/);
      const plan = rowsOf(
        await testDb.db.execute(
          sql.raw(`explain select id from payment_orders where merchant_id = ${merchant.id} and lower(receiving_address) like '${q.toLowerCase()}%'`),
        ),
      )
        .map((row) => String(row["QUERY PLAN"]))
        .join("\n");
      expect(plan, q).toMatch(/payment_orders_merchant_address_idx/);
    }
  });
});
