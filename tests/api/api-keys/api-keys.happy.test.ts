import { afterEach, describe, expect, test, vi } from "vitest";
import { DELETE as revoke } from "@/app/api/api-keys/[id]/route";
import { GET as list, POST as create } from "@/app/api/api-keys/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();
afterEach(() => vi.useRealTimers());

describe("POST /api/api-keys/", () => {
  test.each([
    ["read_only", ["read"]],
    ["create_payments", ["read", "create_payments"]],
    ["manage_webhooks", ["read", "manage_webhooks"]],
    ["full_access", ["read", "create_payments", "manage_webhooks", "manage_wallets"]],
  ])("creates a %s key with the preset's permissions", async (preset, permissions) => {
    const merchant = await createMerchant();
    const res = await call(create, "POST", "/api/api-keys/", { token: merchant.access, body: { name: "backend", preset } });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.any(Number),
      name: "backend",
      key: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/),
      prefix: data.key.slice(0, 12),
      permissions,
      expires_at: null,
      last_used_at: null,
      created_at: expect.any(String),
      created_by: merchant.id,
      revoked: false,
      revoked_at: null,
    });
  });

  test("accepts explicit permissions and an expiry, and reports both through verify", async () => {
    const merchant = await createMerchant();
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const { key } = await createApiKeyFor(merchant, { permissions: ["manage_wallets", "read"], expires_at: expiresAt });
    const res = await call(verify, "GET", "/api/auth/verify/", { token: key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      user: { id: merchant.id, username: merchant.username, permissions: ["read", "manage_wallets"] },
      account: { id: merchant.id, role: null },
      expires_at: expiresAt,
    });
  });

  test("a key without expiry verifies with expires_at null", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant, { preset: "read_only" });
    const res = await call(verify, "GET", "/api/auth/verify/", { token: key });
    expect(res.body.expires_at).toBeNull();
    expect(res.body.user.permissions).toEqual(["read"]);
  });
});

describe("GET /api/api-keys/", () => {
  test("lists the merchant's keys newest first in the page shape, without secrets", async () => {
    const merchant = await createMerchant();
    const first = await createApiKeyFor(merchant, { name: "one", preset: "read_only" });
    const second = await createApiKeyFor(merchant, { name: "two", preset: "full_access" });
    const res = await call(list, "GET", "/api/api-keys/", { token: merchant.access });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(res.body.results.map((k: any) => k.name)).toEqual(["two", "one"]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(first.key);
    expect(text).not.toContain(second.key);
    expect(res.body.results[0]).not.toHaveProperty("key");
  });

  test("paginates", async () => {
    const merchant = await createMerchant();
    for (let i = 0; i < 3; i++) await createApiKeyFor(merchant, { name: `k${i}`, preset: "read_only" });
    const res = await call(list, "GET", "/api/api-keys/", { token: merchant.access, query: { page: 2, page_size: 2 } });
    expect(res.body.count).toBe(3);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBe("/api/api-keys/?page=1&page_size=2");
  });
});

describe("DELETE /api/api-keys/{id}/", () => {
  test("revokes: the key stops working at once and shows as revoked", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant, { preset: "read_only" });
    expect((await call(verify, "GET", "/api/auth/verify/", { token: key })).status).toBe(200);
    const res = await call(revoke, "DELETE", `/api/api-keys/${id}/`, { token: merchant.access, params: { id: String(id) } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, revoked: true, revoked_at: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain(key);
    const after = await call(verify, "GET", "/api/auth/verify/", { token: key });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("INVALID_TOKEN");
  });
});

describe("last_used_at", () => {
  test("is recorded on use and refreshed at most once a minute", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant, { preset: "read_only" });
    const lastUsed = async () => {
      const res = await call(list, "GET", "/api/api-keys/", { token: merchant.access });
      return res.body.results[0].last_used_at as string | null;
    };
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = new Date(Date.now() + 60 * 60 * 1000);
    vi.setSystemTime(t0);
    await call(verify, "GET", "/api/auth/verify/", { token: key });
    expect(await lastUsed()).toBe(t0.toISOString());
    vi.setSystemTime(new Date(t0.getTime() + 30_000));
    await call(verify, "GET", "/api/auth/verify/", { token: key });
    expect(await lastUsed()).toBe(t0.toISOString());
    const t2 = new Date(t0.getTime() + 61_000);
    vi.setSystemTime(t2);
    await call(verify, "GET", "/api/auth/verify/", { token: key });
    expect(await lastUsed()).toBe(t2.toISOString());
  });
});
