import { beforeAll, describe, expect, test } from "vitest";
import { GET as list } from "@/app/api/payment-orders/route";
import { paymentOrders } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

/** A `next` link without its keyset cursor (opaque: it names the previous page's last item). */
function withoutCursor(link: string | null): string | null {
  if (link === null) return null;
  const url = new URL(link, "http://x");
  expect(url.searchParams.get("cursor")).toMatch(/^[A-Za-z0-9_-]+$/);
  url.searchParams.delete("cursor");
  return `${url.pathname}?${url.searchParams.toString()}`;
}

const testDb = setupTestDatabase();

let merchant: TestMerchant;
/** The seven orders, in creation order. */
const orders: any[] = [];

// amount, currency, blockchain, status (set directly: detection is another component)
const seed: [string, string, string, string][] = [
  ["5", "USDC", "base", "pending"],
  ["0.5", "ETH", "base", "confirmed"],
  ["100", "USDT", "ethereum", "expired"],
  ["20", "USDC", "ethereum", "processing"],
  ["0.001", "ETH", "ethereum", "failed"],
  ["7.25", "USDC", "base", "confirmed"],
  ["5", "USDC", "base", "pending"],
];

beforeAll(async () => {
  merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 1 });
  await createWallet(merchant, { blockchain: 2 });
  const start = Date.parse("2030-01-01T00:00:00Z");
  let i = 0;
  for (const [amount, currency, blockchain, status] of seed) {
    const order = await createOrder(merchant, { amount, currency, blockchain, nonce: i });
    // Distinct, known creation times one minute apart, in creation order.
    await testDb.db
      .update(paymentOrders)
      .set({ status, createdAt: new Date(start + i * 60_000) })
      .where(eq(paymentOrders.id, order.id));
    orders.push({ ...order, status, created_at: new Date(start + i * 60_000).toISOString() });
    i += 1;
  }
  // Another merchant's orders never show up.
  const other = await createMerchant();
  await createWallet(other, { blockchain: 2 });
  await createOrder(other, { nonce: 1 });
});

const get = (query: Record<string, string | number> = {}) => call(list, "GET", "/api/payment-orders/", { token: merchant.access, query });
const ids = (res: { body: any }) => res.body.results.map((o: any) => o.id);
const idsOf = (indexes: number[]) => indexes.map((i) => orders[i].id);

