/** Issue 24 item 4: an answer that carries a secret is never stored in clear, and its replay has no secret. */
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { POST as rotateAccountSecret } from "@/app/api/account/rotate-webhook-secret/route";
import { DELETE as revokeKey } from "@/app/api/api-keys/[id]/route";
import { POST as createKey } from "@/app/api/api-keys/route";
import { POST as rotateEndpointSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { GET as listOrders } from "@/app/api/payment-orders/route";
import { idempotencyKeys } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();

async function storedBodies(merchant: TestMerchant): Promise<string> {
  const rows = await testDb.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, merchant.id));
  return JSON.stringify(rows);
}

describe("POST /api/api-keys/ with an Idempotency-Key", () => {
  test("the key is not stored; the replay says the key was made but carries no secret, also after revocation", async () => {
    const m = await createMerchant();
    const headers = { "Idempotency-Key": "key-create-1" };
    const first = await call(createKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "ci", preset: "read_only" }, headers });
    expect(first.status).toBe(201);
    const secret: string = first.body.data.key;
    expect(secret).toMatch(/^sk_test_/);
    expect(await storedBodies(m)).not.toContain(secret);

    const replay = await call(createKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "ci", preset: "read_only" }, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.headers.get("idempotent-redacted")).toBe("data.key");
    expect(replay.body.data).toMatchObject({ id: first.body.data.id, name: "ci", prefix: first.body.data.prefix, key: null });
    expect(JSON.stringify(replay.body)).not.toContain(secret);

    // The key itself works until revoked, and the replay after revocation still has no secret.
    expect((await call(listOrders, "GET", "/api/payment-orders/", { token: secret })).status).toBe(200);
    expect((await call(revokeKey, "DELETE", "/api/api-keys/x/", { token: m.access, params: { id: String(first.body.data.id) } })).status).toBe(200);
    const afterRevoke = await call(createKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "ci", preset: "read_only" }, headers });
    expect(JSON.stringify(afterRevoke.body)).not.toContain(secret);
  });
});

describe("webhook secrets", () => {
  test("endpoint creation, endpoint rotation and account rotation store and replay no secret", async () => {
    const m = await createMerchant();
    const created = await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
      token: m.access,
      body: { url: "http://127.0.0.1:9/hook" },
      headers: { "Idempotency-Key": "ep-1" },
    });
    expect(created.status).toBe(201);
    const endpointSecret: string = created.body.data.secret;
    expect(endpointSecret).toMatch(/^whsec_/);
    const id = String(created.body.data.id);
    const rotated = await call(rotateEndpointSecret, "POST", "/api/x/", { token: m.access, params: { id }, headers: { "Idempotency-Key": "ep-rot-1" } });
    expect(rotated.status).toBe(200);
    const accountRotated = await call(rotateAccountSecret, "POST", "/api/account/rotate-webhook-secret/", {
      token: m.access,
      headers: { "Idempotency-Key": "acct-rot-1" },
    });
    expect(accountRotated.status).toBe(200);

    const secrets = [endpointSecret, ...JSON.stringify([rotated.body, accountRotated.body]).match(/whsec_[A-Za-z0-9+/]{43}=/g)!];
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    const stored = await storedBodies(m);
    for (const secret of secrets) expect(stored).not.toContain(secret);

    const replays = [
      await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
        token: m.access,
        body: { url: "http://127.0.0.1:9/hook" },
        headers: { "Idempotency-Key": "ep-1" },
      }),
      await call(rotateEndpointSecret, "POST", "/api/x/", { token: m.access, params: { id }, headers: { "Idempotency-Key": "ep-rot-1" } }),
      await call(rotateAccountSecret, "POST", "/api/account/rotate-webhook-secret/", { token: m.access, headers: { "Idempotency-Key": "acct-rot-1" } }),
    ];
    for (const replay of replays) {
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.headers.get("idempotent-redacted")).toBeTruthy();
      for (const secret of secrets) expect(JSON.stringify(replay.body)).not.toContain(secret);
    }
    expect(replays[0]!.body.data).toMatchObject({ id: created.body.data.id, secret: null });
  });
});
