import { afterEach, describe, expect, test, vi } from "vitest";
import { DELETE as revoke } from "@/app/api/api-keys/[id]/route";
import { GET as list, POST as create } from "@/app/api/api-keys/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { GET as account } from "@/app/api/account/route";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();
afterEach(() => vi.useRealTimers());

describe("API keys cannot manage API keys", () => {
  test("a full-access key gets 403 INSUFFICIENT_PERMISSIONS on create, list, revoke and account", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant, { preset: "full_access" });
    const attempts = [
      await call(create, "POST", "/api/api-keys/", { token: key, body: { name: "x", preset: "read_only" } }),
      await call(list, "GET", "/api/api-keys/", { token: key }),
      await call(revoke, "DELETE", `/api/api-keys/${id}/`, { token: key, params: { id: String(id) } }),
      await call(account, "GET", "/api/account/", { token: key }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        success: false,
        error: { code: "INSUFFICIENT_PERMISSIONS", message: expect.any(String) },
        timestamp: expect.any(String),
      });
    }
    // and the key was not revoked by its own attempt
    expect((await call(verify, "GET", "/api/auth/verify/", { token: key })).status).toBe(200);
  });
});

describe("rejected keys are 401 INVALID_TOKEN", () => {
  const expectInvalid = (res: { status: number; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("INVALID_TOKEN");
  };

  test("an unknown key", async () => {
    expectInvalid(await call(verify, "GET", "/api/auth/verify/", { token: "sk_test_" + "A".repeat(43) }));
  });

  test("a live key in a sandbox deployment", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant, { preset: "read_only" });
    expectInvalid(await call(verify, "GET", "/api/auth/verify/", { token: key.replace("sk_test_", "sk_live_") }));
  });

  test("an expired key (fake clock), which worked until its expiry", async () => {
    const merchant = await createMerchant();
    const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
    const { key } = await createApiKeyFor(merchant, { preset: "read_only", expires_at: expiresAt.toISOString() });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(expiresAt.getTime() - 1000));
    expect((await call(verify, "GET", "/api/auth/verify/", { token: key })).status).toBe(200);
    vi.setSystemTime(expiresAt);
    expectInvalid(await call(verify, "GET", "/api/auth/verify/", { token: key }));
  });

  test("a revoked key", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant, { preset: "read_only" });
    await call(revoke, "DELETE", `/api/api-keys/${id}/`, { token: merchant.access, params: { id: String(id) } });
    expectInvalid(await call(verify, "GET", "/api/auth/verify/", { token: key }));
  });
});

describe("the secret is shown exactly once", () => {
  test("only the creation response ever carries the key", async () => {
    const merchant = await createMerchant();
    const { key, id, body } = await createApiKeyFor(merchant, { preset: "read_only" });
    expect(JSON.stringify(body)).toContain(key);
    const later = [
      await call(list, "GET", "/api/api-keys/", { token: merchant.access }),
      await call(verify, "GET", "/api/auth/verify/", { token: key }),
      await call(account, "GET", "/api/account/", { token: merchant.access }),
      await call(revoke, "DELETE", `/api/api-keys/${id}/`, { token: merchant.access, params: { id: String(id) } }),
      await call(list, "GET", "/api/api-keys/", { token: merchant.access }),
    ];
    for (const res of later) expect(JSON.stringify(res.body)).not.toContain(key.slice(12));
  });
});
