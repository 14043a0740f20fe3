/**
 * The example merchant backend (examples/merchant-backend) against a real `next start` server on a
 * devnet, through the typed client (lib/client): orders made with an API key and an Idempotency-Key,
 * real signed webhooks delivered by the server to the example's receiver, which verifies both
 * signatures and moves the shop's order by the gateway's order read back, and a refund.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createPaymentOrder, gatewayClient, getPaymentOrder } from "@/examples/merchant-backend/create-order";
import { startMerchantBackend, type MerchantBackend } from "@/examples/merchant-backend/server";
import { createGatewayClient, unwrap, GatewayError } from "@/lib/client";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { setupTestDevnet } from "../helpers/devnet";
import { expectMatchesSchema } from "../helpers/openapi";
import { buildTimeoutMs, startServer, type ServerProcess } from "../helpers/server";

const devnet = setupTestDevnet();
let server: ServerProcess;
let backend: MerchantBackend;
const secrets: string[] = [];
let apiKey = "";
let access = "";
let endpointId = 0;

beforeAll(async () => {
  // JOBS_DRIVER=local: the server itself scans the devnet and delivers webhooks.
  server = await startServer({ env: { JOBS_DRIVER: "local", DEVNET: "start", DEVNET_RPC_URL: devnet.rpcUrl, LOG_LEVEL: "warn" } });
  backend = await startMerchantBackend({ gateway: gatewayClient(server.url, "unused"), webhookSecrets: secrets, log: () => {} });
}, buildTimeoutMs);

afterAll(async () => {
  await backend?.close();
  await server?.stop();
});

describe("examples/merchant-backend against next start", () => {
  test("onboarding through the typed client: register, login, wallet, API key, webhook endpoint", async () => {
    const anonymous = createGatewayClient({ baseUrl: server.url });
    const username = `example_${Date.now()}`;
    const registered = unwrap(
      await anonymous.POST("/api/auth/register", {
        body: { username, email: `${username}@example.com`, password: "correct horse battery", shop_name: "Example" },
      }),
    );
    secrets.push(registered.webhook_secret);
    access = unwrap(await anonymous.POST("/api/auth/login", { body: { username, password: "correct horse battery" } })).access;

    const login = createGatewayClient({ baseUrl: server.url, accessToken: access });
    unwrap(await login.POST("/api/merchant-wallets", { body: { blockchain: 2, wallet_address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" } }));
    const key = unwrap(await login.POST("/api/api-keys", { body: { name: "example backend", preset: "create_payments" } })).data;
    expect(key.key).toMatch(/^sk_test_/);
    apiKey = key.key;
    const endpoint = unwrap(await login.POST("/api/webhook-endpoints", { body: { url: `${backend.url}/webhooks` } })).data;
    secrets.push(endpoint.secret);
    endpointId = endpoint.id;

    // The key may not manage webhooks: the typed error carries the documented code.
    const keyed = createGatewayClient({ baseUrl: server.url, apiKey });
    const refused = await keyed.GET("/api/webhook-endpoints", {});
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe("INSUFFICIENT_PERMISSIONS");
    expect(() => unwrap(refused)).toThrow(GatewayError);
  });

  test("the example creates an order with the API key; the raw answer matches the document", async () => {
    const gateway = gatewayClient(server.url, apiKey);
    const order = await createPaymentOrder(gateway, { orderNumber: 1001, amount: "10.50", currency: "USDC", blockchain: "base", items: [{ sku: "W-1" }] });
    expect(order).toMatchObject({ status: "pending", amount: "10.5", currency: "USDC", blockchain: "base", transaction: null, nonce: 1001 });
    expect(JSON.parse(order.order_info)).toEqual({ order_number: 1001, items: [{ sku: "W-1" }] });
    expect((await getPaymentOrder(gateway, order.order_id)).order_id).toBe(order.order_id);

    const raw = await fetch(`${server.url}/api/payment-orders/${order.order_id}/`, { headers: { authorization: `Bearer ${apiKey}` } });
    expectMatchesSchema("GET /api/payment-orders/[orderId]", raw.status, await raw.json());

    // The same checkout again (a retry after a timeout): its Idempotency-Key gets the first order back.
    const again = await createPaymentOrder(gateway, { orderNumber: 1001, amount: "10.50", currency: "USDC", blockchain: "base", items: [{ sku: "W-1" }] });
    expect(again.order_id).toBe(order.order_id);
    // The same order number with another body: the key named another request.
    await expect(createPaymentOrder(gateway, { orderNumber: 1001, amount: "10.50", currency: "USDC", blockchain: "base", items: [] })).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
      status: 422,
    });
    // Another key, same order number: the nonce still refuses a second order.
    await expect(
      createPaymentOrder(gateway, { orderNumber: 1001, amount: "10.50", currency: "USDC", blockchain: "base", items: [], idempotencyKey: "another-attempt" }),
    ).rejects.toMatchObject({ code: "DUPLICATE_NONCE", status: 400 });
  });

  test("the server delivers a signed webhook and the example's receiver verifies and records it", async () => {
    const login = createGatewayClient({ baseUrl: server.url, accessToken: access });
    const sent = unwrap(
      await login.POST("/api/webhook-endpoints/{id}/test", { params: { path: { id: String(endpointId) } }, body: { event: "payment.confirmed" } }),
    ).data;
    expect(sent.status_code).toBe(200);
    expect(sent.succeeded).toBe(true);
    const event = await backend.waitFor("payment.confirmed", undefined, 10_000);
    expect(event.data.status).toBe("confirmed");
    // A sample names no order of this shop: recorded, and no order of the shop moves.
    expect(backend.orders.has(event.data.order_id)).toBe(false);
    expect((await fetch(`${backend.url}/orders/${event.data.order_id}`)).status).toBe(404);

    // The server logged the attempt with the receiver's 200.
    const log = unwrap(await login.GET("/api/webhook-endpoints/{id}/deliveries", { params: { path: { id: String(endpointId) } } }));
    expect(log.results[0]).toMatchObject({ status: "succeeded", last_status_code: 200 });
  });

  test("the receiver refuses tampered, wrongly keyed and stale webhooks, and acknowledges duplicates once", async () => {
    const secret = secrets[1]!;
    const body = JSON.stringify({
      id: "evt_example1",
      event: "payment.failed",
      created_at: new Date().toISOString(),
      data: { order_id: "ORD-EXAMPLE1", status: "failed" },
    });
    const now = Math.floor(Date.now() / 1000);
    const post = (payload: string, headers: Record<string, string>) =>
      fetch(`${backend.url}/webhooks`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: payload });

    expect((await post(body, signatureHeaders(body, "msg_example1", [secret], now))).status).toBe(200);
    expect(await (await post(body, signatureHeaders(body, "msg_example1", [secret], now))).json()).toEqual({ duplicate: true });
    expect((await post(body.replace("failed", "confirmed"), signatureHeaders(body, "msg_example1", [secret], now))).status).toBe(401);
    expect((await post(body, signatureHeaders(body, "msg_example1", ["whsec_" + Buffer.alloc(32, 7).toString("base64")], now))).status).toBe(401);
    expect((await post(body, signatureHeaders(body, "msg_example1", [secret], now - 600))).status).toBe(401);
    const withoutHex: Record<string, string> = signatureHeaders(body, "msg_example1", [secret], now);
    delete withoutHex["x-webhook-signature"];
    expect((await post(body, withoutHex)).status).toBe(401);
    expect(backend.events.filter((e) => e.id === "evt_example1")).toHaveLength(1);
  });

  test("the shop's recipe end to end: a fiat-priced checkout paid on the devnet moves the shop's order to paid, and a refund reaches the gateway", async () => {
    const login = createGatewayClient({ baseUrl: server.url, accessToken: access });
    const shopSecrets: string[] = [];
    const shop = await startMerchantBackend({ gateway: gatewayClient(server.url, apiKey), webhookSecrets: shopSecrets, log: () => {} });
    try {
      shopSecrets.push(unwrap(await login.POST("/api/webhook-endpoints", { body: { url: `${shop.url}/webhooks` } })).data.secret);
      const checkout = await fetch(`${shop.url}/checkout`, {
        method: "POST",
        body: JSON.stringify({ price: "10.50", price_currency: "USD", items: [{ sku: "W-2" }] }),
      });
      expect(checkout.status).toBe(201);
      const placed = (await checkout.json()) as { order_id: string; payment_url: string; status: string; methods: unknown[] };
      expect(placed).toMatchObject({ status: "awaiting_payment", payment_url: expect.stringContaining(`/pay/${placed.order_id}`) });
      expect(placed.methods).toHaveLength(1);
      const keyed = createGatewayClient({ baseUrl: server.url, apiKey });
      expect(await getPaymentOrder(keyed, placed.order_id)).toMatchObject({ price_amount: "10.50", price_currency: "USD", currency: "USDC" });

      unwrap(await keyed.POST("/api/sandbox/payment-orders/{orderId}/pay", { params: { path: { orderId: placed.order_id } }, body: {} }));
      unwrap(await keyed.POST("/api/sandbox/mine", { body: { blocks: 3, blockchain: "base" } }));
      await shop.waitFor("payment.confirmed", placed.order_id, 60_000);
      expect(shop.orders.get(placed.order_id)).toBe("paid");
      expect(await (await fetch(`${shop.url}/orders/${placed.order_id}`)).json()).toEqual({ order_id: placed.order_id, status: "paid" });

      // A refund of 2.5 USDC to the wallet that paid; the same request again (same refund id) refunds nothing more.
      const refund = () =>
        fetch(`${shop.url}/orders/${placed.order_id}/refund`, {
          method: "POST",
          body: JSON.stringify({ amount: "2.5", refund_id: "r-1", reason: "returned" }),
        });
      const first = await refund();
      expect(first.status).toBe(201);
      const made = (await first.json()) as { refund_id: number; amount: string; to_address: string; transaction: { chainId: number } };
      expect(made).toMatchObject({ amount: "2.5", transaction: { chainId: expect.any(Number) } });
      expect(((await (await refund()).json()) as { refund_id: number }).refund_id).toBe(made.refund_id);
      const refunds = unwrap(await keyed.GET("/api/payment-orders/{orderId}/refunds", { params: { path: { orderId: placed.order_id } } })).data;
      expect(refunds.map((r) => r.id)).toEqual([made.refund_id]);
      const paidBy = (await getPaymentOrder(keyed, placed.order_id)).transaction!.transaction_hash;
      const payer = unwrap(await keyed.GET("/api/transactions/{transactionHash}", { params: { path: { transactionHash: paidBy } } })).data.from_address;
      expect(made.to_address.toLowerCase()).toBe(payer.toLowerCase());
    } finally {
      await shop.close();
    }
  });
});
