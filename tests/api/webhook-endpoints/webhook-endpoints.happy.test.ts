import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { GET as listDeliveries } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { POST as rotateSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { DELETE as remove, GET as getOne, PUT as update } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as testSend } from "@/app/api/webhook-endpoints/[id]/test/route";
import { GET as list, POST as create } from "@/app/api/webhook-endpoints/route";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { orderFor, recordEventFor, specSignatureOk, standardSignatureOk, startReceiver, type Receiver } from "../../webhooks/support";

const database = setupTestDatabase();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const endpointKeys = ["id", "url", "events", "description", "is_active", "disabled_reason", "created_at", "updated_at"].sort();
const params = (id: number | string) => ({ params: { id: String(id) } });

async function createEndpoint(merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const res = await call(create, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url(), ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe("POST /api/webhook-endpoints/", () => {
  test("creates an endpoint and shows its secret once", async () => {
    const merchant = await createMerchant();
    const res = await call(create, "POST", "/api/webhook-endpoints/", {
      token: merchant.access,
      body: { url: receiver.url("/orders"), events: ["payment.failed", "payment.confirmed", "payment.confirmed"], description: "  fulfilment  " },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: expect.any(String), timestamp: expect.any(String) });
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual([...endpointKeys, "secret"].sort());
    expect(data).toMatchObject({
      id: expect.any(Number),
      url: receiver.url("/orders"),
      events: ["payment.confirmed", "payment.failed"],
      description: "fulfilment",
      is_active: true,
      disabled_reason: null,
    });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(data.secret.slice(6), "base64")).toHaveLength(32);
    expect(new Date(data.created_at).toISOString()).toBe(data.created_at);
  });

  test("defaults: all events (empty list), active, no description; each endpoint gets its own secret", async () => {
    const merchant = await createMerchant();
    const a = await createEndpoint(merchant);
    const b = await createEndpoint(merchant);
    expect(a).toMatchObject({ events: [], is_active: true, description: null });
    expect(a.secret).not.toBe(b.secret);
    expect(a.secret).not.toBe(merchant.webhookSecret);
  });

  test("works with a manage_webhooks API key", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant, { preset: "manage_webhooks" });
    const res = await call(create, "POST", "/api/webhook-endpoints/", { token: key, body: { url: receiver.url() } });
    expect(res.status).toBe(201);
  });
});

