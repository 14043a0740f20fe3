import { beforeAll, describe, expect, test } from "vitest";
import { randomAddress } from "../helpers/factories";
import type { ServerProcess } from "../helpers/server";
import { http, isErrorEnvelope, printSummary, signUp, waitFor, type Account } from "./support";

// Hundreds of malformed requests across every write route and every list filter, over real HTTP:
// none may answer 5xx, and every refusal must come in the spec's error envelope. Registered by
// running-server-requests.test.ts on its server (tests/faults/running-server.ts, which has a
// devnet, so a request that happens to be valid reaches a real chain instead of a 503).

let server: ServerProcess;
let merchant: Account;
const ids: Record<string, string> = {};

interface Probe {
  method: string;
  path: string;
  raw?: string | Blob;
  contentType?: string;
  auth?: boolean;
}

/** Values that are wrong for almost any field. */
const badValues: unknown[] = [null, -1, 1.5, 2 ** 64, "", "x".repeat(5000), true, [], {}, "\u0000", "' OR 1=1 --", { $gt: "" }];

/** Bodies that are wrong as a whole. */
const badBodies = [
  "",
  "{",
  "not json",
  "[]",
  "null",
  "123",
  '"text"',
  "[".repeat(60_000),
  '{"a":'.repeat(10_000),
  // valid JSON, deeply nested
  "[".repeat(30_000) + "]".repeat(30_000),
  '{"a":'.repeat(8_000) + "1" + "}".repeat(8_000),
  JSON.stringify({ pad: "x".repeat(70 * 1024) }),
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
];

const badIds = ["abc", "-1", "0", "1.5", "99999999999999999999", "%00", "%ff", "'%20OR%201=1", "a".repeat(3000), "..%2F..", "1e3", "%20"];
const badQueryValues = [
  "",
  "x",
  "-1",
  "0",
  "1e9",
  "99999999999999999999",
  "1.5",
  "%00",
  "%F0%9F%99%82",
  "a".repeat(3000),
  "pending,confirmed",
  "'%3B%20DROP%20TABLE%20payment_orders%3B--",
  "%ff",
];

/** Each write route with a valid body: every field gets every bad value, and the body every bad shape. */
function writeRoutes(): Array<{ method: string; path: string; body: Record<string, unknown>; auth?: boolean }> {
  return [
    {
      method: "POST",
      path: "/api/auth/register/",
      body: { username: "u_malformed", email: "m@example.com", password: "correct horse", shop_name: "S" },
      auth: false,
    },
    { method: "POST", path: "/api/auth/login/", body: { username: "nobody", password: "x" }, auth: false },
    { method: "POST", path: "/api/auth/token/refresh/", body: { refresh: "x" }, auth: false },
    { method: "POST", path: "/api/account/rotate-webhook-secret/", body: {} },
    { method: "POST", path: "/api/api-keys/", body: { name: "k", preset: "read_only", expires_at: "2999-01-01T00:00:00Z", permissions: ["read"] } },
    { method: "POST", path: "/api/merchant-wallets/", body: { blockchain: 3, wallet_address: randomAddress(), confirmation_threshold: 2, is_active: true } },
    { method: "PUT", path: `/api/merchant-wallets/${ids.wallet}/`, body: { wallet_address: randomAddress(), confirmation_threshold: 2, is_active: true } },
    {
      method: "POST",
      path: "/api/payment-orders/",
      body: {
        amount: "1",
        currency: "USDC",
        blockchain: "base",
        order_info: "{}",
        nonce: 2,
        webhook_url: "http://127.0.0.1:9/x",
        redirect_url: "https://example.com/",
        expires_at: "2999-01-01T00:00:00Z",
      },
    },
    {
      method: "POST",
      path: "/api/payment-orders/",
      body: { price_amount: "5.00", price_currency: "EUR", currency: "ETH", blockchain: "base", order_info: "{}", nonce: 3 },
    },
    { method: "PUT", path: "/api/account/", body: { payment_tolerance_bps: 25 } },
    {
      method: "POST",
      path: "/api/payment-links/",
      body: { title: "t", price_amount: "5.00", price_currency: "USD", options: [{ blockchain: "base", currency: "USDC" }], max_quantity: 2, is_active: true },
    },
    {
      method: "PUT",
      path: `/api/payment-links/${ids.link}/`,
      body: { title: "t", amount: "5", options: [{ blockchain: "base", currency: "USDC" }], max_quantity: 2, is_active: true },
    },
    { method: "POST", path: `/api/links/${ids.link}/orders/`, body: { blockchain: "base", currency: "USDC", quantity: 1 }, auth: false },
    { method: "POST", path: `/api/sandbox/payment-orders/${ids.order}/pay/`, body: { amount: "0.5", currency: "USDC" } },
    { method: "POST", path: "/api/sandbox/mine/", body: { blocks: 1, blockchain: "base" } },
    { method: "POST", path: "/api/sandbox/faucet/", body: { address: randomAddress(), currency: "USDC", amount: "1", blockchain: "base" } },
    {
      method: "POST",
      path: "/api/webhook-endpoints/",
      body: { url: "http://127.0.0.1:9/x", events: ["payment.confirmed"], description: "d", is_active: true },
    },
    {
      method: "PUT",
      path: `/api/webhook-endpoints/${ids.endpoint}/`,
      body: { url: "http://127.0.0.1:9/y", events: ["payment.pending"], description: "d", is_active: true },
    },
    { method: "POST", path: `/api/webhook-endpoints/${ids.endpoint}/test/`, body: { event: "payment.confirmed" } },
    { method: "POST", path: `/api/webhook-endpoints/${ids.endpoint}/rotate-secret/`, body: {} },
    { method: "POST", path: `/api/pay/${ids.order}/simulate/`, body: { kind: "partial" }, auth: false },
    {
      method: "POST",
      path: `/api/payment-orders/${ids.order}/refunds/`,
      body: { amount: "0.5", to_address: randomAddress(), reason: "r", overpaid_only: false },
    },
    {
      method: "POST",
      path: `/api/pay/${ids.order}/refund-address/`,
      body: { refund_address: randomAddress(), signature: `0x${"ab".repeat(65)}` },
      auth: false,
    },
    { method: "POST", path: ids.inbox!, body: { id: "evt", event: "payment.pending", data: {} }, auth: false },
  ];
}

