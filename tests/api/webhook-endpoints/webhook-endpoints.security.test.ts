import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as listInbox } from "@/app/api/sandbox/inbox/route";
import { POST as redeliver } from "@/app/api/webhook-deliveries/[id]/redeliver/route";
import { GET as listDeliveries } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { POST as rotateSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { DELETE as remove, GET as getOne, PUT as update } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as testSend } from "@/app/api/webhook-endpoints/[id]/test/route";
import { GET as list, POST as create } from "@/app/api/webhook-endpoints/route";
import { resolver } from "@/lib/webhooks/url-safety";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { endpointRow, inMode, liveAccess, orderFor, recordEventFor } from "../../webhooks/support";

const database = setupTestDatabase();
afterEach(() => vi.restoreAllMocks());

let alice: TestMerchant;
let bob: TestMerchant;
let aliceEndpoint: { id: number; secret: string };
let aliceDeliveryId: number;
beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  aliceEndpoint = (
    await call(create, "POST", "/api/webhook-endpoints/", { token: alice.access, body: { url: "http://127.0.0.1:9/alice", description: "alice" } })
  ).body.data;
  const order = await orderFor(alice);
  aliceDeliveryId = (await recordEventFor(database.db, alice, order)).deliveries[0]!.id;
});

const manageRoutes = () => {
  const id = String(aliceEndpoint.id);
  return [
    { name: "GET /api/webhook-endpoints/", handler: list, method: "GET", params: {}, body: undefined },
    { name: "POST /api/webhook-endpoints/", handler: create, method: "POST", params: {}, body: { url: "http://127.0.0.1:9/x" } },
    { name: "GET …/{id}/", handler: getOne, method: "GET", params: { id }, body: undefined },
    { name: "PUT …/{id}/", handler: update, method: "PUT", params: { id }, body: { description: "taken over" } },
    { name: "DELETE …/{id}/", handler: remove, method: "DELETE", params: { id }, body: undefined },
    { name: "POST …/{id}/rotate-secret/", handler: rotateSecret, method: "POST", params: { id }, body: undefined },
    { name: "POST …/{id}/test/", handler: testSend, method: "POST", params: { id }, body: { event: "payment.confirmed" } },
    { name: "GET …/{id}/deliveries/", handler: listDeliveries, method: "GET", params: { id }, body: undefined },
    { name: "POST /api/webhook-deliveries/{id}/redeliver/", handler: redeliver, method: "POST", params: { id: String(aliceDeliveryId) }, body: undefined },
  ];
};

