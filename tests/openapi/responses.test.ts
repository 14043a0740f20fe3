/**
 * Real responses of the real handlers, validated against the documented schemas: each resource's
 * main happy path and its errors (400, 401, 403, 404, 429), plus 401/403 on every protected route.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET as account } from "@/app/api/account/route";
import { POST as rotateAccountSecret } from "@/app/api/account/rotate-webhook-secret/route";
import { DELETE as revokeKey } from "@/app/api/api-keys/[id]/route";
import { GET as listKeys, POST as createKey } from "@/app/api/api-keys/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as loginSecondFactor } from "@/app/api/auth/login/second-factor/route";
import { GET as secondFactorStatus } from "@/app/api/account/second-factor/route";
import { POST as beginTotp } from "@/app/api/account/second-factor/totp/route";
import { POST as confirmTotp } from "@/app/api/account/second-factor/totp/confirm/route";
import { POST as disableTotp } from "@/app/api/account/second-factor/totp/disable/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { GET as blockchains } from "@/app/api/blockchains/route";
import { GET as events } from "@/app/api/events/route";
import { PUT as updateWallet } from "@/app/api/merchant-wallets/[id]/route";
import { GET as listWallets, POST as createWallet } from "@/app/api/merchant-wallets/route";
import { GET as publicOrder } from "@/app/api/pay/[orderId]/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { GET as listOrders, POST as createOrder } from "@/app/api/payment-orders/route";
import { POST as captureInbox } from "@/app/api/sandbox/inbox/[token]/route";
import { GET as inbox } from "@/app/api/sandbox/inbox/route";
import { POST as mine } from "@/app/api/sandbox/mine/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { POST as redeliver } from "@/app/api/webhook-deliveries/[id]/redeliver/route";
import { GET as deliveries } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { POST as rotateEndpointSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { DELETE as deleteEndpoint, GET as getEndpoint, PUT as updateEndpoint } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as testEndpoint } from "@/app/api/webhook-endpoints/[id]/test/route";
import { GET as listEndpoints, POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { merchants } from "@/lib/db/schema";
import { setupTestDatabase } from "../helpers/db";
import { createApiKeyFor, createMerchant, randomAddress, uniqueName, type TestMerchant } from "../helpers/factories";
import { call, type Handler } from "../helpers/request";
import { accessOf, allRouteKeys, loadRoute } from "../helpers/routes";
import { expectMatchesSchema } from "../helpers/openapi";
import { codeFor } from "../api/auth/totp-support";

const testDb = setupTestDatabase();

let merchant: TestMerchant;
let fullKey: string;
let readKey: string;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  merchant = await createMerchant();
  fullKey = (await createApiKeyFor(merchant, { preset: "full_access" })).key;
  readKey = (await createApiKeyFor(merchant, { preset: "read_only" })).key;
  // A webhook receiver that acknowledges everything (sandbox mode allows loopback URLs).
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Calls a handler and checks the answer against the document; returns it for further assertions. */
async function check(route: string, handler: Handler, options: Parameters<typeof call>[3] & { status: number }) {
  const [method, routePath] = route.split(" ") as [string, string];
  const urlPath = routePath.replace(/\[([^\]]+)\]/g, (_, name: string) => options.params?.[name] ?? "x");
  const res = await call(handler, method, urlPath, options);
  expect(res.status, `${route}: ${JSON.stringify(res.body)}`).toBe(options.status);
  expectMatchesSchema(route, res.status, res.body);
  return res;
}