function probes(): Probe[] {
  const out: Probe[] = [];
  for (const route of writeRoutes()) {
    for (const field of Object.keys(route.body)) {
      for (const value of badValues)
        out.push({ method: route.method, path: route.path, raw: JSON.stringify({ ...route.body, [field]: value }), auth: route.auth });
    }
    for (const raw of badBodies) out.push({ method: route.method, path: route.path, raw, auth: route.auth });
    out.push({ method: route.method, path: route.path, raw: JSON.stringify(route.body), contentType: "text/plain", auth: route.auth });
    out.push({ method: route.method, path: route.path, raw: new Blob([Uint8Array.from([0xff, 0xfe, 0x7b, 0x22, 0xc3])]), auth: route.auth }); // not UTF-8
  }
  // Bad ids in every path with one.
  const idPaths = [
    (id: string) => ["PUT", `/api/merchant-wallets/${id}/`, JSON.stringify({ is_active: true })],
    (id: string) => ["DELETE", `/api/api-keys/${id}/`, undefined],
    (id: string) => ["GET", `/api/payment-orders/${id}/`, undefined],
    (id: string) => ["GET", `/api/transactions/${id}/`, undefined],
    (id: string) => ["POST", `/api/sandbox/payment-orders/${id}/pay/`, "{}"],
    (id: string) => ["PUT", `/api/webhook-endpoints/${id}/`, JSON.stringify({ is_active: true })],
    (id: string) => ["DELETE", `/api/webhook-endpoints/${id}/`, undefined],
    (id: string) => ["GET", `/api/webhook-endpoints/${id}/`, undefined],
    (id: string) => ["POST", `/api/webhook-endpoints/${id}/test/`, JSON.stringify({ event: "payment.pending" })],
    (id: string) => ["POST", `/api/webhook-endpoints/${id}/rotate-secret/`, "{}"],
    (id: string) => ["GET", `/api/webhook-endpoints/${id}/deliveries/`, undefined],
    (id: string) => ["POST", `/api/webhook-deliveries/${id}/redeliver/`, "{}"],
    (id: string) => ["GET", `/api/pay/${id}/`, undefined],
    (id: string) => ["GET", `/api/payment-links/${id}/`, undefined],
    (id: string) => ["DELETE", `/api/payment-links/${id}/`, undefined],
    (id: string) => ["GET", `/api/links/${id}/`, undefined],
    (id: string) => ["POST", `/api/links/${id}/orders/`, JSON.stringify({ blockchain: "base", currency: "USDC" })],
    (id: string) => ["POST", `/api/pay/${id}/simulate/`, JSON.stringify({ kind: "full" })],
    (id: string) => ["GET", `/api/payment-orders/${id}/refunds/`, undefined],
    (id: string) => ["POST", `/api/payment-orders/${id}/refunds/`, JSON.stringify({ to_address: randomAddress() })],
    (id: string) => ["POST", `/api/pay/${id}/refund-address/`, JSON.stringify({ refund_address: randomAddress(), signature: `0x${"ab".repeat(65)}` })],
    (id: string) => ["POST", `/api/sandbox/inbox/${id}/`, "{}"],
  ];
  for (const make of idPaths) {
    for (const id of badIds) {
      const [method, path, raw] = make(id) as [string, string, string | undefined];
      out.push({ method, path, raw, auth: !path.startsWith("/api/pay/") && !path.startsWith("/api/sandbox/inbox/") && !path.startsWith("/api/links/") });
    }
  }
  // Every list filter with bad values, one at a time and repeated.
  const lists: Array<[string, string[]]> = [
    ["/api/payment-orders/", ["status", "blockchain", "currency", "page", "page_size", "ordering"]],
    ["/api/transactions/", ["blockchain", "status", "page", "page_size"]],
    ["/api/merchant-wallets/", ["page", "page_size"]],
    ["/api/webhook-endpoints/", ["page", "page_size"]],
    [`/api/webhook-endpoints/${ids.endpoint}/deliveries/`, ["status", "page", "page_size"]],
    ["/api/api-keys/", ["page", "page_size"]],
    ["/api/payment-links/", ["page", "page_size"]],
    ["/api/events/", ["event", "order_id", "page", "page_size"]],
    ["/api/sandbox/inbox/", ["page", "page_size"]],
    ["/api/blockchains/", ["page", "page_size"]],
  ];
  for (const [path, params] of lists) {
    for (const param of params) {
      for (const value of badQueryValues) out.push({ method: "GET", path: `${path}?${param}=${value}` });
      out.push({ method: "GET", path: `${path}?${param}=1&${param}=2` });
      out.push({ method: "GET", path: `${path}?${param}[]=1` });
    }
  }
  return out;
}

