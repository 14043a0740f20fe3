import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as capture from "@/app/api/sandbox/inbox/[token]/route";
import { GET as listInbox } from "@/app/api/sandbox/inbox/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { signPayload } from "@/lib/webhooks/signing";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { inMode, orderFor, recordEventFor } from "./support";

const database = setupTestDatabase();

// A tiny HTTP front for the capture route, so deliveries reach it over real HTTP.
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const token = /^\/api\/sandbox\/inbox\/([^/]+)\/?$/.exec(req.url ?? "")?.[1] ?? "";
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const method = req.method ?? "POST";
      const request = new Request(`http://127.0.0.1${req.url}`, { method, headers, body: method === "GET" ? undefined : Buffer.concat(chunks) });
      const handler = capture[method as "POST"];
      const response = await handler(request, { params: Promise.resolve({ token }) });
      res.writeHead(response.status, { "content-type": "application/json" });
      res.end(await response.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function inboxOf(merchant: TestMerchant) {
  const res = await call(listInbox, "GET", "/api/sandbox/inbox/", { token: merchant.access });
  expect(res.status).toBe(200);
  return res.body as { inbox_url: string; count: number; next: string | null; previous: string | null; results: any[] };
}

function captureUrl(inboxUrl: string) {
  return origin + new URL(inboxUrl).pathname;
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: res.status, body: await res.json() };
}

describe("sandbox webhook inbox", () => {
  test("an endpoint pointed at the capture URL: the delivery is recorded with both signatures checked", async () => {
    const merchant = await createMerchant();
    const empty = await inboxOf(merchant);
    expect(empty).toMatchObject({ count: 0, next: null, previous: null, results: [] });
    expect(empty.inbox_url).toMatch(/\/api\/sandbox\/inbox\/inb_[0-9A-Za-z]+\/$/);

    const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: captureUrl(empty.inbox_url) } });
    expect(endpoint.status).toBe(201);
    const order = await orderFor(merchant, { webhook_url: captureUrl(empty.inbox_url) });
    const { deliveries } = await recordEventFor(database.db, merchant, order, "payment.confirmed");
    await deliverDueWebhooks(database.db);

    const inbox = await inboxOf(merchant);
    expect(inbox.count).toBe(2);
    for (const message of inbox.results) {
      expect(message).toMatchObject({ method: "POST", signature_valid: true });
      expect(message.signature_details).toMatchObject({ x_webhook_signature: "valid", webhook_signature: "valid" });
      expect(JSON.parse(message.body)).toMatchObject({ event: "payment.confirmed", data: { order_id: order.order_id } });
      expect(deliveries.map((d) => d.messageId)).toContain(message.headers["webhook-id"]);
    }
    expect(inbox.results.map((m) => m.signature_details.signed_with).sort()).toEqual(["account", `endpoint ${endpoint.body.data.id}`]);
  });

  test("a wrong or missing signature is recorded as such", async () => {
    const merchant = await createMerchant();
    const { inbox_url } = await inboxOf(merchant);
    const body = '{"event":"payment.confirmed","data":{}}';
    const forged = await post(captureUrl(inbox_url), body, { "x-webhook-signature": signPayload(body, "whsec_not-the-secret") });
    expect(forged.status).toBe(200);
    expect(forged.body).toMatchObject({
      success: true,
      data: { signature_valid: false, signature_details: { x_webhook_signature: "invalid", webhook_signature: "missing" } },
    });
    const good = await post(captureUrl(inbox_url), body, { "x-webhook-signature": signPayload(body, merchant.webhookSecret) });
    expect(good.body.data).toMatchObject({ signature_valid: true, signature_details: { signed_with: "account" } });
    const unsigned = await post(captureUrl(inbox_url), body);
    expect(unsigned.body.data.signature_valid).toBeNull();
    const stale = await post(captureUrl(inbox_url), body, { "webhook-id": "msg_1", "webhook-timestamp": "1000", "webhook-signature": "v1,AAAA" });
    expect(stale.body.data.signature_details.webhook_signature).toBe("stale_timestamp");

    const inbox = await inboxOf(merchant);
    expect(inbox.results.map((m) => m.signature_valid)).toEqual([false, null, true, false]);
  });

  test("another merchant's inbox shows none of it; unknown tokens are 404", async () => {
    const alice = await createMerchant();
    const bob = await createMerchant();
    const { inbox_url } = await inboxOf(alice);
    await post(captureUrl(inbox_url), "{}");
    expect((await inboxOf(alice)).count).toBe(1);
    const bobs = await inboxOf(bob);
    expect(bobs.count).toBe(0);
    expect(bobs.inbox_url).not.toBe(inbox_url);

    for (const token of ["inb_doesnotexist000000000000", "nope", "../../x"]) {
      const res = await post(`${origin}/api/sandbox/inbox/${token}/`, "{}");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) }, timestamp: expect.any(String) });
    }
  });

  test("bodies over 64 KiB are refused with 400", async () => {
    const merchant = await createMerchant();
    const { inbox_url } = await inboxOf(merchant);
    const res = await post(captureUrl(inbox_url), JSON.stringify({ pad: "x".repeat(70 * 1024) }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect((await inboxOf(merchant)).count).toBe(0);
  });

  test("live mode: the capture URL and the inbox list are 404", async () => {
    const merchant = await createMerchant();
    const { inbox_url } = await inboxOf(merchant);
    await inMode("live", async () => {
      const captured = await post(captureUrl(inbox_url), "{}");
      expect(captured.status).toBe(404);
      expect(captured.body.error.code).toBe("NOT_FOUND");
      const listed = await call(listInbox, "GET", "/api/sandbox/inbox/", { token: merchant.access });
      expect(listed.status).toBe(404);
      expect(listed.body.error.code).toBe("NOT_FOUND");
    });
    expect((await inboxOf(merchant)).count).toBe(0);
  });
});
