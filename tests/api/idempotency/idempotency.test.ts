import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { GET as listOrders, POST as createOrderRoute } from "@/app/api/payment-orders/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { idempotencyKeys, paymentOrders } from "@/lib/db/schema";
import { claimIdempotencyKey } from "@/lib/idempotency/queries";
import { runRetention } from "@/lib/retention/retention";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, createWallet, type TestMerchant } from "../../helpers/factories";
import { call, type CallResult } from "../../helpers/request";

const testDb = setupTestDatabase();
afterEach(() => vi.useRealTimers());

let merchant: TestMerchant;
let nonce = 1000;
let keyCounter = 0;
const newKey = () => `key-${Date.now()}-${++keyCounter}`;
const orderBody = (overrides: Record<string, unknown> = {}) => ({
  amount: "12.5",
  currency: "USDC",
  blockchain: "base",
  order_info: '{"sku":1}',
  nonce: ++nonce,
  ...overrides,
});

const create = (body: unknown, key?: string, who: TestMerchant = merchant) =>
  call(createOrderRoute, "POST", "/api/payment-orders/", { token: who.access, body, headers: key === undefined ? {} : { "Idempotency-Key": key } });

async function ordersWithNonce(who: TestMerchant, n: number) {
  return testDb.db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.merchantId, who.id), eq(paymentOrders.nonce, n)));
}

/** The response body as text minus nothing: replays must be byte-identical. */
const text = (res: CallResult) => JSON.stringify(res.body);

beforeAll(async () => {
  merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2 });
});

describe("POST with Idempotency-Key", () => {
  test("the same key and body replays the first answer exactly, and creates one order", async () => {
    const key = newKey();
    const body = orderBody();
    const first = await create(body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same request, keys in another order: still the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await create(reordered, key);
    expect(second.status).toBe(201);
    expect(text(second)).toBe(text(first));
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("original-request")).toBe(first.headers.get("x-request-id"));
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(second.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(await ordersWithNonce(merchant, body.nonce)).toHaveLength(1);
  });

  test("the same key with a different body or another route is 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const key = newKey();
    const body = orderBody();
    expect((await create(body, key)).status).toBe(201);
    const changed = await create({ ...body, amount: "13" }, key);
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({ success: false, error: { code: "IDEMPOTENCY_KEY_REUSED" } });
    const otherRoute = await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
      token: merchant.access,
      body: { url: "https://example.com/hook" },
      headers: { "Idempotency-Key": key },
    });
    expect(otherRoute.status).toBe(422);
    expect(otherRoute.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    // The first answer is still there for the real retry.
    expect((await create(body, key)).headers.get("idempotent-replayed")).toBe("true");
  });

  test("a 4xx answer of the request itself is stored and replayed too", async () => {
    const key = newKey();
    const body = orderBody({ blockchain: "polygon" }); // no polygon wallet yet
    const first = await create(body, key);
    expect(first.status).toBe(400);
    expect(first.body.error.code).toBe("WALLET_NOT_CONFIGURED");
    await createWallet(merchant, { blockchain: 3 });
    const replay = await create(body, key);
    expect(replay.status).toBe(400);
    expect(text(replay)).toBe(text(first));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    // A new key runs it again, now with the wallet there.
    expect((await create(body, newKey())).status).toBe(201);
  });

  test("keys belong to one merchant: another merchant's same key runs its own request", async () => {
    const other = await createMerchant();
    await createWallet(other, { blockchain: 2 });
    const key = newKey();
    const body = orderBody();
    const mine = await create(body, key);
    const theirs = await create(body, key, other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.data.order_id).not.toBe(mine.body.data.order_id);
  });

  test("concurrent requests with one key create one order; none gets DUPLICATE_NONCE", async () => {
    const key = newKey();
    const body = orderBody();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(body, key)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(answers.map((a) => a.body)),
    ).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body.error.code).toBe("IDEMPOTENCY_REQUEST_IN_PROGRESS");
      expect(answer.headers.get("retry-after")).toBe("1");
    }
    const orderIds = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.order_id));
    expect(orderIds.size).toBe(1);
    const retry = await create(body, key);
    expect(retry.status).toBe(201);
    expect(retry.body.data.order_id).toBe([...orderIds][0]);
    expect(await ordersWithNonce(merchant, body.nonce)).toHaveLength(1);
  });

  test("simultaneous claims of one key: exactly one wins, the others see its claim", async () => {
    const key = newKey();
    const now = new Date();
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        claimIdempotencyKey(testDb.db, {
          merchantId: merchant.id,
          key,
          requestHash: "same-request",
          lockToken: `token-${i}`,
          requestId: `request-${i}`,
          now,
          expiresAt: new Date(now.getTime() + 86_400_000),
          staleBefore: new Date(now.getTime() - 120_000),
        }),
      ),
    );
    const winners = claims.map((row, i) => (row.lockToken === `token-${i}` ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(1);
    expect(new Set(claims.map((row) => row.lockToken))).toEqual(new Set([`token-${winners[0]}`]));
  });

  test("while the first request runs: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS; an abandoned claim is taken over by the same request only", async () => {
    const key = newKey();
    const body = orderBody();
    const first = await create(body, key); // only to learn the stored fingerprint
    const [row] = await testDb.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.merchantId, merchant.id), eq(idempotencyKeys.key, key)));
    // Make it look like a request still running (no answer yet), claimed just now.
    const retryBody = orderBody();
    const inFlightKey = newKey();
    await testDb.db
      .insert(idempotencyKeys)
      .values({ ...row!, key: inFlightKey, status: null, responseBody: null, responseHeaders: null, createdAt: new Date() });
    const busy = await create(body, inFlightKey);
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe("IDEMPOTENCY_REQUEST_IN_PROGRESS");
    // A claim unanswered for over 2 minutes belongs to a process that died: a different request still may not take it…
    await testDb.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 3 * 60_000) })
      .where(and(eq(idempotencyKeys.merchantId, merchant.id), eq(idempotencyKeys.key, inFlightKey)));
    expect((await create(retryBody, inFlightKey)).status).toBe(422);
    // …but the same request runs again (its order exists, so the nonce answers, naming it).
    const takenOver = await create(body, inFlightKey);
    expect(takenOver.status).toBe(400);
    expect(takenOver.body.error).toMatchObject({ code: "DUPLICATE_NONCE", details: { order_id: [first.body.data.order_id] } });
  });

  test("keys last 24 hours; retention deletes them afterwards", async () => {
    // An API key without expiry: the login token would expire in the 24 hours.
    const apiKey = await createApiKeyFor(merchant);
    const viaKey = { ...merchant, access: apiKey.key };
    const create = (body: unknown, key: string) =>
      call(createOrderRoute, "POST", "/api/payment-orders/", { token: viaKey.access, body, headers: { "Idempotency-Key": key } });
    const key = newKey();
    const body = orderBody();
    const first = await create(body, key);
    expect(first.status).toBe(201);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 23 * 3_600_000);
    expect((await create(body, key)).headers.get("idempotent-replayed")).toBe("true");
    vi.setSystemTime(Date.now() + 2 * 3_600_000); // 25 h after the first
    const later = await create(orderBody(), key);
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    vi.setSystemTime(Date.now() + 25 * 3_600_000);
    await runRetention(testDb.db, { now: new Date() });
    const left = await testDb.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, merchant.id));
    expect(left.filter((r) => r.expiresAt.getTime() < Date.now())).toEqual([]);
    expect(left.some((r) => r.key === key)).toBe(false);
  });

  test("a malformed key is 400 VALIDATION_ERROR and nothing runs", async () => {
    for (const key of ["x".repeat(256), "", "a\tb"]) {
      const body = orderBody();
      const res = await create(body, key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details["Idempotency-Key"]).toHaveLength(1);
      expect(await ordersWithNonce(merchant, body.nonce)).toHaveLength(0);
    }
    expect((await create(orderBody(), "y".repeat(255))).status).toBe(201);
  });
});

