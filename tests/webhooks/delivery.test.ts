import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { POST as rotateAccountSecret } from "@/app/api/account/rotate-webhook-secret/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as redeliver } from "@/app/api/webhook-deliveries/[id]/redeliver/route";
import { POST as rotateSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { PUT as updateEndpoint } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import {
  attemptRows,
  deliveryRow,
  endpointRow,
  orderFor,
  recordEventFor,
  settlePending,
  specSignatureOk,
  standardSignatureOk,
  startReceiver,
  type Receiver,
} from "./support";

const database = setupTestDatabase();
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(async () => {
  vi.useRealTimers();
  receiver.reply(() => ({ status: 200, body: "ok" }));
  await settlePending(database.db);
});

async function endpointFor(merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const res = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url(), ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; secret: string; url: string };
}

/** Runs the delivery task until nothing is due (what the local driver's loop does). */
async function deliverAll(options: Parameters<typeof deliverDueWebhooks>[1] = {}) {
  let total = 0;
  for (let claimed = -1; claimed !== 0;) {
    claimed = await deliverDueWebhooks(database.db, options);
    total += claimed;
  }
  return total;
}

const hour = 60 * 60 * 1000;
/** Moves the fake clock forward (only Date is faked: sockets and timers stay real). */
function advance(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(Date.now() + ms));
}