describe("authentication and account", () => {
  test("register, login, refresh, verify: bare bodies as documented; and their errors", async () => {
    const username = uniqueName("doc");
    await check("POST /api/auth/register", register, {
      status: 201,
      body: { username, email: `${username}@example.com`, password: "correct horse battery", shop_name: "Docs" },
    });
    await check("POST /api/auth/register", register, { status: 400, body: { username: "x" } });
    const loggedIn = await check("POST /api/auth/login", login, { status: 200, body: { username, password: "correct horse battery" } });
    await check("POST /api/auth/login", login, { status: 401, body: { username, password: "wrong password!" } });
    await check("POST /api/auth/login", login, { status: 400, rawBody: "{not json" });
    const refreshed = await check("POST /api/auth/token/refresh", refresh, { status: 200, body: { refresh: loggedIn.body.refresh } });
    await check("GET /api/auth/verify", verify, { status: 200, token: refreshed.body.access });
    await check("POST /api/auth/token/refresh", refresh, { status: 401, body: { refresh: loggedIn.body.refresh } }); // reused
    await check("GET /api/auth/verify", verify, { status: 200, token: fullKey });
    await check("GET /api/auth/verify", verify, { status: 401, token: "not-a-token" });
  });

  test("account and its secret rotation; an API key is refused with 403", async () => {
    const own = await check("GET /api/account", account, { status: 200, token: merchant.access });
    // The check itself: an undocumented field or a wrong type fails it.
    expect(() => expectMatchesSchema("GET /api/account", 200, { ...own.body, data: { ...own.body.data, extra: 1 } })).toThrow();
    expect(() => expectMatchesSchema("GET /api/account", 200, { ...own.body, data: { ...own.body.data, id: "1" } })).toThrow();
    await check("GET /api/account", account, { status: 403, token: fullKey });
    await check("POST /api/account/rotate-webhook-secret", rotateAccountSecret, { status: 200, token: merchant.access });
  });

  test("two-factor authentication: enrolment, the two-step login and disabling, as documented", async () => {
    const m = await createMerchant();
    await check("GET /api/account/second-factor", secondFactorStatus, { status: 200, token: m.access });
    await check("POST /api/account/second-factor/totp", beginTotp, { status: 400, token: m.access, body: { reauth: { password: "wrong password" } } });
    const begun = await check("POST /api/account/second-factor/totp", beginTotp, { status: 201, token: m.access, body: { reauth: { password: m.password } } });
    const secret = begun.body.data.secret as string;
    const confirmed = await check("POST /api/account/second-factor/totp/confirm", confirmTotp, {
      status: 200,
      token: m.access,
      body: { code: codeFor(secret) },
    });
    const [recovery1, recovery2] = confirmed.body.data.recovery_codes as string[];
    await check("POST /api/account/second-factor/totp", beginTotp, { status: 409, token: m.access, body: { reauth: { password: m.password } } });
    const first = await check("POST /api/auth/login", login, { status: 401, body: { username: m.username, password: m.password } });
    expect(first.body.error.code).toBe("SECOND_FACTOR_REQUIRED");
    await check("POST /api/auth/login/second-factor", loginSecondFactor, { status: 401, body: { challenge: "not-a-challenge", code: "123456" } });
    await check("POST /api/auth/login/second-factor", loginSecondFactor, { status: 400, body: { challenge: first.body.second_factor.challenge } });
    // One TOTP code a 30 s step: recovery codes cover the remaining steps without waiting.
    await check("POST /api/auth/login/second-factor", loginSecondFactor, {
      status: 200,
      body: { challenge: first.body.second_factor.challenge, code: recovery1 },
    });
    await check("POST /api/account/second-factor/totp/disable", disableTotp, { status: 400, token: m.access, body: { reauth: { password: m.password } } });
    await check("POST /api/account/second-factor/totp/disable", disableTotp, {
      status: 200,
      token: m.access,
      body: { reauth: { password: m.password, code: recovery2 } },
    });
  });

  test("API keys: create, list, revoke, and 404 for an unknown key", async () => {
    const created = await check("POST /api/api-keys", createKey, {
      status: 201,
      token: merchant.access,
      body: { name: "docs", permissions: ["read"], expires_at: "2099-01-01T00:00:00Z" },
    });
    await check("POST /api/api-keys", createKey, { status: 400, token: merchant.access, body: { name: "docs" } });
    await check("GET /api/api-keys", listKeys, { status: 200, token: merchant.access, query: { page_size: 2 } });
    await check("DELETE /api/api-keys/[id]", revokeKey, { status: 200, token: merchant.access, params: { id: String(created.body.data.id) } });
    await check("DELETE /api/api-keys/[id]", revokeKey, { status: 404, token: merchant.access, params: { id: "999999" } });
  });
});

