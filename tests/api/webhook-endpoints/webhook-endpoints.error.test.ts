import { beforeAll, describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { POST as redeliver } from "@/app/api/webhook-deliveries/[id]/redeliver/route";
import { GET as listDeliveries } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { POST as rotateSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { DELETE as remove, GET as getOne, PUT as update } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as testSend } from "@/app/api/webhook-endpoints/[id]/test/route";
import { GET as list, POST as create } from "@/app/api/webhook-endpoints/route";
import { maxEndpointsPerMerchant } from "@/lib/webhooks/create-endpoint";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { orderFor, recordEventFor } from "../../webhooks/support";

const database = setupTestDatabase();
let merchant: TestMerchant;
let endpointId: number;
beforeAll(async () => {
  merchant = await createMerchant();
  endpointId = (await call(create, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: "http://127.0.0.1:9/hook" } })).body.data.id;
});

function expectValidation(res: { status: number; body: any }, field: string) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: {
      code: "VALIDATION_ERROR",
      message: expect.any(String),
      details: expect.objectContaining({ [field]: expect.arrayContaining([expect.any(String)]) }),
    },
    timestamp: expect.any(String),
  });
}

describe("POST /api/webhook-endpoints/ rejects bad input with 400 VALIDATION_ERROR", () => {
  test.each([
    ["a missing url", {}, "url"],
    ["a blank url", { url: "  " }, "url"],
    ["a url that is not one", { url: "not a url" }, "url"],
    ["a non-http scheme", { url: "ftp://example.com/hook" }, "url"],
    ["credentials in the url", { url: "https://user:pw@example.com/hook" }, "url"],
    ["a url over 2048 characters", { url: `https://example.com/${"a".repeat(2100)}` }, "url"],
    ["a url that is a number", { url: 42 }, "url"],
    ["an unknown event", { url: "http://127.0.0.1:9/x", events: ["payment.refunded"] }, "events.0"],
    ["events that are not a list", { url: "http://127.0.0.1:9/x", events: "payment.confirmed" }, "events"],
    ["a description over 500 characters", { url: "http://127.0.0.1:9/x", description: "d".repeat(501) }, "description"],
    ["is_active that is not a boolean", { url: "http://127.0.0.1:9/x", is_active: "yes" }, "is_active"],
  ])("%s", async (_label, body, field) => {
    expectValidation(await call(create, "POST", "/api/webhook-endpoints/", { token: merchant.access, body }), field);
  });

  test("payment.reorged is an event like the others: an endpoint subscribes to it", async () => {
    const res = await call(create, "POST", "/api/webhook-endpoints/", {
      token: merchant.access,
      body: { url: "http://127.0.0.1:9/reorgs", events: ["payment.reorged"] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.events).toEqual(["payment.reorged"]);
  });

  test("malformed JSON", async () => {
    expectValidation(await call(create, "POST", "/api/webhook-endpoints/", { token: merchant.access, rawBody: '{"url": ' }), "non_field_errors");
  });

  test(`more than ${maxEndpointsPerMerchant} endpoints`, async () => {
    const busy = await createMerchant();
    for (let i = 0; i < maxEndpointsPerMerchant; i++) {
      expect((await call(create, "POST", "/api/webhook-endpoints/", { token: busy.access, body: { url: `http://127.0.0.1:9/${i}` } })).status).toBe(201);
    }
    expectValidation(
      await call(create, "POST", "/api/webhook-endpoints/", { token: busy.access, body: { url: "http://127.0.0.1:9/one-more" } }),
      "non_field_errors",
    );
  });
});

describe("PUT /api/webhook-endpoints/{id}/ rejects bad input", () => {
  test.each([
    ["an empty body", {}, "non_field_errors"],
    ["a bad url", { url: "gopher://x" }, "url"],
    ["an unknown event", { events: ["nope"] }, "events.0"],
  ])("%s → 400", async (_label, body, field) => {
    expectValidation(
      await call(update, "PUT", `/api/webhook-endpoints/${endpointId}/`, { token: merchant.access, params: { id: String(endpointId) }, body }),
      field,
    );
  });
});

describe("unknown ids are 404 NOT_FOUND on every endpoint route", () => {
  const routes = [
    ["GET", getOne, undefined],
    ["PUT", update, { is_active: false }],
    ["DELETE", remove, undefined],
    ["POST rotate-secret", rotateSecret, undefined],
    ["POST test", testSend, { event: "payment.confirmed" }],
    ["GET deliveries", listDeliveries, undefined],
    ["POST redeliver", redeliver, undefined],
  ] as const;
  for (const [label, handler, body] of routes) {
    test.each(["999999", "abc", "1.5", "-1", "0", "99999999999999"])(`${label} with id %s`, async (id) => {
      const method = label.split(" ")[0]!;
      const res = await call(handler, method, `/api/x/${id}/`, { token: merchant.access, params: { id }, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) }, timestamp: expect.any(String) });
    });
  }
});

