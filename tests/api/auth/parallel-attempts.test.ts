/**
 * Issue 49 item 5: every "N attempts per window" rule of signing in holds when the attempts come all
 * at once. 100 requests in parallel (on PostgreSQL: over the pool's connections), and at most N of
 * them get their password or code checked; the others are refused with 429 before any check.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { POST as beginTotp } from "@/app/api/account/second-factor/totp/route";
import { POST as confirmTotp } from "@/app/api/account/second-factor/totp/confirm/route";
import { POST as createApiKey } from "@/app/api/api-keys/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as loginSecondFactor } from "@/app/api/auth/login/second-factor/route";
import { POST as loginPasskeyOptions } from "@/app/api/auth/login/second-factor/passkey-options/route";
import { POST as requestReset } from "@/app/api/auth/password-reset/route";
import { POST as resendVerification } from "@/app/api/auth/verify-email/resend/route";
import { POST as registerPasskey } from "@/app/api/account/second-factor/passkeys/route";
import { POST as registrationOptions } from "@/app/api/account/second-factor/passkeys/options/route";
import { maxLoginFailures } from "@/lib/auth/login-throttle";
import { maxCodeFailures } from "@/lib/auth/second-factor";
import { auditLog, loginFailures } from "@/lib/db/schema";
import { resetRequestsPerAddressPerHour, verificationResendsPerHour } from "@/lib/mail/account-emails";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { call, type CallResult } from "../../helpers/request";
import { SoftwarePasskey } from "./passkey-support";
import { codeFor, enrolTotp, useStepClock } from "./totp-support";

const testDb = setupTestDatabase();

afterEach(() => {
  vi.useRealTimers();
});

const parallel = 100;

let ipCounter = 0;
/** A client address no other test uses (each request its own when a per-address limit would get in the way). */
const freshIp = () => `10.49.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** The answers' statuses, counted: { 401: 5, 429: 95 }. */
function tally(answers: CallResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

const all = <T>(make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: parallel }, (_, i) => make(i)));

const auditCount = async (merchantId: number, action: string) =>
  (
    await testDb.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, merchantId), eq(auditLog.action, action)))
  ).length;

const tryLogin = (username: string, password: string, ip: string) => call(login, "POST", "/api/auth/login/", { body: { username, password }, ip });

/** `n` distinct 6-digit codes none of which is valid now (the previous, current or next step). */
function wrongCodes(secret: string, n: number): string[] {
  const valid = new Set([-30_000, 0, 30_000].map((offset) => codeFor(secret, new Date(Date.now() + offset))));
  const codes: string[] = [];
  for (let candidate = Number(codeFor(secret)) + 1; codes.length < n; candidate++) {
    const code = String(candidate % 1_000_000).padStart(6, "0");
    if (!valid.has(code)) codes.push(code);
  }
  return codes;
}

async function challengeFor(m: TestMerchant): Promise<string> {
  const res = await tryLogin(m.username, m.password, freshIp());
  expect(res.status).toBe(401);
  return res.body.second_factor.challenge;
}

describe("the password (10 failures in 15 minutes)", () => {
  test("100 wrong passwords at once from one address: 10 are checked, 90 are 429, and then the right one is 429 too", async () => {
    const m = await createMerchant();
    const ip = freshIp();
    const answers = await all((i) => tryLogin(m.username, `wrong-${i}`, ip));
    expect(tally(answers)).toEqual({ 401: maxLoginFailures, 429: parallel - maxLoginFailures });
    expect(await auditCount(m.id, "auth.login_failed")).toBe(maxLoginFailures);
    expect((await tryLogin(m.username, m.password, ip)).status).toBe(429);
  });

  test("100 wrong passwords at once from 100 new addresses: the username's backoff lets 10 through; the owner's known address still gets in", async () => {
    const m = await createMerchant();
    const home = freshIp();
    expect((await tryLogin(m.username, m.password, home)).status).toBe(200); // home is a known address now
    const answers = await all((i) => tryLogin(m.username, `guess-${i}`, freshIp()));
    expect(tally(answers)).toEqual({ 401: maxLoginFailures, 429: parallel - maxLoginFailures });
    expect(await auditCount(m.id, "auth.login_failed")).toBe(maxLoginFailures);
    expect((await tryLogin(m.username, m.password, freshIp())).status).toBe(429);
    expect((await tryLogin(m.username, m.password, home)).status).toBe(200);
  });

  test("right passwords at once are not counted as failures", async () => {
    const m = await createMerchant();
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 20 }, () => tryLogin(m.username, m.password, ip)));
    // While they are checked they hold places (at most 10 at a time); none is left behind as a failure.
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(
      await testDb.db
        .select()
        .from(loginFailures)
        .where(eq(loginFailures.subject, `ip:${ip}`)),
    ).toEqual([]);
    expect((await tryLogin(m.username, m.password, ip)).status).toBe(200);
  });

  test("a fresh proof (the password before enrolling TOTP): 100 wrong ones at once, 10 checked, then the right one is 429", async () => {
    const m = await createMerchant();
    const ip = freshIp();
    const begin = (password: string) => call(beginTotp, "POST", "/api/account/second-factor/totp/", { token: m.access, body: { reauth: { password } }, ip });
    const answers = await all((i) => begin(`wrong-${i}`));
    expect(tally(answers)).toEqual({ 400: maxLoginFailures, 429: parallel - maxLoginFailures });
    expect((await begin(m.password)).status).toBe(429);
  });
});

describe("second-factor codes (5 failures in 15 minutes)", () => {
  test("the login's second step: 100 wrong codes at once, 5 checked; the right code after them is 429", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const challenge = await challengeFor(m);
    const step = (code: string) => call(loginSecondFactor, "POST", "/api/auth/login/second-factor/", { body: { challenge, code }, ip: freshIp() });
    const wrong = wrongCodes(secret, parallel);
    const answers = await all((i) => step(i % 2 ? wrong[i]! : `wrong-recovery-${i}`));
    expect(tally(answers)).toEqual({ 401: maxCodeFailures, 429: parallel - maxCodeFailures });
    expect(await auditCount(m.id, "auth.second_factor_failed")).toBe(maxCodeFailures);
    const right = await step(codeFor(secret));
    expect(right.status).toBe(429);
    expect(right.body.retry_after).toBeGreaterThan(0);
  });

  test("a passkey in the login's second step: 100 forged assertions at once, 5 checked", async () => {
    const m = await createMerchant();
    const options = (await call(registrationOptions, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password } } })).body.data;
    const passkey = new SoftwarePasskey();
    expect((await call(registerPasskey, "POST", "/x/", { token: m.access, body: { name: "Laptop", response: passkey.register(options) } })).status).toBe(201);
    const challenge = await challengeFor(m);
    const loginOptions = (await call(loginPasskeyOptions, "POST", "/x/", { body: { challenge }, ip: freshIp() })).body.data;
    const forged = new SoftwarePasskey().assert(loginOptions);
    const answers = await all(() =>
      call(loginSecondFactor, "POST", "/x/", {
        body: { challenge, passkey: { ...forged, id: passkey.credentialId, rawId: passkey.credentialId } },
        ip: freshIp(),
      }),
    );
    expect(tally(answers)).toEqual({ 401: maxCodeFailures, 429: parallel - maxCodeFailures });
    expect(await auditCount(m.id, "auth.second_factor_failed")).toBe(maxCodeFailures);
  });

  test("a fresh code behind a session (creating an API key): 100 wrong ones at once, 5 checked", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const old = codeFor(secret, new Date(Date.now() - 10 * 60_000));
    const answers = await all(() =>
      call(createApiKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "k", preset: "read_only", reauth: { code: old } } }),
    );
    expect(tally(answers)).toEqual({ 400: maxCodeFailures, 429: parallel - maxCodeFailures });
    expect(await auditCount(m.id, "auth.second_factor_failed")).toBe(maxCodeFailures);
  });

  test("confirming a TOTP enrolment: 100 wrong codes at once, 5 checked", async () => {
    const m = await createMerchant();
    const begun = await call(beginTotp, "POST", "/x/", { token: m.access, body: { reauth: { password: m.password } } });
    expect(begun.status).toBe(201);
    const wrong = wrongCodes(begun.body.data.secret, parallel);
    const answers = await all((i) => call(confirmTotp, "POST", "/api/account/second-factor/totp/confirm/", { token: m.access, body: { code: wrong[i]! } }));
    expect(tally(answers)).toEqual({ 400: maxCodeFailures, 429: parallel - maxCodeFailures });
    expect((await call(confirmTotp, "POST", "/x/", { token: m.access, body: { code: codeFor(begun.body.data.secret) } })).status).toBe(429);
  });
});

describe("mail quotas", () => {
  test("100 reset requests for one address at once: 5 are taken", async () => {
    const m = await createMerchant();
    const answers = await all(() => call(requestReset, "POST", "/api/auth/password-reset/", { body: { email: m.email }, ip: freshIp() }));
    expect(tally(answers)).toEqual({ 200: resetRequestsPerAddressPerHour, 429: parallel - resetRequestsPerAddressPerHour });
  });

  test("100 verification resends at once: 5 are sent", async () => {
    const m = await createMerchant();
    const answers = await all(() => call(resendVerification, "POST", "/api/auth/verify-email/resend/", { token: m.access }));
    expect(tally(answers)).toEqual({ 200: verificationResendsPerHour, 429: parallel - verificationResendsPerHour });
  });
});