describe("a recorded event is delivered, signed both ways", () => {
  test("one POST per subscribed endpoint with { id, event, created_at, sequence, data } and valid signatures", async () => {
    const merchant = await createMerchant();
    const endpoint = await endpointFor(merchant);
    const order = await orderFor(merchant);
    const asGet = (await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } })).body
      .data;
    const { event, deliveries } = await recordEventFor(database.db, merchant, order, "payment.confirmed", asGet);
    expect(deliveries).toHaveLength(1);

    const before = receiver.requests.length;
    expect(await deliverAll()).toBe(1);
    const got = receiver.requests.slice(before);
    expect(got).toHaveLength(1);
    const request = got[0]!;

    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request.body);
    expect(body).toEqual({ id: event.id, event: "payment.confirmed", created_at: event.createdAt.toISOString(), sequence: 1, data: asGet });
    expect(Object.keys(body)).toEqual(["id", "event", "created_at", "sequence", "data"]);

    expect(specSignatureOk(request.body, request.headers["x-webhook-signature"], endpoint.secret)).toBe(true);
    expect(standardSignatureOk(request, endpoint.secret)).toBe(true);
    expect(request.headers["webhook-id"]).toBe(deliveries[0]!.messageId);
    expect(Math.abs(Number(request.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    // a different secret does not verify
    expect(specSignatureOk(request.body, request.headers["x-webhook-signature"], merchant.webhookSecret)).toBe(false);
    expect(standardSignatureOk(request, merchant.webhookSecret)).toBe(false);

    const row = await deliveryRow(database.db, deliveries[0]!.id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
    const attempts = await attemptRows(database.db, row.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ statusCode: 200, responseBody: "ok", error: null });
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  test("the order's webhook_url gets its own delivery, signed with the account secret", async () => {
    const merchant = await createMerchant();
    const order = await orderFor(merchant, { webhook_url: receiver.url("/per-order") });
    const { deliveries } = await recordEventFor(database.db, merchant, order, "payment.pending");
    expect(deliveries.map((d) => d.endpointId)).toEqual([null]);
    const before = receiver.requests.length;
    await deliverAll();
    const request = receiver.requests.slice(before).find((r) => r.path === "/per-order")!;
    expect(request).toBeDefined();
    expect(specSignatureOk(request.body, request.headers["x-webhook-signature"], merchant.webhookSecret)).toBe(true);
    expect(standardSignatureOk(request, merchant.webhookSecret)).toBe(true);
  });

  test("subscriptions: an endpoint gets only the events it chose; inactive ones get nothing; [] means all", async () => {
    const merchant = await createMerchant();
    const confirmedOnly = await endpointFor(merchant, { url: receiver.url("/confirmed-only"), events: ["payment.confirmed"] });
    const all = await endpointFor(merchant, { url: receiver.url("/all"), events: [] });
    await endpointFor(merchant, { url: receiver.url("/inactive"), is_active: false });
    const order = await orderFor(merchant, { webhook_url: receiver.url("/order") });

    const pending = await recordEventFor(database.db, merchant, order, "payment.pending");
    expect(pending.deliveries.map((d) => d.endpointId)).toEqual([all.id, null]);
    const confirmed = await recordEventFor(database.db, merchant, order, "payment.confirmed");
    expect(confirmed.deliveries.map((d) => d.endpointId)).toEqual([confirmedOnly.id, all.id, null]);

    const before = receiver.requests.length;
    await deliverAll();
    const paths = receiver.requests
      .slice(before)
      .map((r) => `${r.path} ${JSON.parse(r.body).event}`)
      .sort();
    expect(paths).toEqual([
      "/all payment.confirmed",
      "/all payment.pending",
      "/confirmed-only payment.confirmed",
      "/order payment.confirmed",
      "/order payment.pending",
    ]);
  });

  test("another merchant's endpoints never receive this merchant's events", async () => {
    const alice = await createMerchant();
    const bob = await createMerchant();
    await endpointFor(bob, { url: receiver.url("/bob") });
    const order = await orderFor(alice);
    const { deliveries } = await recordEventFor(database.db, alice, order);
    expect(deliveries).toHaveLength(0);
  });
});

describe("retries", () => {
  test("500 then 200: retried on the schedule, same webhook-id and body, each attempt logged", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/flaky") });
    const order = await orderFor(merchant);
    const { deliveries } = await recordEventFor(database.db, merchant, order);
    const id = deliveries[0]!.id;
    receiver.reply((r) =>
      r.path === "/flaky" && receiver.requests.filter((x) => x.path === "/flaky").length === 1 ? { status: 500, body: "boom" } : { status: 200 },
    );

    const before = receiver.requests.length;
    const started = Date.now();
    await deliverAll();
    let row = await deliveryRow(database.db, id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    // First retry after 30 s ± 20 % (the default schedule).
    const wait = row.nextAttemptAt!.getTime() - started;
    expect(wait).toBeGreaterThanOrEqual(24_000 - 50);
    expect(wait).toBeLessThanOrEqual(36_000 + 5000);
    expect(await deliverAll()).toBe(0); // not due yet

    advance(40_000);
    await deliverAll();
    row = await deliveryRow(database.db, id);
    expect(row).toMatchObject({ status: "succeeded", attempts: 2, lastStatusCode: 200, lastError: null });
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers["webhook-id"]).toBe(sent[1]!.headers["webhook-id"]);
    expect(sent[0]!.body).toBe(sent[1]!.body);
    const attempts = await attemptRows(database.db, id);
    expect(attempts.map((a) => [a.statusCode, a.responseBody])).toEqual([
      [500, null], // a loopback receiver's error body is not kept (sandbox SSRF rule)
      [200, ""],
    ]);
  });

  test("429 and 503 with Retry-After wait that long instead of the schedule", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/busy") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply(() => ({ status: 429, headers: { "retry-after": "600" } }));
    const t0 = Date.now();
    await deliverAll();
    let row = await deliveryRow(database.db, first.id);
    expect(row.status).toBe("pending");
    expect(row.nextAttemptAt!.getTime() - t0).toBeGreaterThanOrEqual(600_000 - 50);
    expect(row.nextAttemptAt!.getTime() - t0).toBeLessThan(600_000 + 5000);

    const retryAt = new Date(Date.now() + 2 * hour);
    receiver.reply(() => ({ status: 503, headers: { "retry-after": retryAt.toUTCString() } }));
    advance(11 * 60 * 1000);
    await deliverAll();
    row = await deliveryRow(database.db, first.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 503 });
    expect(Math.abs(row.nextAttemptAt!.getTime() - retryAt.getTime())).toBeLessThan(2000);
  });

  test("410 Gone fails the delivery and disables the endpoint; later events skip it", async () => {
    const merchant = await createMerchant();
    const endpoint = await endpointFor(merchant, { url: receiver.url("/gone") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply(() => ({ status: 410 }));
    await deliverAll();
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410 });
    const disabled = await endpointRow(database.db, endpoint.id);
    expect(disabled.isActive).toBe(false);
    expect(disabled.disabledReason).toMatch(/410/);
    expect((await recordEventFor(database.db, merchant, order)).deliveries).toHaveLength(0);

    // Turned back on by the merchant: the reason is cleared and events flow again.
    const enabled = await call(updateEndpoint, "PUT", `/api/webhook-endpoints/${endpoint.id}/`, {
      token: merchant.access,
      params: { id: String(endpoint.id) },
      body: { is_active: true },
    });
    expect(enabled.body.data).toMatchObject({ is_active: true, disabled_reason: null });
    expect((await recordEventFor(database.db, merchant, order)).deliveries).toHaveLength(1);
  });

  test("a receiver that does not answer in time is a failed attempt with a timeout error", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/slow") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply(() => ({ hang: true }));
    const started = performance.now();
    await deliverAll({ timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(5000);
    const row = await deliveryRow(database.db, first.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    // A timeout says so, even for a loopback receiver (its duration shows it anyway); other network failures there read alike.
    expect(row.lastError).toBe("Timed out: no answer within 300 ms.");
    const [attempt] = await attemptRows(database.db, first.id);
    expect(attempt).toMatchObject({ statusCode: null, responseBody: null });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(290);
  });

  test("exhausting the schedule marks the delivery failed after schedule + 1 attempts", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/down") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply(() => ({ status: 502, body: "bad gateway" }));
    const before = receiver.requests.length;
    await deliverAll({ schedule: { delaysMs: [0, 0, 0], jitter: 0 } });
    const row = await deliveryRow(database.db, first.id);
    expect(row).toMatchObject({ status: "failed", attempts: 4, lastStatusCode: 502, nextAttemptAt: null });
    expect(row.lastError).toMatch(/gave up after 4 attempts/);
    expect(row.completedAt).not.toBeNull();
    expect(receiver.requests.slice(before)).toHaveLength(4);
    expect(await attemptRows(database.db, first.id)).toHaveLength(4);
  });

  test("the default schedule spans about three days", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/always-down") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply(() => ({ status: 500 }));
    const start = Date.now();
    for (let i = 0; i < 20; i++) {
      await deliverAll();
      const row = await deliveryRow(database.db, first.id);
      if (row.status !== "pending") break;
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date(row.nextAttemptAt!.getTime() + 1));
    }
    const row = await deliveryRow(database.db, first.id);
    expect(row).toMatchObject({ status: "failed", attempts: 11 });
    const days = (Date.now() - start) / (24 * hour);
    expect(days).toBeGreaterThan(2.2);
    expect(days).toBeLessThan(3.6);
  });

  test("redirects are not followed; a long response body is cut to 2 KiB", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/moved") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply((r) => (r.path === "/moved" ? { status: 302, headers: { location: receiver.url("/elsewhere") } } : { status: 200 }));
    const before = receiver.requests.length;
    await deliverAll();
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(["/moved"]);
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "pending", lastStatusCode: 302 });

    receiver.reply(() => ({ status: 200, body: "x".repeat(100_000) }));
    advance(hour);
    await deliverAll();
    const attempts = await attemptRows(database.db, first.id);
    expect(attempts.at(-1)!.responseBody).toHaveLength(2048);
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "succeeded" });
  });
});