describe("wallets, orders, transactions", () => {
  test("blockchains, wallets and orders, happy and failing", async () => {
    await check("GET /api/blockchains", blockchains, { status: 200, token: readKey });
    await check("POST /api/payment-orders", createOrder, {
      status: 400,
      token: fullKey,
      body: { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 },
    }); // WALLET_NOT_CONFIGURED
    // A payout address is added with a login; an API key, even a full-access one, is 403 (issue 13).
    await check("POST /api/merchant-wallets", createWallet, { status: 403, token: fullKey, body: { blockchain: 2, wallet_address: randomAddress() } });
    const wallet = await check("POST /api/merchant-wallets", createWallet, {
      status: 201,
      token: merchant.access,
      body: { blockchain: 2, wallet_address: randomAddress() },
    });
    await check("POST /api/merchant-wallets", createWallet, {
      status: 400,
      token: merchant.access,
      body: { blockchain: 999, wallet_address: randomAddress() },
    });
    await check("POST /api/merchant-wallets", createWallet, { status: 403, token: readKey, body: { blockchain: 2, wallet_address: randomAddress() } });
    await check("GET /api/merchant-wallets", listWallets, { status: 200, token: readKey });
    await check("PUT /api/merchant-wallets/[id]", updateWallet, {
      status: 200,
      token: fullKey,
      params: { id: String(wallet.body.data.id) },
      body: { confirmation_threshold: 2 },
    });
    await check("PUT /api/merchant-wallets/[id]", updateWallet, { status: 404, token: fullKey, params: { id: "999999" }, body: { is_active: true } });

    const body = { amount: "10.50", currency: "USDC", blockchain: "base", order_info: '{"cart":"A-1"}', nonce: 7, webhook_url: receiverUrl };
    const order = await check("POST /api/payment-orders", createOrder, { status: 201, token: fullKey, body });
    expect(order.body.data).toMatchObject({ status: "pending", transaction: null, amount: "10.5" });
    await check("POST /api/payment-orders", createOrder, { status: 400, token: fullKey, body }); // DUPLICATE_NONCE
    await check("POST /api/payment-orders", createOrder, { status: 400, token: fullKey, body: { ...body, nonce: 8, amount: "-1" } }); // INVALID_AMOUNT
    await check("POST /api/payment-orders", createOrder, { status: 400, token: fullKey, body: { ...body, nonce: 9, order_info: "{" } }); // INVALID_ORDER_INFO
    await check("POST /api/payment-orders", createOrder, { status: 400, token: fullKey, body: { ...body, nonce: 10, currency: "DOGE" } }); // UNSUPPORTED_CURRENCY
    await check("POST /api/payment-orders", createOrder, { status: 400, token: fullKey, body: { ...body, nonce: 11, blockchain: "solana" } }); // INVALID_BLOCKCHAIN
    await check("POST /api/payment-orders", createOrder, { status: 400, token: fullKey, body: {} }); // VALIDATION_ERROR
    await check("POST /api/payment-orders", createOrder, { status: 403, token: readKey, body });
    await check("POST /api/payment-orders", createOrder, { status: 401, body });

    await check("GET /api/payment-orders", listOrders, { status: 200, token: readKey, query: { status: "pending", ordering: "-amount" } });
    await check("GET /api/payment-orders", listOrders, { status: 400, token: readKey, query: { page: "zero" } });
    await check("GET /api/payment-orders/[orderId]", getOrder, { status: 200, token: readKey, params: { orderId: order.body.data.order_id } });
    await check("GET /api/payment-orders/[orderId]", getOrder, { status: 404, token: readKey, params: { orderId: "ORD-NOPE" } });
    await check("GET /api/pay/[orderId]", publicOrder, { status: 200, params: { orderId: order.body.data.order_id } });
    await check("GET /api/pay/[orderId]", publicOrder, { status: 404, params: { orderId: "ORD-NOPE" } });

    await check("GET /api/transactions", listTransactions, { status: 200, token: readKey, query: { status: "confirmed" } });
    await check("GET /api/transactions/[transactionHash]", getTransaction, {
      status: 404,
      token: readKey,
      params: { transactionHash: `0x${"ab".repeat(32)}` },
    });
  });

  test("429 RATE_LIMITED with retry_after once the plan's limit is used up", async () => {
    const busy = await createMerchant();
    await testDb.db.update(merchants).set({ plan: "enterprise", rateLimitPerHour: 1 }).where(eq(merchants.id, busy.id));
    await check("GET /api/payment-orders", listOrders, { status: 200, token: busy.access });
    const limited = await check("GET /api/payment-orders", listOrders, { status: 429, token: busy.access });
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.retry_after));
  });
});

