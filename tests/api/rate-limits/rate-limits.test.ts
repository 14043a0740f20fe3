import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { GET as verify } from "@/app/api/auth/verify/route";
import { GET as listKeys } from "@/app/api/api-keys/route";
import { GET as listBlockchains } from "@/app/api/blockchains/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { merchants, paymentOrders } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

async function setPlan(merchant: TestMerchant, plan: string, rateLimitPerHour: number | null = null) {
  await testDb.db.update(merchants).set({ plan, rateLimitPerHour }).where(eq(merchants.id, merchant.id));
}

const hourStart = (ms: number) => Math.floor(ms / 3_600_000) * 3_600_000;

describe("rate limit headers", () => {
  test("every authenticated response carries limit, remaining and reset (unix seconds of the window end)", async () => {
    const merchant = await createMerchant();
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = hourStart(Date.now()) + 3_600_000 + 20 * 60_000 + 15_000; // 20m15s into the next hour
    vi.setSystemTime(now);
    const first = await call(verify, "GET", "/api/auth/verify/", { token: merchant.access });
    expect(first.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("999");
    expect(first.headers.get("x-ratelimit-reset")).toBe(String((hourStart(now) + 3_600_000) / 1000));
    const second = await call(listKeys, "GET", "/api/api-keys/", { token: merchant.access });
    expect(second.headers.get("x-ratelimit-remaining")).toBe("998");
  });

  test("the plan decides the limit: premium 5000, enterprise its own value", async () => {
    const premium = await createMerchant();
    await setPlan(premium, "premium");
    expect((await call(verify, "GET", "/api/auth/verify/", { token: premium.access })).headers.get("x-ratelimit-limit")).toBe("5000");
    const enterprise = await createMerchant();
    await setPlan(enterprise, "enterprise", 25000);
    expect((await call(verify, "GET", "/api/auth/verify/", { token: enterprise.access })).headers.get("x-ratelimit-limit")).toBe("25000");
  });

  test("the standard limit can be overridden by environment", async () => {
    vi.stubEnv("RATE_LIMIT_STANDARD_PER_HOUR", "7");
    vi.resetModules();
    const { GET: freshVerify } = await import("@/app/api/auth/verify/route");
    const merchant = await createMerchant();
    const res = await call(freshVerify, "GET", "/api/auth/verify/", { token: merchant.access });
    expect(res.headers.get("x-ratelimit-limit")).toBe("7");
    vi.resetModules();
  });
});

describe("429 RATE_LIMITED", () => {
  test("after the limit: 429 with integer retry_after and Retry-After; allowed again next window", async () => {
    const merchant = await createMerchant();
    await setPlan(merchant, "enterprise", 3);
    vi.useFakeTimers({ toFake: ["Date"] });
    const windowStart = hourStart(Date.now()) + 3_600_000;
    vi.setSystemTime(windowStart + 59 * 60_000 + 30_500); // 29.5 s before the window ends
    for (let i = 0; i < 3; i++) expect((await call(verify, "GET", "/api/auth/verify/", { token: merchant.access })).status).toBe(200);
    const limited = await call(verify, "GET", "/api/auth/verify/", { token: merchant.access });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      success: false,
      error: { code: "RATE_LIMITED", message: expect.any(String) },
      retry_after: 30,
      timestamp: expect.any(String),
    });
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset")).toBe(String((windowStart + 3_600_000) / 1000));

    vi.setSystemTime(windowStart + 3_600_000);
    const next = await call(verify, "GET", "/api/auth/verify/", { token: merchant.access });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  test("is shared by all of a merchant's credentials", async () => {
    const merchant = await createMerchant();
    const { key: keyA } = await createApiKeyFor(merchant, { preset: "read_only" });
    const { key: keyB } = await createApiKeyFor(merchant, { preset: "full_access" });
    await setPlan(merchant, "enterprise", 4);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hourStart(Date.now()) + 3_600_000 + 60_000);
    const statuses = [];
    for (const token of [keyA, keyB, merchant.access, keyA, keyB]) statuses.push((await call(verify, "GET", "/api/auth/verify/", { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  test("is independent between merchants", async () => {
    const busy = await createMerchant();
    const quiet = await createMerchant();
    await setPlan(busy, "enterprise", 2);
    await setPlan(quiet, "enterprise", 2);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hourStart(Date.now()) + 3_600_000 + 60_000);
    for (let i = 0; i < 3; i++) await call(verify, "GET", "/api/auth/verify/", { token: busy.access });
    expect((await call(verify, "GET", "/api/auth/verify/", { token: busy.access })).status).toBe(429);
    const res = await call(verify, "GET", "/api/auth/verify/", { token: quiet.access });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("1");
  });

  test("counts exactly under concurrent requests (the counter is one atomic upsert)", async () => {
    const merchant = await createMerchant();
    await setPlan(merchant, "enterprise", 10);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hourStart(Date.now()) + 3_600_000 + 60_000);
    const results = await Promise.all(Array.from({ length: 25 }, () => call(verify, "GET", "/api/auth/verify/", { token: merchant.access })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe("counted where the work is done (order creation) or beside it (reads)", () => {
  const orderBody = (nonce: number, overrides: Record<string, unknown> = {}) => ({
    amount: "1",
    currency: "USDC",
    blockchain: "base",
    order_info: "{}",
    nonce,
    ...overrides,
  });
  const ordersOf = async (merchant: TestMerchant) =>
    (await testDb.db.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.merchantId, merchant.id))).length;

  test("order creation at the limit: the last allowed one is created; past it 429 comes first and nothing is inserted", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await setPlan(merchant, "enterprise", 3);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hourStart(Date.now()) + 3_600_000 + 60_000);
    const statuses = [];
    for (let nonce = 1; nonce <= 3; nonce++)
      statuses.push((await call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: orderBody(nonce) })).status);
    expect(statuses).toEqual([201, 201, 201]);
    const over = await call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: orderBody(4) });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("RATE_LIMITED");
    expect(over.headers.get("retry-after")).toBe(String(over.body.retry_after));
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    // Over the limit, 429 comes before a used nonce, an unknown currency or a malformed body.
    for (const body of [orderBody(1), orderBody(5, { currency: "DOGE" }), { amount: 5 }]) {
      expect((await call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body })).status).toBe(429);
    }
    expect(await ordersOf(merchant)).toBe(3);
  });

  test("a create that fails before its statement is still counted", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const { key } = await createApiKeyFor(merchant);
    await call(listBlockchains, "GET", "/api/blockchains/", { token: key });
    const before = Number((await call(listBlockchains, "GET", "/api/blockchains/", { token: key })).headers.get("x-ratelimit-remaining"));
    const invalid = await call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody(1, { currency: "DOGE" }) });
    expect(invalid.status).toBe(400);
    expect(Number(invalid.headers.get("x-ratelimit-remaining"))).toBe(before - 1);
    const malformed = await call(postOrder, "POST", "/api/payment-orders/", { token: key, body: { nonce: "x" } });
    expect(malformed.status).toBe(400);
    expect(Number(malformed.headers.get("x-ratelimit-remaining"))).toBe(before - 2);
  });

  test("order creation counts exactly under concurrent requests: exactly the limit is created", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const { key } = await createApiKeyFor(merchant);
    await setPlan(merchant, "enterprise", 10);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hourStart(Date.now()) + 3_600_000 + 60_000);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody(100 + i) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
    expect(await ordersOf(merchant)).toBe(10);
    const remaining = results.filter((r) => r.status === 201).map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(remaining.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test("a read's count runs beside it, and over the limit the read's answer is replaced by 429", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant);
    await setPlan(merchant, "enterprise", 2);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hourStart(Date.now()) + 3_600_000 + 60_000);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(listBlockchains, "GET", "/api/blockchains/", { token: key })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const missing = await call(getOrder, "GET", "/api/payment-orders/ORD-missing/", { token: key, params: { orderId: "ORD-missing" } });
    expect(missing.status).toBe(429);
    expect(missing.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});
