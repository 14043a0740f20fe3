import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { POST as testSend } from "@/app/api/webhook-endpoints/[id]/test/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { pinnedLookup, sendWebhook } from "@/lib/webhooks/deliver";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { env } from "@/lib/env";
import { assertSafeWebhookUrl, currentUrlPolicy, nonPublicReason, resolver, UnsafeUrlError } from "@/lib/webhooks/url-safety";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { attemptRows, deliveryRow, inMode, liveAccess, orderFor, recordEventFor, settlePending, startReceiver, type Receiver } from "./support";

const database = setupTestDatabase();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await settlePending(database.db);
});

const live = { allowHttp: false, allowLoopback: false };
const sandbox = { allowHttp: true, allowLoopback: true };

describe("address classification", () => {
  const refused: Array<[string, RegExp]> = [
    ["127.0.0.1", /loopback/],
    ["127.255.0.9", /loopback/],
    ["10.1.2.3", /private/],
    ["172.16.0.1", /private/],
    ["172.31.255.255", /private/],
    ["192.168.1.1", /private/],
    ["100.64.0.1", /CGNAT/],
    ["169.254.10.10", /link-local/],
    ["169.254.169.254", /metadata/],
    ["0.0.0.0", /unspecified/],
    ["224.0.0.1", /multicast/],
    ["255.255.255.255", /reserved/],
    ["::1", /loopback/],
    ["::", /unspecified/],
    ["fe80::1", /link-local/],
    ["fe80::1%eth0", /link-local/],
    ["fc00::1", /unique-local/],
    ["fd12:3456::1", /unique-local/],
    ["fd00:ec2::254", /metadata/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /loopback/],
    ["::ffff:7f00:1", /loopback/],
    ["::ffff:10.0.0.1", /private/],
    ["::ffff:169.254.169.254", /metadata/],
    ["::127.0.0.1", /loopback/],
    ["64:ff9b::10.0.0.1", /private/],
    ["2002:7f00:0001::", /loopback/],
    ["2001:db8::1", /documentation/],
    ["2001::1", /special-purpose/],
  ];
  for (const [address, reason] of refused) {
    test(`${address} is not public`, () => expect(nonPublicReason(address)).toMatch(reason));
  }
  for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:0808:0808::1"]) {
    test(`${address} is public`, () => expect(nonPublicReason(address)).toBeNull());
  }
});