describe("tools reject bad input", () => {
  test("POST …/test/ without an event, or with an unknown one, is 400", async () => {
    const route = { token: merchant.access, params: { id: String(endpointId) } };
    expectValidation(await call(testSend, "POST", `/api/webhook-endpoints/${endpointId}/test/`, { ...route, body: {} }), "event");
    expectValidation(await call(testSend, "POST", `/api/webhook-endpoints/${endpointId}/test/`, { ...route, body: { event: "order.shipped" } }), "event");
  });

  test("GET …/deliveries/ with an unknown status or a bad page is 400", async () => {
    const route = { token: merchant.access, params: { id: String(endpointId) } };
    expectValidation(await call(listDeliveries, "GET", `/api/webhook-endpoints/${endpointId}/deliveries/`, { ...route, query: { status: "lost" } }), "status");
    expectValidation(await call(listDeliveries, "GET", `/api/webhook-endpoints/${endpointId}/deliveries/`, { ...route, query: { page: "two" } }), "page");
  });

  test("GET /api/events/ with a bad page_size is 400; page_size above 100 is capped", async () => {
    expectValidation(await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { page_size: "x" } }), "page_size");
    const capped = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { page_size: 500 } });
    expect(capped.status).toBe(200);
  });

  test("GET /api/events/ with an unknown event type is 400 on its field; every recorded type filters", async () => {
    const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { event: "order.shipped" } });
    expectValidation(res, "event");
    expect(res.body.error.details.event[0]).toContain("payment.confirmed");
    for (const event of ["payment.confirmed", "refund.created", "payment.reorged"]) {
      expect((await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { event } })).status, event).toBe(200);
    }
  });

  test("GET /api/webhook-endpoints/ with page=0 is 400", async () => {
    expectValidation(await call(list, "GET", "/api/webhook-endpoints/", { token: merchant.access, query: { page: 0 } }), "page");
  });

  test("redelivering to a disabled endpoint is 409 CONFLICT until it is enabled again", async () => {
    const owner = await createMerchant();
    const endpoint = (await call(create, "POST", "/api/webhook-endpoints/", { token: owner.access, body: { url: "http://127.0.0.1:9/off" } })).body.data;
    const order = await orderFor(owner);
    const { deliveries } = await recordEventFor(database.db, owner, order);
    const id = String(deliveries[0]!.id);
    await call(update, "PUT", `/api/webhook-endpoints/${endpoint.id}/`, {
      token: owner.access,
      params: { id: String(endpoint.id) },
      body: { is_active: false },
    });
    const refused = await call(redeliver, "POST", `/api/webhook-deliveries/${id}/redeliver/`, { token: owner.access, params: { id } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("CONFLICT");
    await call(update, "PUT", `/api/webhook-endpoints/${endpoint.id}/`, {
      token: owner.access,
      params: { id: String(endpoint.id) },
      body: { is_active: true },
    });
    expect((await call(redeliver, "POST", `/api/webhook-deliveries/${id}/redeliver/`, { token: owner.access, params: { id } })).status).toBe(200);
  });
});
