import { afterEach, describe, expect, test, vi } from "vitest";
import { POST as refreshRoute } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

const expClaim = (token: string): number => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")).exp;

afterEach(() => {
  vi.useRealTimers();
});

describe("GET /api/auth/verify/", () => {
  test("describes a valid access token: user, all four permissions, and its expiry", async () => {
    const m = await createMerchant();
    const res = await call(verify, "GET", "/api/auth/verify/", { token: m.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      user: { id: m.id, username: m.username, permissions: ["read", "create_payments", "manage_webhooks", "manage_wallets"] },
      account: { id: m.id, role: "owner" },
      expires_at: new Date(expClaim(m.access) * 1000).toISOString(),
    });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("expires_at is 24 hours after the login", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const loginAt = new Date("2030-07-15T09:30:00.000Z");
    vi.setSystemTime(loginAt);
    const m = await createMerchant();
    vi.setSystemTime(new Date(loginAt.getTime() + 3 * 60 * 60 * 1000));
    const res = await call(verify, "GET", "/api/auth/verify/", { token: m.access });
    expect(res.status).toBe(200);
    expect(res.body.expires_at).toBe("2030-07-16T09:30:00.000Z");
  });

  test("expires_at of a refreshed access token is 24 hours after the refresh", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const loginAt = new Date("2030-08-01T00:00:00.000Z");
    vi.setSystemTime(loginAt);
    const m = await createMerchant();
    vi.setSystemTime(new Date("2030-08-01T05:00:00.000Z"));
    const pair = await call(refreshRoute, "POST", "/api/auth/token/refresh/", { body: { refresh: m.refresh } });
    const res = await call(verify, "GET", "/api/auth/verify/", { token: pair.body.access });
    expect(res.body.expires_at).toBe("2030-08-02T05:00:00.000Z");
  });

  test("answers on the path without the trailing slash too", async () => {
    const m = await createMerchant();
    const res = await call(verify, "GET", "/api/auth/verify", { token: m.access });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
  });

  test("reports the rate-limit headers of the merchant's quota", async () => {
    const m = await createMerchant();
    const first = await call(verify, "GET", "/api/auth/verify/", { token: m.access });
    const second = await call(verify, "GET", "/api/auth/verify/", { token: m.access });
    expect(first.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(Number(first.headers.get("x-ratelimit-remaining"))).toBe(Number(second.headers.get("x-ratelimit-remaining")) + 1);
    expect(first.headers.get("x-ratelimit-reset")).toMatch(/^\d{10}$/);
  });

  test("an invalid token is 401 INVALID_TOKEN, not valid:false", async () => {
    const res = await call(verify, "GET", "/api/auth/verify/", { token: "nope" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: { code: "INVALID_TOKEN", message: expect.any(String) }, timestamp: expect.any(String) });
  });
});
