import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { GET as getStatus } from "@/app/api/account/second-factor/route";
import { POST as beginTotp } from "@/app/api/account/second-factor/totp/route";
import { POST as confirmTotp } from "@/app/api/account/second-factor/totp/confirm/route";
import { POST as disableTotp } from "@/app/api/account/second-factor/totp/disable/route";
import { POST as createApiKey } from "@/app/api/api-keys/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as loginSecondFactor } from "@/app/api/auth/login/second-factor/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { POST as postWallet } from "@/app/api/merchant-wallets/route";
import { PUT as putWallet } from "@/app/api/merchant-wallets/[id]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { mailOutbox, recoveryCodes, secondFactors } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { startReceiver, type Receiver } from "../../webhooks/support";
import { codeFor, enrolTotp, useStepClock } from "./totp-support";

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

let ipCounter = 0;
const freshIp = () => `10.28.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

const passwordLogin = (m: Pick<TestMerchant, "username" | "password">) =>
  call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: freshIp() });
const secondStep = (challenge: string, code: string) =>
  call(loginSecondFactor, "POST", "/api/auth/login/second-factor/", { body: { challenge, code }, ip: freshIp() });

async function challengeFor(m: TestMerchant): Promise<string> {
  const res = await passwordLogin(m);
  expect(res.status).toBe(401);
  return res.body.second_factor.challenge;
}

describe("TOTP enrolment", () => {
  test("begins with the password, shows the secret once (stored encrypted), and a first code turns it on with ten recovery codes", async () => {
    const m = await createMerchant();
    const wrong = await call(beginTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: "not it" } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual({ "reauth.password": [expect.any(String)] });

    const begun = await call(beginTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password } } });
    expect(begun.status).toBe(201);
    const { secret, otpauth_uri } = begun.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(new RegExp(`^otpauth://totp/.*${m.username}.*secret=${secret}`));

    const [row] = await testDb.db.select().from(secondFactors).where(eq(secondFactors.merchantId, m.id));
    if (!row) throw new Error("no second_factors row");
    expect(row.kind).toBe("totp");
    expect(row.enabledAt).toBeNull();
    expect(row.secretCiphertext).not.toContain(secret);
    // Not yet enabled: login is unchanged.
    expect((await passwordLogin(m)).status).toBe(200);

    const badCode = await call(confirmTotp, "POST", "/x/", { token: m.access, body: { code: "000000" === codeFor(secret) ? "111111" : "000000" } });
    expect(badCode.status).toBe(400);
    expect(badCode.body.error.details).toEqual({ code: [expect.any(String)] });

    const confirmed = await call(confirmTotp, "POST", "/x/", { token: m.access, body: { code: codeFor(secret) } });
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await testDb.db.select().from(recoveryCodes).where(eq(recoveryCodes.merchantId, m.id));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));

    const status = await call(getStatus, "GET", "/x/", { token: m.access });
    expect(status.body.data).toEqual({ totp: { enabled: true, enabled_at: expect.any(String) }, recovery_codes_remaining: 10, passkeys: 0 });
    // The secret is never shown again: a new enrolment is refused while one is on.
    const again = await call(beginTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password } } });
    expect(again.status).toBe(409);
    expect(JSON.stringify(status.body) + JSON.stringify(again.body)).not.toContain(secret);
  });

  test("an API key cannot enrol (login-only routes)", async () => {
    const m = await createMerchant();
    const { createApiKeyFor } = await import("../../helpers/factories");
    const { key } = await createApiKeyFor(m);
    const res = await call(beginTotp, "POST", "/x/", { token: key, body: { reauth: { password: m.password } } });
    expect(res.status).toBe(403);
  });
});

