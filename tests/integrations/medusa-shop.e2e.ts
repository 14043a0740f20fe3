/**
 * The Medusa plugin (integrations/medusa) end to end: a real Medusa store (PostgreSQL, Redis, the plugin
 * installed from its packed tarball) and the gateway's sandbox `next start` with its own devnet. A customer
 * checks out, the plugin creates a fiat-priced gateway order, the money is paid on the devnet, and the
 * signed webhook marks the Medusa order paid; replayed, stale and forged webhooks change nothing; an
 * order is canceled when its payment expires or fails (underpaid); refunds from Medusa's admin reach the gateway.
 * Run by .ci/medusa-e2e (it installs Medusa and packs the plugin first).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { nonceFor } from "@/integrations/medusa/src/lib/gateway-api";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { buildApp, freePort, startAppServerOnTestDatabase, type AppServer } from "../e2e/app-server";
import { adminEmail, adminPassword, eventBusIdle, prepareMedusaApp, startMedusa, type MedusaApp, type MedusaServer } from "./medusa-store";

const providerId = "pp_gateway_crypto";
const hookPath = "/hooks/payment/gateway_crypto";
/** The payment window the store gives the customer: short, so the expiry scenario ends within the run. */
const paymentWindowMinutes = 1;
// Not the sandbox faucet's (devnet account 1): the faucet pays, and a refund must not go to the merchant's own wallet.
const merchantWallet = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

let gateway: AppServer;
let app: MedusaApp;
let medusa: MedusaServer;
let access = "";
let apiKey = "";
let endpoint: { id: number; secret: string };
let adminToken = "";
let publishableKey = "";
let regionId = "";
let variantId = "";
const timings: string[] = [];

async function json(base: string, method: string, path: string, options: { token?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { unparsed: text.slice(0, 500) };
  }
  return { status: response.status, body };
}

async function ok(result: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const { status, body } = await result;
  if (status < 200 || status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

const gatewayCall = (method: string, path: string, body?: unknown, token = apiKey) =>
  ok(json(gateway.baseUrl, method, path, { token, body }), `${method} ${path}`);
const store = (method: string, path: string, body?: unknown) =>
  ok(json(medusa.url, method, path, { headers: { "x-publishable-api-key": publishableKey }, body }), `${method} ${path}`);
const medusaAdmin = (method: string, path: string, body?: unknown) => ok(json(medusa.url, method, path, { token: adminToken, body }), `${method} ${path}`);

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}\n--- medusa (last 4 kB) ---\n${medusa.output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A USDC amount ("19.9") in base units (6 decimals). */
function units(amount: string): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole! + fraction.padEnd(6, "0"));
}

/** Lines of Medusa's log that contain `text`. */
const logLines = (text: string) =>
  medusa
    .output()
    .split("\n")
    .filter((line) => line.includes(text));

/** Waits until Medusa has handled every webhook it took (its Redis event queue is empty). */
const webhooksHandled = () => until("Medusa's event bus to be idle", () => eventBusIdle(app.run));

const orderFields = [
  "id",
  "email",
  "status",
  "payment_status",
  "created_at",
  "*payment_collections",
  "*payment_collections.payment_sessions",
  "*payment_collections.payments",
  "*payment_collections.payments.captures",
  "*payment_collections.payments.refunds",
].join(",");

async function medusaOrder(id: string): Promise<any> {
  return (await medusaAdmin("GET", `/admin/orders/${id}?fields=${encodeURIComponent(orderFields)}`)).order;
}

interface Checkout {
  cartId: string;
  email: string;
  session: { id: string; status: string; data: Record<string, any> };
}

/** A customer's checkout up to the payment step: a cart with one 19.90 USD item, shipping, and a payment session with the plugin. */
async function checkout(): Promise<Checkout> {
  const email = `customer-${randomBytes(4).toString("hex")}@shop.test`;
  const { cart } = await store("POST", "/store/carts", {
    region_id: regionId,
    email,
    items: [{ variant_id: variantId, quantity: 1 }],
    shipping_address: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Main St", city: "Austin", postal_code: "78701", country_code: "us" },
  });
  const { shipping_options } = await store("GET", `/store/shipping-options?cart_id=${cart.id}`);
  await store("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id });
  const { payment_collection } = await store("POST", "/store/payment-collections", { cart_id: cart.id });
  const created = await store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: providerId });
  const session = created.payment_collection.payment_sessions.find((s: any) => s.provider_id === providerId);
  return { cartId: cart.id, email, session };
}