describe("credentials and permissions", () => {
  test("no credential or a bad one is 401 INVALID_TOKEN everywhere", async () => {
    for (const route of [
      ...manageRoutes(),
      { name: "events", handler: listEvents, method: "GET", params: {}, body: undefined },
      { name: "inbox", handler: listInbox, method: "GET", params: {}, body: undefined },
    ]) {
      for (const token of [undefined, "garbage", "sk_test_" + "A".repeat(43)]) {
        const res = await call(route.handler, route.method, "/api/x/", { token, params: route.params, body: route.body });
        expect(res.status, route.name).toBe(401);
        expect(res.body.error.code).toBe("INVALID_TOKEN");
      }
    }
  });

  test("keys without manage_webhooks get 403 on every endpoint, delivery and tool route; nothing changes", async () => {
    for (const preset of ["read_only", "create_payments"]) {
      const { key } = await createApiKeyFor(alice, { preset });
      for (const route of manageRoutes()) {
        const res = await call(route.handler, route.method, "/api/x/", { token: key, params: route.params, body: route.body });
        expect(res.status, `${preset} ${route.name}`).toBe(403);
        expect(res.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
      }
    }
    expect(await endpointRow(database.db, aliceEndpoint.id)).toMatchObject({ description: "alice", secret: aliceEndpoint.secret });
  });

  test("GET /api/events/ and GET /api/sandbox/inbox/ need only read", async () => {
    const { key } = await createApiKeyFor(alice, { preset: "read_only" });
    expect((await call(listEvents, "GET", "/api/events/", { token: key })).status).toBe(200);
    expect((await call(listInbox, "GET", "/api/sandbox/inbox/", { token: key })).status).toBe(200);
  });
});

describe("merchant isolation", () => {
  test("another merchant's endpoint and delivery are 404 on every route, and are left untouched", async () => {
    for (const route of manageRoutes().filter((r) => Object.keys(r.params).length > 0)) {
      const res = await call(route.handler, route.method, "/api/x/", { token: bob.access, params: route.params, body: route.body });
      expect(res.status, route.name).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    const row = await endpointRow(database.db, aliceEndpoint.id);
    expect(row).toMatchObject({ description: "alice", secret: aliceEndpoint.secret, isActive: true });
    expect(row.previousSecret).toBeNull();
  });

  test("lists show only the caller's own endpoints, events and inbox", async () => {
    const endpoints = await call(list, "GET", "/api/webhook-endpoints/", { token: bob.access });
    expect(endpoints.body.results.map((e: any) => e.id)).not.toContain(aliceEndpoint.id);
    const events = await call(listEvents, "GET", "/api/events/", { token: bob.access });
    expect(events.body.count).toBe(0);
    const aliceEvents = await call(listEvents, "GET", "/api/events/", { token: alice.access });
    expect(aliceEvents.body.count).toBe(1);
    const inbox = await call(listInbox, "GET", "/api/sandbox/inbox/", { token: bob.access });
    expect(inbox.body.count).toBe(0);
  });
});

describe("secrets", () => {
  test("an endpoint's secret appears only in the create and rotate responses", async () => {
    const id = String(aliceEndpoint.id);
    const responses = [
      await call(list, "GET", "/api/webhook-endpoints/", { token: alice.access }),
      await call(getOne, "GET", "/api/x/", { token: alice.access, params: { id } }),
      await call(update, "PUT", "/api/x/", { token: alice.access, params: { id }, body: { description: "alice" } }),
      await call(listDeliveries, "GET", "/api/x/", { token: alice.access, params: { id } }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(aliceEndpoint.secret);
    }
  });
});

describe("live mode refuses unsafe webhook URLs when they are saved", () => {
  const unsafe = [
    "http://hooks.example.com/x",
    "https://10.0.0.8/x",
    "https://192.168.1.20/x",
    "https://127.0.0.1/x",
    "https://localhost:8443/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[fe80::1]/x",
    "https://[fd00:ec2::254]/latest",
    "https://169.254.169.254/latest/meta-data",
    "https://100.100.100.200/x",
  ];
  test.each(unsafe)("POST with %s → 400 on url", async (url) => {
    const res = await inMode("live", async () => call(create, "POST", "/api/webhook-endpoints/", { token: await liveAccess(bob), body: { url } }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.url[0]).toMatch(/https|public/);
  });

  test("a DNS name that resolves to a private address is refused; a public one is accepted; PUT checks too", async () => {
    const lookup = vi.spyOn(resolver, "lookupAll");
    lookup.mockResolvedValueOnce([{ address: "10.20.30.40", family: 4 }]);
    const refused = await inMode("live", async () =>
      call(create, "POST", "/api/webhook-endpoints/", { token: await liveAccess(bob), body: { url: "https://intranet.example.com/hook" } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.url[0]).toMatch(/resolves to 10\.20\.30\.40/);

    lookup.mockResolvedValueOnce([{ address: "2606:4700::6810:84e5", family: 6 }]);
    const accepted = await inMode("live", async () =>
      call(create, "POST", "/api/webhook-endpoints/", { token: await liveAccess(bob), body: { url: "https://hooks.example.com/hook" } }),
    );
    expect(accepted.status).toBe(201);

    lookup.mockResolvedValueOnce([{ address: "::ffff:127.0.0.1", family: 6 }]);
    const put = await inMode("live", async () =>
      call(update, "PUT", "/api/x/", {
        token: await liveAccess(bob),
        params: { id: String(accepted.body.data.id) },
        body: { url: "https://sneaky.example.com/hook" },
      }),
    );
    expect(put.status).toBe(400);
    expect((await endpointRow(database.db, accepted.body.data.id)).url).toBe("https://hooks.example.com/hook");
  });

  test("the sandbox allows http and loopback receivers", async () => {
    for (const url of ["http://localhost:4000/hook", "http://127.0.0.1:4000/hook", "http://[::1]:4000/hook"]) {
      expect((await call(create, "POST", "/api/webhook-endpoints/", { token: bob.access, body: { url } })).status).toBe(201);
    }
  });
});