describe("webhooks and the sandbox", () => {
  test("endpoints: create, read, update, test, deliveries, redeliver, rotate, delete; events and the inbox", async () => {
    const created = await check("POST /api/webhook-endpoints", createEndpoint, {
      status: 201,
      token: merchant.access,
      body: { url: receiverUrl, description: "docs" },
    });
    await check("POST /api/webhook-endpoints", createEndpoint, { status: 400, token: merchant.access, body: { url: "" } });
    const id = String(created.body.data.id);
    await check("GET /api/webhook-endpoints", listEndpoints, { status: 200, token: merchant.access });
    await check("GET /api/webhook-endpoints/[id]", getEndpoint, { status: 200, token: merchant.access, params: { id } });
    await check("GET /api/webhook-endpoints/[id]", getEndpoint, { status: 403, token: readKey, params: { id } });
    await check("PUT /api/webhook-endpoints/[id]", updateEndpoint, {
      status: 200,
      token: merchant.access,
      params: { id },
      body: { events: ["payment.confirmed"] },
    });
    const sent = await check("POST /api/webhook-endpoints/[id]/test", testEndpoint, {
      status: 200,
      token: merchant.access,
      params: { id },
      body: { event: "payment.confirmed" },
    });
    expect(sent.body.data.succeeded).toBe(true);
    const log = await check("GET /api/webhook-endpoints/[id]/deliveries", deliveries, { status: 200, token: merchant.access, params: { id } });
    expect(log.body.results.length).toBeGreaterThan(0);
    await check("POST /api/webhook-deliveries/[id]/redeliver", redeliver, {
      status: 200,
      token: merchant.access,
      params: { id: String(log.body.results[0].id) },
    });
    await check("POST /api/webhook-deliveries/[id]/redeliver", redeliver, { status: 404, token: merchant.access, params: { id: "999999" } });
    await check("POST /api/webhook-endpoints/[id]/rotate-secret", rotateEndpointSecret, { status: 200, token: merchant.access, params: { id } });
    await check("GET /api/events", events, { status: 200, token: readKey });
    await check("DELETE /api/webhook-endpoints/[id]", deleteEndpoint, { status: 200, token: merchant.access, params: { id } });
    await check("DELETE /api/webhook-endpoints/[id]", deleteEndpoint, { status: 404, token: merchant.access, params: { id } });

    const box = await check("GET /api/sandbox/inbox", inbox, { status: 200, token: readKey });
    const token = /inb_[0-9A-Za-z]+/.exec(String(box.body.inbox_url))![0];
    await check("POST /api/sandbox/inbox/[token]", captureInbox, { status: 200, params: { token }, body: { hello: "inbox" } });
    await check("POST /api/sandbox/inbox/[token]", captureInbox, { status: 404, params: { token: "inb_unknown" }, body: {} });
    const after = await check("GET /api/sandbox/inbox", inbox, { status: 200, token: readKey });
    expect(after.body.results[0]).toMatchObject({ method: "POST", signature_valid: null });
  });

  test("sandbox tools without a devnet answer the documented 503", async () => {
    await check("POST /api/sandbox/mine", mine, { status: 503, token: fullKey, body: { blocks: 1, blockchain: "base" } });
    await check("POST /api/sandbox/mine", mine, { status: 400, token: fullKey, body: { blocks: 0 } });
  });
});

describe("every protected route", () => {
  const keys = allRouteKeys.filter((key) => accessOf(key) !== "public");

  test("answers 401 without a credential, as documented", async () => {
    for (const key of keys) {
      const { method, handler, params, urlPath } = await loadRoute(key);
      const res = await call(handler, method, urlPath, { params });
      expect(res.status, key).toBe(401);
      expectMatchesSchema(key, 401, res.body);
    }
  });

  test("answers 403 to a credential without the permission, as documented", async () => {
    const noPermissions = await createMerchant();
    const webhookKey = (await createApiKeyFor(noPermissions, { permissions: ["manage_webhooks"] })).key;
    for (const key of keys) {
      const access: string = accessOf(key);
      if (access === "authenticated" || access === "manage_webhooks") continue;
      const { method, handler, params, urlPath } = await loadRoute(key);
      const res = await call(handler, method, urlPath, { params, token: webhookKey });
      expect(res.status, key).toBe(403);
      expectMatchesSchema(key, 403, res.body);
    }
  });
});