async function send(probe: Probe) {
  const headers: Record<string, string> = {};
  if (probe.raw !== undefined) headers["content-type"] = probe.contentType ?? "application/json";
  if (probe.auth !== false) headers.authorization = `Bearer ${merchant.access}`;
  const response = await fetch(server.url + probe.path, {
    method: probe.method,
    headers,
    body: probe.raw,
    redirect: "manual",
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = { unparsed: text.slice(0, 200) };
  }
  return { status: response.status, body };
}

/** Registers the malformed-request scenario against the file's shared server. */
export function malformedRequestSuite(shared: { server(): ServerProcess }) {
  describe("malformed requests", () => {
    beforeAll(async () => {
      server = shared.server();
      merchant = await signUp(server);
      const token = merchant.access;
      const wallet = await http(server, "POST", "/api/merchant-wallets/", {
        token,
        json: { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 1 },
      });
      ids.wallet = String(wallet.body.data.id);
      const order = await waitFor("an order", async () => {
        const res = await http(server, "POST", "/api/payment-orders/", {
          token,
          json: { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 },
        });
        return res.status === 201 && res;
      });
      ids.order = order.body.data.order_id;
      const endpoint = await http(server, "POST", "/api/webhook-endpoints/", { token, json: { url: "http://127.0.0.1:9/hook", events: ["payment.expired"] } });
      ids.endpoint = String(endpoint.body.data.id);
      const key = await http(server, "POST", "/api/api-keys/", { token, json: { name: "k", preset: "read_only" } });
      ids.key = String(key.body.data.id);
      const link = await http(server, "POST", "/api/payment-links/", {
        token,
        json: { title: "t", amount: "5", options: [{ blockchain: "base", currency: "USDC" }] },
      });
      ids.link = String(link.body.data.id);
      const inbox = await http(server, "GET", "/api/sandbox/inbox/", { token });
      ids.inbox = new URL(inbox.body.inbox_url).pathname;
    });

    test("300+ malformed requests across every write route and list filter: zero 5xx, every refusal in the error envelope", async () => {
      const all = probes();
      expect(all.length).toBeGreaterThan(300);
      const results: Array<{ probe: Probe; status: number; body: any }> = [];
      const queue = [...all];
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (let probe = queue.shift(); probe; probe = queue.shift()) results.push({ probe, ...(await send(probe)) });
        }),
      );
      const serverErrors = results.filter((r) => r.status >= 500);
      const notEnveloped = results.filter((r) => r.status >= 400 && !isErrorEnvelope(r.body));
      const show = (r: (typeof results)[number]) =>
        `${r.probe.method} ${r.probe.path.slice(0, 120)} ${typeof r.probe.raw === "string" ? r.probe.raw.slice(0, 80) : r.probe.raw ? "<bytes>" : ""} → ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
      printSummary("malformed requests", {
        acknowledged: results.filter((r) => r.status < 300).length,
        found: results.filter((r) => r.status >= 400 && r.status < 500).length,
        lost: 0,
        duplicated: 0,
        "5xx": serverErrors.length,
        sent: results.length,
        not_enveloped: notEnveloped.length,
      });
      expect(serverErrors.map(show)).toEqual([]);
      expect(notEnveloped.map(show)).toEqual([]);
    });
  });
}