describe("DUPLICATE_NONCE names the order, and the list finds it by nonce", () => {
  test("POST /api/payment-orders/ with a used nonce gives the existing order_id in details", async () => {
    const body = orderBody();
    const first = await create(body);
    const again = await create(body);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: "DUPLICATE_NONCE",
      details: { order_id: [first.body.data.order_id], nonce: [expect.stringContaining(first.body.data.order_id)] },
    });
    const found = await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access, query: { nonce: body.nonce } });
    expect(found.status).toBe(200);
    expect(found.body.count).toBe(1);
    expect(found.body.results[0].order_id).toBe(first.body.data.order_id);
    const none = await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access, query: { nonce: 999_999_999 } });
    expect(none.body.count).toBe(0);
    const bad = await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access, query: { nonce: "abc" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.nonce).toBeDefined();
  });
});

describe("list endpoints refuse unknown query parameters", () => {
  test("every GET with a query schema answers 400 VALIDATION_ERROR naming the unknown parameter", async () => {
    const { allRouteKeys, loadRoute } = await import("../../helpers/routes");
    let lists = 0;
    for (const key of allRouteKeys.filter((k) => k.startsWith("GET "))) {
      const { handler, params, urlPath, definition } = await loadRoute(key);
      if (!definition?.query) continue;
      lists += 1;
      const res = await call(handler, "GET", urlPath, { token: merchant.access, params, query: { page: 1, frobnicate: "1" } });
      expect(res.status, key).toBe(400);
      expect(res.body.error.code, key).toBe("VALIDATION_ERROR");
      expect(Object.keys(res.body.error.details), key).toEqual(["frobnicate"]);
    }
    expect(lists).toBeGreaterThanOrEqual(8);
    // Known parameters still work.
    const ok = await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access, query: { page: 1, status: "pending" } });
    expect(ok.status).toBe(200);
  });
});