describe("GET /api/payment-orders/", () => {
  test("lists items with exactly id, order_id, amount, currency, status, created_at; newest first by default", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(7);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
    expect(ids(res)).toEqual(idsOf([6, 5, 4, 3, 2, 1, 0]));
    for (const item of res.body.results) expect(Object.keys(item).sort()).toEqual(["amount", "created_at", "currency", "id", "order_id", "status"]);
    const first = orders[6];
    expect(res.body.results[0]).toEqual({
      id: first.id,
      order_id: first.order_id,
      amount: "5",
      currency: "USDC",
      status: "pending",
      created_at: first.created_at,
    });
  });

  test("pages: count, next and previous paths, last page, and a page beyond the end", async () => {
    const p1 = await get({ page_size: 3 });
    expect(p1.body.count).toBe(7);
    expect(ids(p1)).toEqual(idsOf([6, 5, 4]));
    expect(p1.body.previous).toBeNull();
    expect(withoutCursor(p1.body.next)).toBe("/api/payment-orders/?page_size=3&page=2");

    const p2 = await get({ page_size: 3, page: 2 });
    expect(ids(p2)).toEqual(idsOf([3, 2, 1]));
    expect(p2.body.previous).toBe("/api/payment-orders/?page_size=3&page=1");
    expect(withoutCursor(p2.body.next)).toBe("/api/payment-orders/?page_size=3&page=3");

    const p3 = await get({ page_size: 3, page: 3 });
    expect(ids(p3)).toEqual(idsOf([0]));
    expect(p3.body.next).toBeNull();
    expect(p3.body.previous).toBe("/api/payment-orders/?page_size=3&page=2");

    const beyond = await get({ page_size: 3, page: 9 });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ count: 7, next: null, previous: "/api/payment-orders/?page_size=3&page=3", results: [] });
  });

  test("next and previous keep the filters and ordering", async () => {
    const res = await get({ status: "confirmed", ordering: "amount", page_size: 1 });
    expect(res.body.count).toBe(2);
    expect(withoutCursor(res.body.next)).toBe("/api/payment-orders/?status=confirmed&ordering=amount&page_size=1&page=2");
    const next = await call(list, "GET", res.body.next, { token: merchant.access });
    expect(ids(next)).toEqual(idsOf([5]));
  });

  test("page_size defaults to 20 and is capped at 100", async () => {
    const who = await createMerchant();
    await createWallet(who, { blockchain: 2 });
    for (let n = 0; n < 101; n++) await createOrder(who, { nonce: n });
    const byDefault = await call(list, "GET", "/api/payment-orders/", { token: who.access });
    expect(byDefault.body.count).toBe(101);
    expect(byDefault.body.results).toHaveLength(20);
    expect(withoutCursor(byDefault.body.next)).toBe("/api/payment-orders/?page=2&page_size=20");
    const capped = await call(list, "GET", "/api/payment-orders/", { token: who.access, query: { page_size: 500 } });
    expect(capped.body.results).toHaveLength(100);
    expect(withoutCursor(capped.body.next)).toBe("/api/payment-orders/?page_size=100&page=2");
    const last = await call(list, "GET", "/api/payment-orders/", { token: who.access, query: { page_size: 500, page: 2 } });
    expect(last.body.results).toHaveLength(1);
    expect(last.body.next).toBeNull();
  });

  test.each([
    ["created_at", [0, 1, 2, 3, 4, 5, 6]],
    ["-created_at", [6, 5, 4, 3, 2, 1, 0]],
    // By value across tokens: 0.001 ETH < 0.5 ETH < 5 USDC (ties by id) < 7.25 < 20 < 100.
    ["amount", [4, 1, 0, 6, 5, 3, 2]],
    ["-amount", [2, 3, 5, 6, 0, 1, 4]],
    // confirmed < expired < failed < pending < processing (ties by id in the same direction)
    ["status", [1, 5, 2, 4, 0, 6, 3]],
    ["-status", [3, 6, 0, 4, 2, 5, 1]],
  ])("orders by %s", async (ordering, expected) => {
    const res = await get({ ordering });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(idsOf(expected as number[]));
  });

  test("filters by status, blockchain slug and currency (case-insensitive), combined", async () => {
    expect(ids(await get({ status: "confirmed" }))).toEqual(idsOf([5, 1]));
    expect(ids(await get({ status: "processing" }))).toEqual(idsOf([3]));
    expect(ids(await get({ blockchain: "ethereum" }))).toEqual(idsOf([4, 3, 2]));
    expect(ids(await get({ currency: "usdc" }))).toEqual(idsOf([6, 5, 3, 0]));
    expect(ids(await get({ blockchain: "base", currency: "USDC", status: "pending" }))).toEqual(idsOf([6, 0]));
    const none = await get({ blockchain: "polygon" });
    expect(none.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await get({ currency: "DAI" })).body.count).toBe(0);
    const counted = await get({ currency: "ETH", page_size: 1 });
    expect(counted.body.count).toBe(2);
  });

  test.each([
    [{ ordering: "nonce" }, "ordering"],
    [{ ordering: "--amount" }, "ordering"],
    [{ ordering: "" }, "ordering"],
    [{ page: "abc" }, "page"],
    [{ page: "0" }, "page"],
    [{ page: "-1" }, "page"],
    [{ page: "1.5" }, "page"],
    [{ page_size: "ten" }, "page_size"],
    [{ page_size: "0" }, "page_size"],
    [{ status: "paid" }, "status"],
    [{ blockchain: "solana" }, "blockchain"],
  ])("rejects %j with VALIDATION_ERROR on %s", async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(res.body.error.details)).toEqual([field]);
  });
});
