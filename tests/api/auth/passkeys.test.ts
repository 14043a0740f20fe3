import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { GET as getStatus } from "@/app/api/account/second-factor/route";
import { GET as listPasskeys, POST as registerPasskey } from "@/app/api/account/second-factor/passkeys/route";
import { POST as registrationOptions } from "@/app/api/account/second-factor/passkeys/options/route";
import { POST as proofOptions } from "@/app/api/account/second-factor/passkeys/proof-options/route";
import { POST as beginTotp } from "@/app/api/account/second-factor/totp/route";
import { POST as confirmTotp } from "@/app/api/account/second-factor/totp/confirm/route";
import { POST as disableTotp } from "@/app/api/account/second-factor/totp/disable/route";
import { POST as removePasskey } from "@/app/api/account/second-factor/passkeys/[id]/remove/route";
import { POST as createApiKey } from "@/app/api/api-keys/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as loginSecondFactor } from "@/app/api/auth/login/second-factor/route";
import { POST as loginPasskeyOptions } from "@/app/api/auth/login/second-factor/passkey-options/route";
import { auditLog, mailOutbox, secondFactors } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { inOneRateWindow } from "../../helpers/rate-window";
import { call } from "../../helpers/request";
import { SoftwarePasskey } from "./passkey-support";
import { codeFor, enrolTotp, useStepClock } from "./totp-support";

const testDb = setupTestDatabase();

afterEach(() => {
  vi.useRealTimers();
});