/** The customer pays the order on the devnet (the sandbox's pay tool sends the exact amount) and blocks follow. */
async function payOnDevnet(orderId: string) {
  await gatewayCall("POST", `/api/sandbox/payment-orders/${orderId}/pay/`, {});
  await gatewayCall("POST", "/api/sandbox/mine/", { blocks: 2, blockchain: "base" });
}

beforeAll(async () => {
  const started = performance.now();
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  buildApp(distDir, { reuse: true, quiet: true });
  const [server, prepared] = await Promise.all([startAppServerOnTestDatabase({ distDir, devnet: true, env: { LOG_LEVEL: "warn" } }), prepareMedusaApp()]);
  gateway = server;
  app = prepared;
  timings.push(`gateway and Medusa database ready ${Math.round((performance.now() - started) / 1000)} s (template made in ${app.templateSeconds} s)`);

  // The merchant: an account, a wallet on base, an API key for the plugin, a webhook endpoint at Medusa.
  const username = `medusa_${randomBytes(4).toString("hex")}`;
  await ok(
    json(gateway.baseUrl, "POST", "/api/auth/register/", {
      body: { username, email: `${username}@shop.test`, password: "correct horse battery", shop_name: "Medusa Shop" },
    }),
    "register",
  );
  access = (await ok(json(gateway.baseUrl, "POST", "/api/auth/login/", { body: { username, password: "correct horse battery" } }), "login")).access;
  await gatewayCall("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: merchantWallet, confirmation_threshold: 1 }, access);
  apiKey = (await gatewayCall("POST", "/api/api-keys/", { name: "Medusa store", preset: "create_payments" }, access)).data.key;
  const medusaPort = await freePort();
  endpoint = (await gatewayCall("POST", "/api/webhook-endpoints/", { url: `http://127.0.0.1:${medusaPort}${hookPath}`, description: "Medusa store" }, access))
    .data;

  const medusaStarted = performance.now();
  medusa = await startMedusa(
    app,
    {
      GATEWAY_URL: gateway.baseUrl,
      GATEWAY_API_KEY: apiKey,
      GATEWAY_WEBHOOK_SECRET: endpoint.secret,
      GATEWAY_PAYMENT_WINDOW_MINUTES: String(paymentWindowMinutes),
    },
    medusaPort,
  );
  timings.push(`medusa start ${Math.round((performance.now() - medusaStarted) / 1000)} s`);

  adminToken = (await ok(json(medusa.url, "POST", "/auth/user/emailpass", { body: { email: adminEmail, password: adminPassword } }), "admin login")).token;
  // The seed's key (Medusa also makes a default one for its default sales channel).
  publishableKey = (await medusaAdmin("GET", "/admin/api-keys?type=publishable")).api_keys.find((key: any) => key.title === "Web shop").token;
  regionId = (await store("GET", "/store/regions")).regions[0].id;
  variantId = (await store("GET", `/store/products?region_id=${regionId}&fields=*variants`)).products[0].variants[0].id;
}, 20 * 60_000);

afterAll(async () => {
  if (timings.length > 0) console.log(`[medusa-e2e] ${timings.join("; ")}`);
  await medusa?.stop();
  await Promise.all([gateway?.stop(), app?.remove()]);
});

describe("a Medusa store paid through the gateway", () => {
  let expiring: Checkout;
  let expiringOrderId = "";
  let underpaid: Checkout;
  let underpaidOrderId = "";
  let paid: Checkout;
  let paidOrderId = "";

  test("checkout: the plugin creates a fiat-priced gateway order with an idempotency key, and the order is placed awaiting payment", async () => {
    // The order that will never be paid starts first: its payment window runs while the others are tested.
    expiring = await checkout();
    const placed = await store("POST", `/store/carts/${expiring.cartId}/complete`);
    expect(placed.type).toBe("order");
    expiringOrderId = placed.order.id;
    // And one the customer pays only part of: at the deadline the gateway fails it (underpaid).
    underpaid = await checkout();
    underpaidOrderId = (await store("POST", `/store/carts/${underpaid.cartId}/complete`)).order.id;
    await gatewayCall("POST", `/api/sandbox/payment-orders/${underpaid.session.data.order_id}/pay/`, { amount: "5" });

    paid = await checkout();
    const data = paid.session.data;
    expect(paid.session.status).toBe("pending");
    expect(data).toMatchObject({
      session_id: paid.session.id,
      status: "pending",
      price_amount: "19.90",
      price_currency: "USD",
      currency: "USDC",
      blockchain: "base",
    });
    expect(data.order_id).toMatch(/^ORD-/);
    expect(data.payment_url).toBe(`${gateway.baseUrl}/pay/${data.order_id}`);
    expect(data.methods).toEqual([expect.objectContaining({ blockchain: "base", currency: "USDC", receiving_address: data.receiving_address })]);

    // The gateway's order: priced in USD (converted at the devnet feed's rate), made for this session.
    const gatewayOrder = (await gatewayCall("GET", `/api/payment-orders/${data.order_id}/`)).data;
    expect(gatewayOrder).toMatchObject({ status: "pending", price_amount: "19.90", price_currency: "USD", currency: "USDC", amount: data.amount });
    expect(Number(gatewayOrder.amount)).toBeCloseTo(19.9 / Number(gatewayOrder.rate), 5);
    expect(JSON.parse(gatewayOrder.order_info)).toEqual({ source: "medusa", payment_session_id: paid.session.id });
    // One order for the session: its nonce comes from the session's Idempotency-Key, so a retried create finds it.
    const byNonce = await gatewayCall("GET", `/api/payment-orders/?nonce=${nonceFor(`medusa-session:${paid.session.id}`)}`);
    expect(byNonce.results.map((o: any) => o.order_id)).toEqual([data.order_id]);

    const order = await store("POST", `/store/carts/${paid.cartId}/complete`);
    expect(order.type).toBe("order");
    paidOrderId = order.order.id;
    const placedOrder = await medusaOrder(paidOrderId);
    expect(placedOrder.payment_status).toBe("awaiting");
    expect(placedOrder.payment_collections[0].payment_sessions[0].status).toBe("pending_authorization");
    expect(placedOrder.payment_collections[0].payments).toEqual([]);
  });

  test("paid on the devnet: the signed payment.confirmed webhook marks the Medusa order paid", async () => {
    await payOnDevnet(paid.session.data.order_id);
    const order = await until("the Medusa order to be captured", async () => {
      const current = await medusaOrder(paidOrderId);
      return current.payment_status === "captured" ? current : null;
    });
    const payments = order.payment_collections[0].payments;
    expect(payments).toHaveLength(1);
    expect(payments[0].captures).toHaveLength(1);
    expect(Number(payments[0].captures[0].amount)).toBe(19.9);
    expect(payments[0].data).toMatchObject({ order_id: paid.session.data.order_id, status: "confirmed" });
    expect(payments[0].data.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await gatewayCall("GET", `/api/payment-orders/${paid.session.data.order_id}/`)).data.status).toBe("confirmed");
  });

  test("a replayed webhook changes nothing; a stale, tampered or forged one is refused", async () => {
    const before = await medusaOrder(paidOrderId);
    const deliveries = (await gatewayCall("GET", `/api/webhook-endpoints/${endpoint.id}/deliveries/?page_size=100`, undefined, access)).results;
    const confirmed = deliveries.find((d: any) => d.event === "payment.confirmed" && d.payload.data.order_id === paid.session.data.order_id);
    expect(confirmed).toMatchObject({ status: "succeeded", last_status_code: 200 });
    const handledBefore = logLines(`webhook ${confirmed.webhook_id}:`).length;

    // The gateway sends the same delivery again (same webhook-id): Medusa repeats nothing.
    await gatewayCall("POST", `/api/webhook-deliveries/${confirmed.id}/redeliver/`, {}, access);
    await until("the replay to be handled", async () => logLines(`webhook ${confirmed.webhook_id}:`).length > handledBefore);
    await webhooksHandled();
    const after = await medusaOrder(paidOrderId);
    expect(after.payment_status).toBe("captured");
    expect(after.payment_collections[0].payments).toHaveLength(1);
    expect(after.payment_collections[0].payments[0].captures.map((c: any) => c.id)).toEqual(
      before.payment_collections[0].payments[0].captures.map((c: any) => c.id),
    );

    // The same event signed with the right secret but ten minutes old: refused as a replay.
    const body = JSON.stringify(confirmed.payload);
    const post = (payload: string, headers: Record<string, string>) =>
      fetch(`${medusa.url}${hookPath}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: payload });
    const stale = await post(body, signatureHeaders(body, "msg_stale_replay", [endpoint.secret], Math.floor(Date.now() / 1000) - 600));
    expect(stale.status).toBe(200); // Medusa acknowledges every webhook; the plugin decides
    await until("the stale webhook to be refused", async () => logLines("rejected: webhook-timestamp outside the tolerance").length > 0);

    // A forged payment.confirmed for the unpaid order: wrong secret, then a genuine signature over another body.
    const forged = JSON.stringify({ ...confirmed.payload, id: "evt_forged", data: { ...confirmed.payload.data, order_id: expiring.session.data.order_id } });
    const wrongSecret = `whsec_${randomBytes(32).toString("base64")}`;
    await post(forged, signatureHeaders(forged, "msg_forged", [wrongSecret], Math.floor(Date.now() / 1000)));
    const genuineHeaders = signatureHeaders(body, "msg_tampered", [endpoint.secret], Math.floor(Date.now() / 1000));
    await post(forged, genuineHeaders);
    await until("the forged webhooks to be refused", async () => logLines("rejected: x-webhook-signature does not match").length >= 2);
    await webhooksHandled();

    const unpaid = await medusaOrder(expiringOrderId);
    expect(unpaid.payment_status).toBe("awaiting");
    expect(unpaid.payment_collections[0].payments).toEqual([]);
    expect(unpaid.payment_collections[0].payment_sessions[0].status).toBe("pending_authorization");
    expect((await gatewayCall("GET", `/api/payment-orders/${expiring.session.data.order_id}/`)).data.status).toBe("pending");
  });

  test("a customer who pays without coming back to the store gets an order: the webhook completes the cart", async () => {
    const away = await checkout();
    await payOnDevnet(away.session.data.order_id);
    const order = await until("an order for the paid cart", async () => {
      const { orders } = await medusaAdmin("GET", `/admin/orders?fields=id,email,payment_status&limit=50&order=-created_at`);
      const found = orders.find((o: any) => o.email === away.email);
      return found?.payment_status === "captured" ? found : null;
    });
    const full = await medusaOrder(order.id);
    expect(full.payment_collections[0].payments[0].captures).toHaveLength(1);
    expect((await store("GET", `/store/carts/${away.cartId}`)).cart.completed_at).not.toBeNull();
  });

  test("refunds from Medusa's admin reach the gateway: a part, then the rest", async () => {
    const order = await medusaOrder(paidOrderId);
    const payment = order.payment_collections[0].payments[0];
    const gatewayOrderId = paid.session.data.order_id;
    const gatewayOrder = (await gatewayCall("GET", `/api/payment-orders/${gatewayOrderId}/`)).data;
    const payer = (await gatewayCall("GET", `/api/transactions/${gatewayOrder.transaction.transaction_hash}/`)).data.from_address;

    await medusaAdmin("POST", `/admin/payments/${payment.id}/refund`, { amount: 5 });
    const first = (await gatewayCall("GET", `/api/payment-orders/${gatewayOrderId}/refunds/`)).data;
    expect(first).toHaveLength(1);
    // 5 of 19.90 USD: the same share of the tokens paid, rounded down to USDC's 6 decimals.
    expect(BigInt(first[0].amount_base_units)).toBe((units(gatewayOrder.amount) * 500n) / 1990n);
    expect(first[0]).toMatchObject({ currency: "USDC", status: "requested", to_address: payer });
    expect(first[0].from_address.toLowerCase()).toBe(merchantWallet.toLowerCase());
    expect((await medusaOrder(paidOrderId)).payment_status).toBe("partially_refunded");

    await medusaAdmin("POST", `/admin/payments/${payment.id}/refund`, { amount: 14.9 });
    const both = (await gatewayCall("GET", `/api/payment-orders/${gatewayOrderId}/refunds/`)).data;
    expect(both).toHaveLength(2);
    // The last refund takes what is left: together, everything that was paid.
    const refunded = both.reduce((sum: bigint, refund: any) => sum + BigInt(refund.amount_base_units), 0n);
    expect(refunded).toBe(units(gatewayOrder.amount_received));
    const refundedOrder = await medusaOrder(paidOrderId);
    expect(refundedOrder.payment_status).toBe("refunded");
    expect(refundedOrder.payment_collections[0].payments[0].data.refunds.map((r: any) => r.id)).toEqual(both.map((r: any) => r.id));
  });

  test("an order whose payment expires or fails is canceled", async () => {
    const canceled = (orderId: string) =>
      until(
        `order ${orderId} to be canceled`,
        async () => {
          const current = await medusaOrder(orderId);
          return current.status === "canceled" ? current : null;
        },
        paymentWindowMinutes * 60_000 + 60_000,
      );
    const expired = await canceled(expiringOrderId);
    expect(expired.payment_status).toBe("canceled");
    expect(expired.payment_collections[0].payment_sessions[0].status).toBe("canceled");
    expect((await gatewayCall("GET", `/api/payment-orders/${expiring.session.data.order_id}/`)).data.status).toBe("expired");

    const failed = await canceled(underpaidOrderId);
    expect(failed.payment_status).toBe("canceled");
    expect(failed.payment_collections[0].payment_sessions[0].status).toBe("error");
    expect(failed.payment_collections[0].payments).toEqual([]);
    expect((await gatewayCall("GET", `/api/payment-orders/${underpaid.session.data.order_id}/`)).data).toMatchObject({
      status: "failed",
      failure_reason: "underpaid",
    });
  });
});