describe("reading, changing and deleting endpoints", () => {
  let merchant: TestMerchant;
  beforeAll(async () => {
    merchant = await createMerchant();
  });

  test("GET /api/webhook-endpoints/ is the bare page shape, newest first, without secrets", async () => {
    const first = await createEndpoint(merchant, { description: "first" });
    const second = await createEndpoint(merchant, { description: "second" });
    const res = await call(list, "GET", "/api/webhook-endpoints/", { token: merchant.access });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(res.body.count).toBeGreaterThanOrEqual(2);
    expect(res.body.results.slice(0, 2).map((e: any) => e.id)).toEqual([second.id, first.id]);
    for (const endpoint of res.body.results) expect(Object.keys(endpoint).sort()).toEqual(endpointKeys);

    const paged = await call(list, "GET", "/api/webhook-endpoints/", { token: merchant.access, query: { page_size: 1 } });
    expect(paged.body.results).toHaveLength(1);
    expect(paged.body.next).toBe("/api/webhook-endpoints/?page_size=1&page=2");
    expect(paged.body.previous).toBeNull();
  });

  test("GET /api/webhook-endpoints/{id}/ shows one endpoint without its secret", async () => {
    const endpoint = await createEndpoint(merchant, { events: ["payment.expired"] });
    const res = await call(getOne, "GET", `/api/webhook-endpoints/${endpoint.id}/`, { token: merchant.access, ...params(endpoint.id) });
    expect(res.status).toBe(200);
    const withoutSecret = { ...endpoint };
    delete withoutSecret.secret;
    expect(res.body.data).toEqual(withoutSecret);
  });

  test("PUT /api/webhook-endpoints/{id}/ changes any subset and keeps the rest (and the secret)", async () => {
    const endpoint = await createEndpoint(merchant, { description: "before", events: ["payment.pending"] });
    const res = await call(update, "PUT", `/api/webhook-endpoints/${endpoint.id}/`, {
      token: merchant.access,
      ...params(endpoint.id),
      body: { url: receiver.url("/moved"), is_active: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: endpoint.id, url: receiver.url("/moved"), is_active: false, description: "before", events: ["payment.pending"] });
    expect(res.body.data).not.toHaveProperty("secret");

    const cleared = await call(update, "PUT", `/api/webhook-endpoints/${endpoint.id}/`, {
      token: merchant.access,
      ...params(endpoint.id),
      body: { description: null, events: [], is_active: true },
    });
    expect(cleared.body.data).toMatchObject({ description: null, events: [], is_active: true });

    // Still signed with the secret shown at creation.
    const sent = await call(testSend, "POST", `/api/webhook-endpoints/${endpoint.id}/test/`, {
      token: merchant.access,
      ...params(endpoint.id),
      body: { event: "payment.confirmed" },
    });
    expect(sent.body.data.succeeded).toBe(true);
    const request = receiver.requests.at(-1)!;
    expect(specSignatureOk(request.body, request.headers["x-webhook-signature"], endpoint.secret)).toBe(true);
  });

  test("POST /api/webhook-endpoints/{id}/rotate-secret/ shows a new secret and when the old one stops signing", async () => {
    const endpoint = await createEndpoint(merchant);
    const before = Date.now();
    const res = await call(rotateSecret, "POST", `/api/webhook-endpoints/${endpoint.id}/rotate-secret/`, { token: merchant.access, ...params(endpoint.id) });
    expect(res.status).toBe(200);
    expect(res.body.data.secret).toMatch(/^whsec_/);
    expect(res.body.data.secret).not.toBe(endpoint.secret);
    const expires = new Date(res.body.data.previous_secret_expires_at).getTime();
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1000);
    expect(expires - before).toBeLessThan(24 * 3600 * 1000 + 60_000);
    const again = await call(getOne, "GET", `/api/webhook-endpoints/${endpoint.id}/`, { token: merchant.access, ...params(endpoint.id) });
    expect(again.body.data).not.toHaveProperty("secret");
  });

  test("DELETE /api/webhook-endpoints/{id}/ removes it and its delivery log", async () => {
    const endpoint = await createEndpoint(merchant);
    await call(testSend, "POST", `/api/webhook-endpoints/${endpoint.id}/test/`, {
      token: merchant.access,
      ...params(endpoint.id),
      body: { event: "payment.pending" },
    });
    const res = await call(remove, "DELETE", `/api/webhook-endpoints/${endpoint.id}/`, { token: merchant.access, ...params(endpoint.id) });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(endpoint.id);
    expect(res.body.data).not.toHaveProperty("secret");
    expect((await call(getOne, "GET", `/api/webhook-endpoints/${endpoint.id}/`, { token: merchant.access, ...params(endpoint.id) })).status).toBe(404);
    expect(
      (await call(listDeliveries, "GET", `/api/webhook-endpoints/${endpoint.id}/deliveries/`, { token: merchant.access, ...params(endpoint.id) })).status,
    ).toBe(404);
    const listed = await call(list, "GET", "/api/webhook-endpoints/", { token: merchant.access, query: { page_size: 100 } });
    expect(listed.body.results.map((e: any) => e.id)).not.toContain(endpoint.id);
  });
});