describe("redelivery", () => {
  test("POST /api/webhook-deliveries/{id}/redeliver/ sends a delivered webhook again with the same webhook-id", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/redeliver") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    const before = receiver.requests.length;
    await deliverAll();
    const res = await call(redeliver, "POST", `/api/webhook-deliveries/${first.id}/redeliver/`, { token: merchant.access, params: { id: String(first.id) } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: first.id, webhook_id: first.messageId, status: "pending", attempts: 0 });
    expect(res.body.data.attempt_log).toHaveLength(1);
    await deliverAll();
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent.map((r) => r.headers["webhook-id"])).toEqual([first.messageId, first.messageId]);
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await attemptRows(database.db, first.id)).toHaveLength(2);
  });

  test("a failed delivery can be redelivered once the receiver is back", async () => {
    const merchant = await createMerchant();
    await endpointFor(merchant, { url: receiver.url("/was-down") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply(() => ({ status: 500 }));
    await deliverAll({ schedule: { delaysMs: [], jitter: 0 } });
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "failed" });
    receiver.reply(() => ({ status: 204 }));
    await call(redeliver, "POST", `/api/webhook-deliveries/${first.id}/redeliver/`, { token: merchant.access, params: { id: String(first.id) } });
    await deliverAll();
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "succeeded", lastStatusCode: 204 });
  });
});

