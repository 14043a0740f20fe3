import { beforeAll, describe, expect, test } from "vitest";
import { GET as list, POST } from "@/app/api/payment-orders/route";
import { GET as getOne } from "@/app/api/payment-orders/[orderId]/route";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

let alice: TestMerchant;
let bob: TestMerchant;
let aliceOrder: any;
beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  await createWallet(alice, { blockchain: 2 });
  aliceOrder = await createOrder(alice, { nonce: 7 });
});

const body = (nonce: number) => ({ amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce });
const one = (token: string | undefined, key: string) => call(getOne, "GET", `/api/payment-orders/${key}/`, { token, params: { orderId: key } });

describe("payment orders are private to their merchant", () => {
  test("another merchant's order is 404 by order_id and by numeric id", async () => {
    for (const key of [aliceOrder.order_id, String(aliceOrder.id)]) {
      const res = await one(bob.access, key);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
      expect(JSON.stringify(res.body)).not.toContain(aliceOrder.receiving_address);
    }
  });

  test("the list never shows another merchant's orders", async () => {
    const res = await call(list, "GET", "/api/payment-orders/", { token: bob.access });
    expect(res.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    const filtered = await call(list, "GET", "/api/payment-orders/", { token: bob.access, query: { status: "pending", blockchain: "base", currency: "USDC" } });
    expect(filtered.body.count).toBe(0);
  });

  test("another merchant's wallet does not configure mine, and nonces are per merchant", async () => {
    const res = await call(POST, "POST", "/api/payment-orders/", { token: bob.access, body: body(7) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("WALLET_NOT_CONFIGURED");
    await createWallet(bob, { blockchain: 2 });
    const again = await call(POST, "POST", "/api/payment-orders/", { token: bob.access, body: body(7) });
    expect(again.status).toBe(201);
    expect(again.body.data.receiving_address).not.toBe(aliceOrder.receiving_address);
  });
});

describe("credentials and permissions", () => {
  test("no credential or an invalid one is 401 INVALID_TOKEN on every route", async () => {
    for (const token of [undefined, "garbage", `${alice.access}x`]) {
      const results = [
        await call(POST, "POST", "/api/payment-orders/", { token, body: body(100) }),
        await call(list, "GET", "/api/payment-orders/", { token }),
        await one(token, aliceOrder.order_id),
      ];
      for (const res of results) {
        expect(res.status).toBe(401);
        expect(res.body.error).toEqual({ code: "INVALID_TOKEN", message: expect.any(String) });
      }
    }
  });

  test("read may view but not create; create_payments may both; manage_webhooks may only view", async () => {
    const cases = [
      ["read_only", false],
      ["create_payments", true],
      ["manage_webhooks", false],
      ["full_access", true],
    ] as const;
    let nonce = 200;
    for (const [preset, mayCreate] of cases) {
      const { key } = await createApiKeyFor(alice, { preset });
      expect((await call(list, "GET", "/api/payment-orders/", { token: key })).status).toBe(200);
      expect((await one(key, aliceOrder.order_id)).status).toBe(200);
      const created = await call(POST, "POST", "/api/payment-orders/", { token: key, body: body(nonce++) });
      if (mayCreate) expect(created.status, preset).toBe(201);
      else {
        expect(created.status, preset).toBe(403);
        expect(created.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
      }
    }
  });

  test("a permission failure is decided before the body is looked at", async () => {
    const { key } = await createApiKeyFor(alice, { preset: "read_only" });
    const res = await call(POST, "POST", "/api/payment-orders/", { token: key, rawBody: "{not json" });
    expect(res.status).toBe(403);
  });
});