describe("login with TOTP", () => {
  test("the password answers 401 SECOND_FACTOR_REQUIRED with a challenge; the challenge and a code give the token pair, once", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();

    const first = await passwordLogin(m);
    expect(first.status).toBe(401);
    expect(first.body).toEqual({
      success: false,
      error: { code: "SECOND_FACTOR_REQUIRED", message: expect.any(String) },
      second_factor: { challenge: expect.any(String), methods: ["totp", "recovery_code"], expires_at: expect.any(String) },
      timestamp: expect.any(String),
    });
    expect(first.body.access).toBeUndefined();
    const challenge = first.body.second_factor.challenge;
    // The challenge is not a credential.
    expect((await call(verify, "GET", "/x/", { token: challenge })).status).toBe(401);

    const wrong = await secondStep(challenge, codeFor(secret, new Date(Date.now() - 5 * 60_000)));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("INVALID_CREDENTIALS");

    const code = codeFor(secret);
    const done = await secondStep(challenge, code);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
      user: { id: m.id, username: m.username, email: m.email },
      account: { id: m.id, role: "owner" },
    });
    const verified = await call(verify, "GET", "/x/", { token: done.body.access });
    expect(verified.status).toBe(200);
    expect(verified.body.user.id).toBe(m.id);

    // The same code again, within its window, is refused (replay).
    const replay = await secondStep(await challengeFor(m), code);
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe("INVALID_CREDENTIALS");
    // The next step's code works.
    clock.nextStep();
    expect((await secondStep(await challengeFor(m), codeFor(secret))).status).toBe(200);
  });

  test("a forged, expired or foreign challenge is 401 INVALID_TOKEN", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const challenge = await challengeFor(m);
    const forged = `${challenge.slice(0, -4)}AAAA`;
    expect((await secondStep(forged, codeFor(secret))).body.error.code).toBe("INVALID_TOKEN");
    // An access token is not a challenge.
    expect((await secondStep(m.access, codeFor(secret))).body.error.code).toBe("INVALID_TOKEN");
    vi.setSystemTime(Date.now() + 6 * 60_000);
    const expired = await secondStep(challenge, codeFor(secret));
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe("INVALID_TOKEN");
  });

  test("a recovery code completes a login once, and is spent", async () => {
    const m = await createMerchant();
    const { recoveryCodes: enrolled } = await enrolTotp(m);
    const codes = enrolled as [string, string, string, string, string, ...string[]];
    const used = await secondStep(await challengeFor(m), codes[3].toUpperCase());
    expect(used.status).toBe(200);
    expect(used.body.user.id).toBe(m.id);
    const again = await secondStep(await challengeFor(m), codes[3]);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe("INVALID_CREDENTIALS");
    const status = await call(getStatus, "GET", "/x/", { token: used.body.access });
    expect(status.body.data.recovery_codes_remaining).toBe(9);
    // Another one still works.
    expect((await secondStep(await challengeFor(m), codes[4])).status).toBe(200);
  });

  test("five wrong codes lock the login step: even the right code is 429 until the window passes", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const challenge = await challengeFor(m);
    const wrongCode = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    for (let i = 0; i < 5; i++) expect((await secondStep(challenge, wrongCode)).status).toBe(401);
    const locked = await secondStep(challenge, codeFor(secret));
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("RATE_LIMITED");
    expect(locked.body.retry_after).toBeGreaterThan(0);
    // Someone with the password cannot stop the signed-in owner from proving a change.
    const key = await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k", preset: "read_only", reauth: { code: codeFor(secret) } } });
    expect(key.status).toBe(201);

    clock.nextStep();
    vi.setSystemTime(Date.now() + 15 * 60_000);
    expect((await secondStep(await challengeFor(m), codeFor(secret))).status).toBe(200);
  });

  test("five wrong codes behind a (stolen) session lock fresh proofs, not the owner's sign-in", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const wrongCode = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    const tryKey = (code: string) => call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k", preset: "read_only", reauth: { code } } });
    for (let i = 0; i < 5; i++) expect((await tryKey(wrongCode)).status).toBe(400);
    const locked = await tryKey(codeFor(secret));
    expect(locked.status).toBe(429);
    expect(locked.body.retry_after).toBeGreaterThan(0);
    expect((await secondStep(await challengeFor(m), codeFor(secret))).status).toBe(200);
  });
});

describe("sensitive changes ask for a fresh second factor once TOTP is on", () => {
  test("creating an API key: none needed without TOTP; with it, 400 on reauth.code until a fresh code is given", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    expect((await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "before", preset: "read_only" } })).status).toBe(201);
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const missing = await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k", preset: "read_only" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const wrong = await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k", preset: "read_only", reauth: { code: "12345" } } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const ok = await call(createApiKey, "POST", "/x/", { token: m.access, body: { name: "k", preset: "read_only", reauth: { code: codeFor(secret) } } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.key).toMatch(/^sk_/);
  });

  test("adding a webhook endpoint needs a fresh code", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const missing = await call(createEndpoint, "POST", "/x/", { token: m.access, body: { url: receiver.url() } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const ok = await call(createEndpoint, "POST", "/x/", { token: m.access, body: { url: receiver.url(), reauth: { code: codeFor(secret) } } });
    expect(ok.status).toBe(201);
  });

  test("changing a payout address needs the password and a fresh code", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const created = await call(postWallet, "POST", "/x/", { token: m.access, body: { blockchain: 1, wallet_address: randomAddress() } });
    expect(created.status).toBe(201);
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const put = (reauth: unknown) =>
      call(putWallet, "PUT", "/x/", { token: m.access, params: { id: String(created.body.data.id) }, body: { wallet_address: randomAddress(), reauth } });
    const passwordOnly = await put({ password: m.password });
    expect(passwordOnly.status).toBe(400);
    expect(passwordOnly.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    const wrongPassword = await put({ password: "nope", code: codeFor(secret) });
    expect(wrongPassword.body.error.details).toEqual({ "reauth.password": [expect.any(String)] });
    expect((await put({ password: m.password, code: codeFor(secret) })).status).toBe(200);
  });

  test("disabling needs the password and a fresh code; then login is one step again, and the owner is told by mail", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const noCode = await call(disableTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password } } });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details).toEqual({ "reauth.code": [expect.any(String)] });
    expect((await passwordLogin(m)).status).toBe(401);
    const off = await call(disableTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password, code: codeFor(secret) } } });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ totp: { enabled: false, enabled_at: null }, recovery_codes_remaining: 0, passkeys: 0 });
    const res = await passwordLogin(m);
    expect(res.status).toBe(200);
    expect(res.body.access).toEqual(expect.any(String));
    expect(await testDb.db.select().from(recoveryCodes).where(eq(recoveryCodes.merchantId, m.id))).toEqual([]);
    // The sandbox keeps every mail in the outbox (lib/mail/mailer.ts).
    const notices = await testDb.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.merchantId, m.id), eq(mailOutbox.kind, "two_factor_disabled")));
    expect(notices).toHaveLength(1);
  });
});