let ipCounter = 0;
const freshIp = () => `10.29.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const passwordLogin = (m: Pick<TestMerchant, "username" | "password">) =>
  call(login, "POST", "/api/auth/login/", { body: { username: m.username, password: m.password }, ip: freshIp() });

async function challengeFor(m: TestMerchant): Promise<string> {
  const res = await passwordLogin(m);
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe("SECOND_FACTOR_REQUIRED");
  return res.body.second_factor.challenge;
}

async function registrationOptionsFor(m: TestMerchant, reauth: Record<string, unknown> = { password: m.password }) {
  const res = await call(registrationOptions, "POST", "/api/account/second-factor/passkeys/options/", { token: m.access, body: { reauth } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Registers `passkey` through the real routes; returns the stored id and the recovery codes (if any). */
async function registerWith(m: TestMerchant, passkey: SoftwarePasskey, name = "Laptop") {
  const options = await registrationOptionsFor(m);
  const res = await call(registerPasskey, "POST", "/api/account/second-factor/passkeys/", {
    token: m.access,
    body: { name, response: passkey.register(options) },
  });
  expect(res.status).toBe(201);
  return res.body.data as { passkey: { id: number; name: string }; recovery_codes: string[] };
}

async function loginOptions(challenge: string) {
  const res = await call(loginPasskeyOptions, "POST", "/api/auth/login/second-factor/passkey-options/", { body: { challenge }, ip: freshIp() });
  expect(res.status).toBe(200);
  return res.body.data;
}

const passkeyStep = (challenge: string, passkey: unknown) =>
  call(loginSecondFactor, "POST", "/api/auth/login/second-factor/", { body: { challenge, passkey }, ip: freshIp() });

const actionsOf = async (merchantId: number, action: string) =>
  testDb.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), eq(auditLog.action, action)));

describe("registering a passkey", () => {
  test("begins with the password; the browser's attestation makes it a second factor with ten recovery codes; listed; audited", async () => {
    const m = await createMerchant();
    const wrong = await call(registrationOptions, "POST", "/x/", { token: m.access, body: { reauth: { password: "not it" } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual({ "reauth.password": [expect.any(String)] });

    const options = await registrationOptionsFor(m);
    expect(options.rp).toEqual({ id: "localhost", name: expect.any(String) });
    expect(options.challenge).toEqual(expect.any(String));
    expect(options.user.name).toBe(m.username);

    const passkey = new SoftwarePasskey();
    const res = await call(registerPasskey, "POST", "/x/", { token: m.access, body: { name: "Laptop", response: passkey.register(options) } });
    expect(res.status).toBe(201);
    expect(res.body.data.passkey).toEqual({ id: expect.any(Number), name: "Laptop", created_at: expect.any(String), last_used_at: null });
    expect(res.body.data.recovery_codes).toHaveLength(10);

    const list = await call(listPasskeys, "GET", "/x/", { token: m.access });
    expect(list.body.data).toEqual([res.body.data.passkey]);
    const status = await call(getStatus, "GET", "/x/", { token: m.access });
    expect(status.body.data).toEqual({ totp: { enabled: false, enabled_at: null }, recovery_codes_remaining: 10, passkeys: 1 });
    expect(await actionsOf(m.id, "second_factor.passkey_added")).toHaveLength(1);

    // Login now asks for the second step, offering the passkey.
    const answer = await passwordLogin(m);
    expect(answer.status).toBe(401);
    expect(answer.body.second_factor.methods).toEqual(["passkey", "recovery_code"]);

    // A second passkey now needs a fresh second factor as well; it gets no new recovery codes.
    const passwordOnly = await call(registrationOptions, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password } } });
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const proof = (await call(proofOptions, "POST", "/x/", { token: m.access })).body.data;
    const second = new SoftwarePasskey();
    const options2 = await registrationOptionsFor(m, { password: m.password, passkey: passkey.assert(proof) });
    expect(options2.excludeCredentials).toEqual([expect.objectContaining({ id: passkey.credentialId })]);
    const added = await call(registerPasskey, "POST", "/x/", { token: m.access, body: { name: "Phone", response: second.register(options2) } });
    expect(added.status).toBe(201);
    expect(added.body.data.recovery_codes).toEqual([]);
  });

  test("an attestation from another origin, over a made-up challenge, or replayed is refused", async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    const refused = async (response: unknown) => {
      const res = await call(registerPasskey, "POST", "/x/", { token: m.access, body: { name: "x", response } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual({ response: [expect.any(String)] });
    };
    await refused(passkey.register(await registrationOptionsFor(m), { origin: "https://evil.example" }));
    await refused(passkey.register({ challenge: "bm90LWEtY2hhbGxlbmdlLWZyb20tdGhlLWdhdGV3YXk", rp: { id: "localhost" } }));
    await refused(passkey.register(await registrationOptionsFor(m), { rpId: "evil.example" }));
    // Another account's challenge does not do.
    const other = await createMerchant();
    await refused(passkey.register(await registrationOptionsFor(other)));

    const good = passkey.register(await registrationOptionsFor(m));
    expect((await call(registerPasskey, "POST", "/x/", { token: m.access, body: { name: "x", response: good } })).status).toBe(201);
    await refused(good);
    expect(await testDb.db.select().from(secondFactors).where(eq(secondFactors.merchantId, m.id))).toHaveLength(1);
  });
});

describe("signing in with a passkey", () => {
  test("the second step accepts an assertion over the passkey options; the same assertion again is refused", async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    await registerWith(m, passkey);
    const challenge = await challengeFor(m);
    const options = await loginOptions(challenge);
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: passkey.credentialId, type: "public-key" })]);
    const assertion = passkey.assert(options);
    const res = await passkeyStep(challenge, assertion);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
      user: expect.objectContaining({ id: m.id }),
      account: { id: m.id, role: "owner" },
    });
    const used = await actionsOf(m.id, "second_factor.passkey_used");
    expect(used).toHaveLength(1);
    expect(used[0]?.after).toEqual({ step: "login", name: "Laptop" });
    const list = await call(listPasskeys, "GET", "/x/", { token: m.access });
    expect(list.body.data[0].last_used_at).toEqual(expect.any(String));

    const replay = await passkeyStep(await challengeFor(m), assertion);
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe("INVALID_CREDENTIALS");
    expect(await actionsOf(m.id, "auth.second_factor_failed")).toHaveLength(1);
  });

  test("an account guarded by a passkey alone signs in with a recovery code, once", async () => {
    const m = await createMerchant();
    const { recovery_codes } = await registerWith(m, new SoftwarePasskey());
    const step = (code: string) => call(loginSecondFactor, "POST", "/x/", { body: { challenge, code }, ip: freshIp() });
    const challenge = await challengeFor(m);
    expect((await step(recovery_codes[0]!)).status).toBe(200);
    expect((await step(recovery_codes[0]!)).status).toBe(401);
  });

  test("a wrong origin, a made-up challenge, another step's challenge or an unknown key is refused", async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    await registerWith(m, passkey);
    const challenge = await challengeFor(m);
    const refused = async (assertion: unknown) => {
      const res = await passkeyStep(challenge, assertion);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("INVALID_CREDENTIALS");
    };
    await refused(passkey.assert(await loginOptions(challenge), { origin: "https://evil.example" }));
    await refused(passkey.assert({ challenge: "bm90LWEtY2hhbGxlbmdlLWZyb20tdGhlLWdhdGV3YXk" }));
    // A challenge made for a fresh proof is not one for signing in.
    await refused(passkey.assert((await call(proofOptions, "POST", "/x/", { token: m.access })).body.data));
    await refused(new SoftwarePasskey().assert(await loginOptions(challenge)));
    expect((await passkeyStep(challenge, passkey.assert(await loginOptions(challenge)))).status).toBe(200);
  });

  test("a counting authenticator must count up: an assertion whose counter did not advance is refused", async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey({ counter: 5 });
    await registerWith(m, passkey);
    const challenge = await challengeFor(m);
    expect((await passkeyStep(challenge, passkey.assert(await loginOptions(challenge)))).status).toBe(200);
    passkey.counter -= 1; // a cloned key replays the last counter
    const cloned = await passkeyStep(challenge, passkey.assert(await loginOptions(challenge)));
    expect(cloned.status).toBe(401);
    expect((await passkeyStep(challenge, passkey.assert(await loginOptions(challenge)))).status).toBe(200);
  });

  test("passkey failures count toward the second step's lock-out", async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    await registerWith(m, passkey);
    const challenge = await challengeFor(m);
    for (let i = 0; i < 5; i++) {
      expect((await passkeyStep(challenge, passkey.assert(await loginOptions(challenge), { origin: "https://evil.example" }))).status).toBe(401);
    }
    const locked = await passkeyStep(challenge, passkey.assert(await loginOptions(challenge)));
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("RATE_LIMITED");
  });

  test("passkey options need a valid login challenge of an account with a passkey", async () => {
    const m = await createMerchant();
    const forged = await call(loginPasskeyOptions, "POST", "/x/", { body: { challenge: "not.a.jwt" }, ip: freshIp() });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("INVALID_TOKEN");
    const clock = useStepClock();
    clock.nextStep();
    await enrolTotp(m);
    const noPasskey = await call(loginPasskeyOptions, "POST", "/x/", { body: { challenge: await challengeFor(m) }, ip: freshIp() });
    expect(noPasskey.status).toBe(409);
    const noInput = await call(loginSecondFactor, "POST", "/x/", { body: { challenge: await challengeFor(m) }, ip: freshIp() });
    expect(noInput.status).toBe(400);
  });

  test("the options endpoints are rate limited per client address", async () => {
    const ip = "10.30.0.1";
    const last = await inOneRateWindow(async () => {
      let status = 0;
      for (let i = 0; i < 101; i++) status = (await call(loginPasskeyOptions, "POST", "/x/", { body: { challenge: "x" }, ip })).status;
      return status;
    });
    expect(last).toBe(429);
  });
});

describe("a passkey as the fresh proof, and removing one", () => {
  test("creating an API key accepts reauth.passkey instead of a code, once per challenge", async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    await registerWith(m, passkey);
    const assertion = passkey.assert((await call(proofOptions, "POST", "/x/", { token: m.access })).body.data);
    const key = await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k", preset: "read_only", reauth: { passkey: assertion } } });
    expect(key.status).toBe(201);
    const replay = await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k2", preset: "read_only", reauth: { passkey: assertion } } });
    expect(replay.status).toBe(400);
    expect(replay.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const used = await actionsOf(m.id, "second_factor.passkey_used");
    expect(used.map((e) => e.after)).toEqual([{ step: "proof", name: "Laptop" }]);
  });

  test("removal asks the password and a fresh second factor; removing the last factor turns 2FA off and mails the owner", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    const { passkey: stored } = await registerWith(m, passkey);
    const remove = (reauth: unknown, id = stored.id) => call(removePasskey, "POST", "/x/", { token: m.access, params: { id: String(id) }, body: { reauth } });
    const passwordOnly = await remove({ password: m.password });
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const otherAccount = await createMerchant();
    const foreign = await call(removePasskey, "POST", "/x/", {
      token: otherAccount.access,
      params: { id: String(stored.id) },
      body: { reauth: { password: otherAccount.password } },
    });
    expect(foreign.status).toBe(404);

    // With TOTP on as well, removing the passkey leaves 2FA on.
    const enrolProof = (await call(proofOptions, "POST", "/x/", { token: m.access })).body.data;
    const begun = await call(beginTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password, passkey: passkey.assert(enrolProof) } } });
    expect(begun.status).toBe(201);
    const secret: string = begun.body.data.secret;
    expect((await call(confirmTotp, "POST", "/x/", { token: m.access, body: { code: codeFor(secret) } })).status).toBe(200);
    clock.nextStep();
    const proof = (await call(proofOptions, "POST", "/x/", { token: m.access })).body.data;
    const removed = await remove({ password: m.password, passkey: passkey.assert(proof) });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ removed: true, two_factor_off: false });
    expect(await actionsOf(m.id, "second_factor.passkey_removed")).toHaveLength(1);
    expect((await passwordLogin(m)).status).toBe(401);

    // A passkey alone: removing it turns 2FA off.
    const other = new SoftwarePasskey();
    const options = await registrationOptionsFor(m, { password: m.password, code: codeFor(secret) });
    const again = await call(registerPasskey, "POST", "/x/", { token: m.access, body: { name: "Key", response: other.register(options) } });
    expect(again.status).toBe(201);
    clock.nextStep();
    const disable = await call(disableTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password, code: codeFor(secret) } } });
    expect(disable.status).toBe(200);
    expect(disable.body.data).toEqual({ totp: { enabled: false, enabled_at: null }, recovery_codes_remaining: 10, passkeys: 1 });
    const lastProof = (await call(proofOptions, "POST", "/x/", { token: m.access })).body.data;
    const last = await remove({ password: m.password, passkey: other.assert(lastProof) }, again.body.data.passkey.id);
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual({ removed: true, two_factor_off: true });
    expect((await passwordLogin(m)).status).toBe(200);
    const notices = await testDb.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.merchantId, m.id), eq(mailOutbox.kind, "two_factor_disabled")));
    expect(notices.length).toBeGreaterThanOrEqual(1);
  });
});
