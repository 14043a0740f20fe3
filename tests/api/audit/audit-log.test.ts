import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { PUT as updateAccount } from "@/app/api/account/route";
import { POST as rotateAccountSecret } from "@/app/api/account/rotate-webhook-secret/route";
import { POST as disableTotp } from "@/app/api/account/second-factor/totp/disable/route";
import { POST as createApiKey } from "@/app/api/api-keys/route";
import { DELETE as revokeApiKey } from "@/app/api/api-keys/[id]/route";
import { GET as listAuditLog } from "@/app/api/audit-log/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as loginSecondFactor } from "@/app/api/auth/login/second-factor/route";
import { POST as postWallet } from "@/app/api/merchant-wallets/route";
import { PUT as putWallet } from "@/app/api/merchant-wallets/[id]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { DELETE as deleteEndpoint, PUT as putEndpoint } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as rotateEndpointSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { setMerchantPlan } from "@/lib/auth/set-plan";
import { auditLog } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { startReceiver, type Receiver } from "../../webhooks/support";
import { codeFor, enrolTotp, useStepClock } from "../auth/totp-support";

const testDb = setupTestDatabase();

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(() => {
  vi.useRealTimers();
});

async function auditOf(m: Pick<TestMerchant, "access">, query: Record<string, string> = {}) {
  const res = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { page_size: 100, ...query } });
  expect(res.status).toBe(200);
  return res.body as { count: number; next: string | null; previous: string | null; results: Array<Record<string, any>> };
}

const entriesOf = async (m: TestMerchant, action: string) => (await auditOf(m, { action })).results;