describe("tools", () => {
  test("POST /api/webhook-endpoints/{id}/test/ sends a signed sample now and returns the attempt", async () => {
    const merchant = await createMerchant();
    const endpoint = await createEndpoint(merchant, { url: receiver.url("/test-send"), events: ["payment.pending"] });
    const order = await orderFor(merchant);
    const real = (await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } })).body
      .data;

    const before = receiver.requests.length;
    // Any event may be tested, subscribed or not.
    const res = await call(testSend, "POST", `/api/webhook-endpoints/${endpoint.id}/test/`, {
      token: merchant.access,
      ...params(endpoint.id),
      body: { event: "payment.confirmed" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status_code: 200,
      succeeded: true,
      error: null,
      response_body: "ok",
      event: "payment.confirmed",
      url: receiver.url("/test-send"),
      webhook_id: expect.stringMatching(/^msg_/),
      duration_ms: expect.any(Number),
      request_headers: expect.objectContaining({ "webhook-id": res.body.data.webhook_id }),
    });
    const [request] = receiver.requests.slice(before);
    expect(request!.headers["webhook-id"]).toBe(res.body.data.webhook_id);
    expect(specSignatureOk(request!.body, request!.headers["x-webhook-signature"], endpoint.secret)).toBe(true);
    expect(standardSignatureOk(request!, endpoint.secret)).toBe(true);
    const body = JSON.parse(request!.body);
    expect(Object.keys(body)).toEqual(["id", "event", "created_at", "sequence", "data"]);
    expect(body.event).toBe("payment.confirmed");
    // The sample has exactly the shape of a real order.
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(real).sort());
    expect(body.data).toMatchObject({
      status: "confirmed",
      order_id: expect.stringMatching(/^ORD-TEST/),
      amount: "10.5",
      currency: "USDC",
      blockchain: "base",
    });

    receiver.reply(() => ({ status: 500, body: "down" }));
    const failed = await call(testSend, "POST", `/api/webhook-endpoints/${endpoint.id}/test/`, {
      token: merchant.access,
      ...params(endpoint.id),
      body: { event: "payment.failed" },
    });
    receiver.reply(() => ({ status: 200 }));
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ succeeded: false, status_code: 500, response_body: null });
  });

  test("GET /api/webhook-endpoints/{id}/deliveries/ lists the log newest first, with attempts, filterable by status", async () => {
    const merchant = await createMerchant();
    const endpoint = await createEndpoint(merchant, { url: receiver.url("/log") });
    const order = await orderFor(merchant);
    const pending = await recordEventFor(database.db, merchant, order, "payment.pending");
    await deliverDueWebhooks(database.db);
    receiver.reply(() => ({ status: 503, body: "later" }));
    const confirmed = await recordEventFor(database.db, merchant, order, "payment.confirmed");
    await deliverDueWebhooks(database.db);
    receiver.reply(() => ({ status: 200 }));

    const res = await call(listDeliveries, "GET", `/api/webhook-endpoints/${endpoint.id}/deliveries/`, { token: merchant.access, ...params(endpoint.id) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(res.body.count).toBe(2);
    const [newest, oldest] = res.body.results;
    expect(newest).toMatchObject({
      id: confirmed.deliveries[0]!.id,
      webhook_id: confirmed.deliveries[0]!.messageId,
      event_id: confirmed.event.id,
      event: "payment.confirmed",
      endpoint_id: endpoint.id,
      status: "pending",
      attempts: 1,
      last_status_code: 503,
      last_error: "HTTP 503",
      next_attempt_at: expect.any(String),
      completed_at: null,
    });
    expect(newest.payload).toMatchObject({ id: confirmed.event.id, event: "payment.confirmed", data: { order_id: order.order_id } });
    expect(newest.attempt_log).toEqual([
      expect.objectContaining({ status_code: 503, response_body: null, error: null, attempted_at: expect.any(String), duration_ms: expect.any(Number) }),
    ]);
    expect(oldest).toMatchObject({ id: pending.deliveries[0]!.id, status: "succeeded", attempts: 1, last_status_code: 200, next_attempt_at: null });
    expect(oldest.completed_at).not.toBeNull();

    const onlyPending = await call(listDeliveries, "GET", `/api/webhook-endpoints/${endpoint.id}/deliveries/`, {
      token: merchant.access,
      ...params(endpoint.id),
      query: { status: "succeeded" },
    });
    expect(onlyPending.body.results.map((d: any) => d.id)).toEqual([pending.deliveries[0]!.id]);
  });

  test("GET /api/events/ lists the merchant's events newest first, filterable by type and order", async () => {
    const merchant = await createMerchant();
    const first = await orderFor(merchant);
    const second = await orderFor(merchant);
    const a = await recordEventFor(database.db, merchant, first, "payment.pending", { order_id: first.order_id, status: "processing" });
    const b = await recordEventFor(database.db, merchant, first, "payment.confirmed", { order_id: first.order_id, status: "confirmed" });
    const c = await recordEventFor(database.db, merchant, second, "payment.expired", { order_id: second.order_id, status: "expired" });

    const { key } = await createApiKeyFor(merchant, { preset: "read_only" });
    const res = await call(listEvents, "GET", "/api/events/", { token: key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "next", "previous", "results"]);
    expect(res.body.count).toBe(3);
    expect(res.body.results.map((e: any) => e.id)).toEqual([c.event.id, b.event.id, a.event.id]);
    expect(res.body.results[1]).toEqual({
      id: b.event.id,
      event: "payment.confirmed",
      order_id: first.order_id,
      created_at: b.event.createdAt.toISOString(),
      sequence: 2,
      data: { order_id: first.order_id, status: "confirmed" },
    });
    const confirmedOnly = await call(listEvents, "GET", "/api/events/", { token: key, query: { event: "payment.confirmed" } });
    expect(confirmedOnly.body.results.map((e: any) => e.id)).toEqual([b.event.id]);
    const ofFirst = await call(listEvents, "GET", "/api/events/", { token: key, query: { order_id: first.order_id } });
    expect(ofFirst.body.results.map((e: any) => e.id)).toEqual([b.event.id, a.event.id]);
    const paged = await call(listEvents, "GET", "/api/events/", { token: key, query: { page_size: 2, page: 2 } });
    expect(paged.body).toMatchObject({ count: 3, next: null, previous: "/api/events/?page_size=2&page=1" });
  });
});