describe("secret rotation", () => {
  test("for 24 hours after rotation deliveries carry both signatures; then only the new one", async () => {
    const merchant = await createMerchant();
    const endpoint = await endpointFor(merchant, { url: receiver.url("/rotating") });
    const rotated = await call(rotateSecret, "POST", `/api/webhook-endpoints/${endpoint.id}/rotate-secret/`, {
      token: merchant.access,
      params: { id: String(endpoint.id) },
    });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.secret;
    expect(newSecret).not.toBe(endpoint.secret);
    const order = await orderFor(merchant);

    await recordEventFor(database.db, merchant, order);
    let before = receiver.requests.length;
    await deliverAll();
    let request = receiver.requests.slice(before)[0]!;
    expect((request.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    expect(standardSignatureOk(request, newSecret)).toBe(true);
    expect(standardSignatureOk(request, endpoint.secret)).toBe(true);
    expect(specSignatureOk(request.body, request.headers["x-webhook-signature"], newSecret)).toBe(true);

    advance(24 * hour + 60_000);
    await recordEventFor(database.db, merchant, order);
    before = receiver.requests.length;
    await deliverAll();
    request = receiver.requests.slice(before)[0]!;
    expect((request.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    expect(standardSignatureOk(request, newSecret)).toBe(true);
    expect(standardSignatureOk(request, endpoint.secret)).toBe(false);
  });

  test("the account secret's rotation window applies to per-order webhook_url deliveries", async () => {
    const merchant = await createMerchant();
    const order = await orderFor(merchant, { webhook_url: receiver.url("/order-rotating") });
    const rotated = await call(rotateAccountSecret, "POST", "/api/account/rotate-webhook-secret/", { token: merchant.access });
    const newSecret: string = rotated.body.data.webhook_secret;
    await recordEventFor(database.db, merchant, order);
    const before = receiver.requests.length;
    await deliverAll();
    const request = receiver.requests.slice(before)[0]!;
    expect(standardSignatureOk(request, newSecret)).toBe(true);
    expect(standardSignatureOk(request, merchant.webhookSecret)).toBe(true);
    expect(specSignatureOk(request.body, request.headers["x-webhook-signature"], newSecret)).toBe(true);
  });

  test("pending retries follow an edited endpoint URL", async () => {
    const merchant = await createMerchant();
    const endpoint = await endpointFor(merchant, { url: receiver.url("/old-home") });
    const order = await orderFor(merchant);
    const first = (await recordEventFor(database.db, merchant, order)).deliveries[0]!;
    receiver.reply((r) => (r.path === "/old-home" ? { status: 500 } : { status: 200 }));
    await deliverAll();
    await call(updateEndpoint, "PUT", `/api/webhook-endpoints/${endpoint.id}/`, {
      token: merchant.access,
      params: { id: String(endpoint.id) },
      body: { url: receiver.url("/new-home") },
    });
    advance(hour);
    const before = receiver.requests.length;
    await deliverAll();
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(["/new-home"]);
    expect(await deliveryRow(database.db, first.id)).toMatchObject({ status: "succeeded", url: receiver.url("/new-home") });
  });
});
