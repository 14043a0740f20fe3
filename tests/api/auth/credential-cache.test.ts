import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as listBlockchains } from "@/app/api/blockchains/route";
import { DELETE as revokeKey } from "@/app/api/api-keys/[id]/route";
import { credentialCacheTtlMs } from "@/lib/auth/credential-cache";
import { apiKeys, refreshTokens } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

/**
 * What the database said about a credential is reused for credentialCacheTtlMs (5 s). These tests
 * hold the promise the README and docs/design/auth-and-limits.md make: a change made by another instance (here:
 * straight in the database) takes effect within that bound; one made through this process at
 * once; expiry always at once.
 */
const testDb = setupTestDatabase();
afterEach(() => void vi.useRealTimers());

const blockchains = (token: string) => call(listBlockchains, "GET", "/api/blockchains/", { token });

function freezeClock(): { advance(ms: number): void } {
  vi.useFakeTimers({ toFake: ["Date"] });
  let now = Date.now();
  vi.setSystemTime(now);
  return {
    advance(ms) {
      now += ms;
      vi.setSystemTime(now);
    },
  };
}

describe("API keys", () => {
  test("a key revoked by another instance keeps working until the bound, then is refused", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant);
    const clock = freezeClock();
    expect((await blockchains(key)).status).toBe(200);
    await testDb.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id));
    clock.advance(credentialCacheTtlMs - 1);
    expect((await blockchains(key)).status).toBe(200);
    clock.advance(1);
    const refused = await blockchains(key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_TOKEN");
  });

  test("a key revoked through this process is refused at the very next request", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant);
    freezeClock();
    expect((await blockchains(key)).status).toBe(200);
    expect((await call(revokeKey, "DELETE", `/api/api-keys/${id}/`, { token: merchant.access, params: { id: String(id) } })).status).toBe(200);
    expect((await blockchains(key)).status).toBe(401);
  });

  test("expiry is exact: a key looked up a moment ago is refused once its expiry passes", async () => {
    const merchant = await createMerchant();
    const expiresAt = new Date(Date.now() + 60_000);
    const { key } = await createApiKeyFor(merchant, { preset: "read_only", expires_at: expiresAt.toISOString() });
    const clock = freezeClock();
    expect((await blockchains(key)).status).toBe(200);
    clock.advance(expiresAt.getTime() - Date.now() - 1);
    expect((await blockchains(key)).status).toBe(200);
    clock.advance(1);
    const expired = await blockchains(key);
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toContain("expired");
  });

  test("a rejected key is never kept: every attempt asks the database", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant);
    await testDb.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id));
    expect((await blockchains(key)).status).toBe(401);
    await testDb.db.update(apiKeys).set({ revokedAt: null }).where(eq(apiKeys.id, id));
    expect((await blockchains(key)).status).toBe(200);
  });
});

describe("login tokens", () => {
  test("a login family revoked by another instance: its access token works until the bound, then is refused", async () => {
    const merchant = await createMerchant();
    const clock = freezeClock();
    expect((await blockchains(merchant.access)).status).toBe(200);
    await testDb.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.merchantId, merchant.id));
    clock.advance(credentialCacheTtlMs - 1);
    expect((await blockchains(merchant.access)).status).toBe(200);
    clock.advance(1);
    expect((await blockchains(merchant.access)).status).toBe(401);
  });

  test("a refresh token reused here revokes the family at once, cached access tokens included", async () => {
    const merchant = await createMerchant();
    freezeClock();
    expect((await blockchains(merchant.access)).status).toBe(200);
    expect((await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: merchant.refresh } })).status).toBe(200);
    const reused = await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: merchant.refresh } });
    expect(reused.status).toBe(401);
    expect((await blockchains(merchant.access)).status).toBe(401);
  });
});