describe("audit log: an entry for each security-relevant change, through the real routes", () => {
  test("sign-in and failed sign-in, with who and from which address", async () => {
    const m = await createMerchant();
    const failed = await call(login, "POST", "/api/auth/login", {
      body: { username: m.username, password: "not the password" },
      ip: "198.18.0.9",
      headers: { "user-agent": "curl/8.5" },
    });
    expect(failed.status).toBe(401);
    const ok = await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "198.18.0.10" });
    expect(ok.status).toBe(200);

    const failures = await entriesOf(m, "auth.login_failed");
    expect(failures).toEqual([
      expect.objectContaining({ action: "auth.login_failed", actor: { kind: "access_token", name: m.username }, client_ip: "198.18.0.9" }),
    ]);
    const successes = await entriesOf(m, "auth.login_succeeded");
    // createMerchant logged in once too; newest first.
    expect(successes).toHaveLength(2);
    expect(successes[0]).toMatchObject({
      actor: { kind: "access_token", name: m.username },
      client_ip: "198.18.0.10",
      after: { method: "password", via: "api" },
    });
    expect(JSON.stringify(successes)).not.toContain(m.password);
  });

  test("API keys, wallets, webhook endpoints and secrets, account settings: old and new values, never a secret", async () => {
    const m = await createMerchant();
    const ip = "198.18.1.1";
    const key = await call(createApiKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "backend", preset: "read_only" }, ip });
    expect(key.status).toBe(201);
    expect((await call(revokeApiKey, "DELETE", "/x/", { token: m.access, params: { id: String(key.body.data.id) }, ip })).status).toBe(200);

    const wallet = await call(postWallet, "POST", "/api/merchant-wallets/", {
      token: m.access,
      body: { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 2 },
      ip,
    });
    expect(wallet.status).toBe(201);
    const newAddress = randomAddress();
    const changed = await call(putWallet, "PUT", "/x/", {
      token: m.access,
      params: { id: String(wallet.body.data.id) },
      body: { wallet_address: newAddress, reauth: { password: m.password } },
      ip,
    });
    expect(changed.status).toBe(200);

    const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: m.access, body: { url: receiver.url(), description: "shop" }, ip });
    expect(endpoint.status).toBe(201);
    const endpointId = String(endpoint.body.data.id);
    expect((await call(putEndpoint, "PUT", "/x/", { token: m.access, params: { id: endpointId }, body: { description: "shop backend" }, ip })).status).toBe(
      200,
    );
    const rotated = await call(rotateEndpointSecret, "POST", "/x/", { token: m.access, params: { id: endpointId }, ip });
    expect(rotated.status).toBe(200);
    expect((await call(deleteEndpoint, "DELETE", "/x/", { token: m.access, params: { id: endpointId }, ip })).status).toBe(200);
    const accountSecret = await call(rotateAccountSecret, "POST", "/x/", { token: m.access, ip });
    expect(accountSecret.status).toBe(200);
    expect((await call(updateAccount, "PUT", "/api/account/", { token: m.access, body: { payment_tolerance_bps: 50 }, ip })).status).toBe(200);

    const log = await auditOf(m);
    const byAction = (action: string) => log.results.filter((e) => e.action === action);
    const actor = { kind: "access_token", name: m.username };
    expect(byAction("api_key.created")).toEqual([
      expect.objectContaining({
        actor,
        client_ip: ip,
        target: `api_key:${key.body.data.id}`,
        after: expect.objectContaining({ name: "backend", prefix: key.body.data.prefix, permissions: ["read"] }),
      }),
    ]);
    expect(byAction("api_key.revoked")).toEqual([expect.objectContaining({ actor, target: `api_key:${key.body.data.id}` })]);
    expect(byAction("wallet.created")).toEqual([
      expect.objectContaining({ actor, client_ip: ip, after: expect.objectContaining({ wallet_address: wallet.body.data.wallet_address }) }),
    ]);
    expect(byAction("wallet.updated")).toEqual([
      expect.objectContaining({
        before: expect.objectContaining({ wallet_address: wallet.body.data.wallet_address }),
        after: expect.objectContaining({ wallet_address: newAddress }),
      }),
    ]);
    expect(byAction("webhook_endpoint.created")).toEqual([
      expect.objectContaining({ target: `webhook_endpoint:${endpointId}`, after: expect.objectContaining({ url: receiver.url() }) }),
    ]);
    expect(byAction("webhook_endpoint.updated")).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ description: "shop" }), after: expect.objectContaining({ description: "shop backend" }) }),
    ]);
    expect(byAction("webhook_endpoint.secret_rotated")).toHaveLength(1);
    expect(byAction("webhook_endpoint.deleted")).toHaveLength(1);
    expect(byAction("account.webhook_secret_rotated")).toHaveLength(1);
    expect(byAction("account.settings_updated")).toEqual([
      expect.objectContaining({ before: { payment_tolerance_bps: 0 }, after: { payment_tolerance_bps: 50 } }),
    ]);

    // No secret ever reaches the log: the API key, the endpoint's old and new secrets, the account's, the password.
    const everything = JSON.stringify(log.results);
    for (const secret of [
      key.body.data.key,
      endpoint.body.data.secret,
      rotated.body.data.secret,
      m.webhookSecret,
      accountSecret.body.data.webhook_secret,
      m.password,
    ]) {
      expect(secret).toEqual(expect.any(String));
      expect(everything).not.toContain(secret);
    }
  });

  test("two-factor: enabled, a failed code, a recovery code used at sign-in, disabled", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret, recoveryCodes } = await enrolTotp(m);
    const challengeOf = async () =>
      (await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "198.18.2.1" })).body.second_factor
        .challenge as string;
    const wrong = await call(loginSecondFactor, "POST", "/x/", { body: { challenge: await challengeOf(), code: "000000" }, ip: "198.18.2.2" });
    expect(wrong.status).toBe(401);
    const recovered = await call(loginSecondFactor, "POST", "/x/", { body: { challenge: await challengeOf(), code: recoveryCodes[0] }, ip: "198.18.2.3" });
    expect(recovered.status).toBe(200);
    clock.nextStep();
    expect((await call(disableTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password, code: codeFor(secret) } } })).status).toBe(200);

    expect(await entriesOf(m, "second_factor.enabled")).toEqual([
      expect.objectContaining({ actor: { kind: "access_token", name: m.username }, after: { kind: "totp", recovery_codes: 10 } }),
    ]);
    expect(await entriesOf(m, "auth.second_factor_failed")).toEqual([expect.objectContaining({ client_ip: "198.18.2.2", after: { step: "login" } })]);
    expect(await entriesOf(m, "second_factor.recovery_code_used")).toEqual([
      expect.objectContaining({ client_ip: "198.18.2.3", after: { step: "login", recovery_codes_remaining: 9 } }),
    ]);
    expect((await entriesOf(m, "auth.login_succeeded"))[0]).toMatchObject({ client_ip: "198.18.2.3", after: { method: "password+recovery_code" } });
    expect(await entriesOf(m, "second_factor.disabled")).toHaveLength(1);
    const everything = JSON.stringify((await auditOf(m)).results);
    expect(everything).not.toContain(recoveryCodes[0]);
    expect(everything).not.toContain(secret);
  });

  test("a plan change by the operator is recorded as the system's", async () => {
    const m = await createMerchant();
    await setMerchantPlan(testDb.db, m.username, "enterprise", 5000);
    expect(await entriesOf(m, "account.plan_changed")).toEqual([
      expect.objectContaining({
        actor: { kind: "system", name: null },
        before: { plan: "standard", rate_limit_per_hour: null },
        after: { plan: "enterprise", rate_limit_per_hour: 5000 },
      }),
    ]);
  });
});