describe("save-time check", () => {
  const refusedInLive = [
    "http://hooks.example.com/x",
    "https://10.0.0.1/x",
    "https://127.0.0.1:8443/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:a9fe:a9fe]/x",
    "https://169.254.169.254/latest/meta-data",
    "https://[fd00:ec2::254]/x",
    "https://2130706433/x", // 127.0.0.1 as one number
    "https://0x7f.1/x",
    "https://localhost/x",
    "ftp://example.com/x",
    "https://user:pass@example.com/x",
    "not a url",
  ];
  for (const url of refusedInLive) {
    test(`live refuses ${url}`, async () => {
      await expect(assertSafeWebhookUrl(url, live)).rejects.toBeInstanceOf(UnsafeUrlError);
    });
  }

  test("live refuses DNS names resolving to private addresses, even one among public ones", async () => {
    const lookup = vi.spyOn(resolver, "lookupAll");
    lookup.mockResolvedValueOnce([{ address: "10.0.0.7", family: 4 }]);
    await expect(assertSafeWebhookUrl("https://internal.example.com/x", live)).rejects.toThrow(/internal\.example\.com resolves to 10\.0\.0\.7/);
    lookup.mockResolvedValueOnce([
      { address: "93.184.216.34", family: 4 },
      { address: "fd00::5", family: 6 },
    ]);
    await expect(assertSafeWebhookUrl("https://mixed.example.com/x", live)).rejects.toThrow(/unique-local/);
    lookup.mockResolvedValueOnce([{ address: "::ffff:192.168.0.1", family: 6 }]);
    await expect(assertSafeWebhookUrl("https://mapped.example.com/x", live)).rejects.toThrow(/private/);
    lookup.mockRejectedValueOnce(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }));
    await expect(assertSafeWebhookUrl("https://nowhere.example.com/x", live)).rejects.toThrow(/could not be resolved/);
    lookup.mockResolvedValueOnce([{ address: "93.184.216.34", family: 4 }]);
    await expect(assertSafeWebhookUrl("https://public.example.com/x", live)).resolves.toBe("https://public.example.com/x");
  });

  test("sandbox allows http and loopback receivers, and nothing else that is not public", async () => {
    for (const url of ["http://localhost:3999/hook", "http://127.0.0.1:9/x", "http://[::1]:4000/x", "https://127.0.0.2/x"]) {
      await expect(assertSafeWebhookUrl(url, sandbox)).resolves.toBeTypeOf("string");
    }
    for (const url of [
      "http://10.0.0.1/",
      "http://192.168.1.10/x",
      "http://100.64.0.1/x",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/x",
      "http://[fe80::1]/x",
      "http://[::ffff:10.0.0.1]/x",
      "http://0.0.0.0:3000/x",
    ]) {
      await expect(assertSafeWebhookUrl(url, sandbox), url).rejects.toBeInstanceOf(UnsafeUrlError);
    }
    vi.spyOn(resolver, "lookupAll").mockResolvedValueOnce([{ address: "10.1.2.3", family: 4 }]);
    await expect(assertSafeWebhookUrl("http://intranet.example.com/x", sandbox)).rejects.toThrow(/private/);
    await expect(assertSafeWebhookUrl("ftp://example.com/x", sandbox)).rejects.toBeInstanceOf(UnsafeUrlError);
  });

  test("sandbox refuses the gateway's own services on loopback; the app's own port only for the inbox", async () => {
    const policy = currentUrlPolicy(); // sandbox here
    expect(policy.allowLoopback).toBe(true);
    const app = new URL(env.APP_URL);
    for (const url of [
      "http://127.0.0.1:8545/",
      `http://127.0.0.1:${env.DEVNET_PORT}/`,
      "http://localhost:5432/",
      "http://127.0.0.1:8288/e/key",
      `http://127.0.0.1:${app.port || 80}/api/auth/login/`,
    ]) {
      await expect(assertSafeWebhookUrl(url, policy), url).rejects.toThrow(/gateway's own services/);
    }
    await expect(assertSafeWebhookUrl(`http://127.0.0.1:${app.port || 80}/api/sandbox/inbox/abc/`, policy)).resolves.toBeTypeOf("string");
  });
});

describe("sandbox webhook URLs over HTTP (hosted public sandbox)", () => {
  test("endpoints at private, link-local, metadata or devnet addresses are refused with 400", async () => {
    const merchant = await createMerchant();
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://172.17.0.1:2375/", "http://127.0.0.1:8545/"]) {
      const res = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { url: [expect.any(String)] } });
    }
    const orderRes = await orderFor(merchant, { webhook_url: receiver.url("/fine") });
    expect(orderRes.webhook_url).toBe(receiver.url("/fine"));
  });

  test("a test send to a loopback target echoes no error body and cannot tell a closed port from a silent one", async () => {
    const merchant = await createMerchant();
    const created = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/secret-service") } });
    expect(created.status).toBe(201);
    const id = String(created.body.data.id);
    const send = () =>
      call(testSend, "POST", `/api/webhook-endpoints/${id}/test/`, { token: merchant.access, params: { id }, body: { event: "payment.confirmed" } });
    receiver.reply(() => ({ status: 500, body: '{"jsonrpc":"2.0","error":"internal detail"}' }));
    const failed = await send();
    receiver.reply(() => ({ status: 200, body: "ok" }));
    expect(failed.body.data).toMatchObject({ succeeded: false, status_code: 500, response_body: null });

    // A closed loopback port: no ECONNREFUSED in the answer.
    const closed = await startReceiver();
    const closedUrl = closed.url("/x");
    await closed.close();
    const ep2 = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: closedUrl } });
    const id2 = String(ep2.body.data.id);
    const refused = await call(testSend, "POST", `/api/webhook-endpoints/${id2}/test/`, {
      token: merchant.access,
      params: { id: id2 },
      body: { event: "payment.confirmed" },
    });
    expect(refused.body.data).toMatchObject({ succeeded: false, status_code: null, response_body: null });
    expect(refused.body.data.error).not.toMatch(/ECONNREFUSED|refused/i);
    expect(refused.body.data.error).toMatch(/could not be reached/);
  });
});