describe("reading the audit log", () => {
  test("filters by action and date range, pages like every list, and shows only the caller's account", async () => {
    const m = await createMerchant();
    const other = await createMerchant();
    for (const name of ["a", "b", "c"])
      expect((await call(createApiKey, "POST", "/api/api-keys/", { token: m.access, body: { name, preset: "read_only" } })).status).toBe(201);

    const keys = await auditOf(m, { action: "api_key.created" });
    expect(keys.count).toBe(3);
    expect(keys.results.map((e) => e.after.name)).toEqual(["c", "b", "a"]);
    const firstPage = await auditOf(m, { action: "api_key.created", page_size: "2" });
    expect(firstPage.results).toHaveLength(2);
    expect(firstPage.next).toContain("action=api_key.created");

    const future = new Date(Date.now() + 60 * 60_000).toISOString();
    expect((await auditOf(m, { from: future })).count).toBe(0);
    expect((await auditOf(m, { to: future })).count).toBe(keys.count + 1); // and the sign-in
    expect((await auditOf(m, { from: new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 10) })).count).toBeGreaterThanOrEqual(4);

    const otherLog = await auditOf(other);
    expect(otherLog.results.every((e) => e.action === "auth.login_succeeded" && e.actor.name === other.username)).toBe(true);
  });

  test("bad filters are a 400 with the error envelope; an API key is refused", async () => {
    const m = await createMerchant();
    const badAction = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { action: "everything" } });
    expect(badAction.status).toBe(400);
    expect(badAction.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { action: [expect.any(String)] } });
    const badRange = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { from: "2030-01-02", to: "2030-01-01" } });
    expect(badRange.status).toBe(400);
    expect((await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { from: "yesterday" } })).status).toBe(400);

    const key = await call(createApiKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "full", preset: "full_access" } });
    const byKey = await call(listAuditLog, "GET", "/api/audit-log/", { token: key.body.data.key });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
  });

  test("entries cannot be changed or deleted, even with SQL", async () => {
    const m = await createMerchant();
    const [entry] = await testDb.db.select().from(auditLog).where(eq(auditLog.merchantId, m.id));
    if (!entry) throw new Error("no audit entry");
    await expect(testDb.db.update(auditLog).set({ action: "nothing" }).where(eq(auditLog.id, entry.id))).rejects.toThrow();
    await expect(testDb.db.delete(auditLog).where(eq(auditLog.id, entry.id))).rejects.toThrow();
    await expect(testDb.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    const [still] = await testDb.db.select().from(auditLog).where(eq(auditLog.id, entry.id));
    expect(still).toEqual(entry);
  });
});