describe("connect-time check", () => {
  test("a live delivery to a loopback receiver is refused before connecting, and fails at once", async () => {
    const merchant = await createMerchant();
    const order = await orderFor(merchant, { webhook_url: receiver.url("/ssrf") });
    const { deliveries } = await recordEventFor(database.db, merchant, order);
    const before = receiver.requests.length;
    await inMode("live", async () => deliverDueWebhooks(database.db));
    expect(receiver.requests.length).toBe(before);
    const row = await deliveryRow(database.db, deliveries[0]!.id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: null });
    expect(row.lastError).toMatch(/^Refused: .*https/);
    const [attempt] = await attemptRows(database.db, row.id);
    expect(attempt!.error).toMatch(/Refused/);
  });

  test("DNS rebinding: a name that was public when saved but resolves to a private address at delivery is refused", async () => {
    const merchant = await createMerchant();
    // The order (and its wallet, whose wallet.updated would go to the endpoint too) first.
    const order = await orderFor(merchant);
    const lookup = vi.spyOn(resolver, "lookupAll").mockResolvedValueOnce([{ address: "93.184.216.34", family: 4 }]);
    const created = await inMode("live", async () =>
      call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: await liveAccess(merchant), body: { url: "https://rebind.example.com/hook" } }),
    );
    expect(created.status).toBe(201);
    lookup.mockResolvedValueOnce([{ address: "127.0.0.1", family: 4 }]);
    const { deliveries } = await recordEventFor(database.db, merchant, order);
    await inMode("live", async () => deliverDueWebhooks(database.db));
    expect(lookup).toHaveBeenCalledTimes(2);
    const row = await deliveryRow(database.db, deliveries[0]!.id);
    expect(row.status).toBe("failed");
    expect(row.lastError).toMatch(/rebind\.example\.com resolves to 127\.0\.0\.1/);
  });

  test("a name that does not resolve at delivery time is retried, not failed", async () => {
    vi.spyOn(resolver, "lookupAll").mockRejectedValue(new Error("EAI_AGAIN"));
    const result = await sendWebhook({ url: "https://flaky-dns.example.com/x", body: "{}", messageId: "msg_x", secrets: ["whsec_AAAA"], policy: live });
    expect(result).toMatchObject({ statusCode: null, refused: false });
    expect(result.error).toMatch(/could not be resolved/);
  });

  test("test sends are guarded too", async () => {
    const merchant = await createMerchant();
    const created = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/test-ssrf") } });
    const before = receiver.requests.length;
    const res = await inMode("live", async () =>
      call(testSend, "POST", `/api/webhook-endpoints/${created.body.data.id}/test/`, {
        token: await liveAccess(merchant),
        params: { id: String(created.body.data.id) },
        body: { event: "payment.confirmed" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: false, status_code: null });
    expect(res.body.data.error).toMatch(/Refused/);
    expect(receiver.requests.length).toBe(before);
  });

  test("the connection goes to the checked address: the pinned lookup answers without DNS", () => {
    const lookup = pinnedLookup([{ address: "93.184.216.34", family: 4 }]);
    const one = vi.fn();
    lookup("evil.example.com", { family: 0 }, one);
    expect(one).toHaveBeenCalledWith(null, "93.184.216.34", 4);
    const all = vi.fn();
    lookup("evil.example.com", { all: true }, all);
    expect(all).toHaveBeenCalledWith(null, [{ address: "93.184.216.34", family: 4 }]);
  });
});
