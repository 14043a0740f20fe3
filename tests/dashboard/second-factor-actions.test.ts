import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, randomAddress, type TestMerchant } from "../helpers/factories";
import { startReceiver, type Receiver } from "../webhooks/support";
import { codeFor, useStepClock } from "../api/auth/totp-support";
import { signInAs } from "./session";

const { startTotpAction, confirmTotpAction, disableTotpAction } = await import("@/app/(dashboard)/dashboard/settings/actions");
const { createApiKeyAction } = await import("@/app/(dashboard)/dashboard/api-keys/actions");
const { createEndpointAction } = await import("@/app/(dashboard)/dashboard/webhooks/actions");
const { addWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");
const { authorizeDashboardSignIn } = await import("@/lib/auth/dashboard-sign-in");

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
  signInAs(null);
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

/** The i-th recovery code (there are ten). */
function nth(codes: string[], i: number): string {
  const code = codes[i];
  if (!code) throw new Error(`no recovery code ${i}`);
  return code;
}

const fieldError = (field: string) => ({
  ok: false,
  error: { code: "VALIDATION_ERROR", message: expect.any(String), details: { [field]: [expect.any(String)] } },
});

/** Enrols through the settings actions, as the security section does; returns the secret and recovery codes. */
async function enrolFromDashboard(m: TestMerchant): Promise<{ secret: string; codes: string[] }> {
  signInAs(m);
  const started = await startTotpAction(form({ password: m.password }));
  if (!started.ok) throw new Error(JSON.stringify(started));
  const confirmed = await confirmTotpAction(form({ code: codeFor(started.data.secret) }));
  if (!confirmed.ok) throw new Error(JSON.stringify(confirmed));
  return { secret: started.data.secret, codes: confirmed.data.recovery_codes };
}

describe("security settings actions", () => {
  test("set-up asks the password, shows a QR code and the secret, and a first code gives ten recovery codes", async () => {
    const m = await createMerchant();
    signInAs(m);
    expect(await startTotpAction(form({ password: "wrong password" }))).toEqual(fieldError("password"));
    const started = await startTotpAction(form({ password: m.password }));
    expect(started).toMatchObject({
      ok: true,
      data: {
        secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
        otpauth_uri: expect.stringContaining("otpauth://totp/"),
        qr_svg: expect.stringContaining("<svg"),
      },
    });
    if (!started.ok) return;
    expect(await confirmTotpAction(form({ code: codeFor(started.data.secret, new Date(Date.now() - 10 * 60_000)) }))).toEqual(fieldError("code"));
    const confirmed = await confirmTotpAction(form({ code: codeFor(started.data.secret) }));
    expect(confirmed.ok && confirmed.data.recovery_codes).toHaveLength(10);
  });

  test("disabling asks the password and a fresh code", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolFromDashboard(m);
    clock.nextStep();
    expect(await disableTotpAction(form({ password: m.password }))).toEqual(fieldError("code"));
    expect(await disableTotpAction(form({ password: m.password, code: codeFor(secret) }))).toEqual({ ok: true, data: { disabled: true } });
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password }, "203.0.113.80")).toMatchObject({ kind: "signed_in" });
  });
});

describe("dashboard forms ask for a fresh code once TOTP is on", () => {
  test("creating an API key", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolFromDashboard(m);
    clock.nextStep();
    expect(await createApiKeyAction(form({ name: "k", preset: "read_only" }))).toEqual(fieldError("code"));
    expect(await createApiKeyAction(form({ name: "k", preset: "read_only", code: codeFor(secret) }))).toMatchObject({
      ok: true,
      data: { key: expect.stringMatching(/^sk_/) },
    });
  });

  test("adding a webhook endpoint", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolFromDashboard(m);
    clock.nextStep();
    expect(await createEndpointAction(form({ url: receiver.url() }))).toEqual(fieldError("code"));
    expect(await createEndpointAction(form({ url: receiver.url(), code: codeFor(secret) }))).toMatchObject({ ok: true });
  });

  test("adding a payout wallet: the password is not enough", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { codes } = await enrolFromDashboard(m);
    clock.nextStep();
    const wallet = { blockchain: "1", wallet_address: randomAddress(), confirmation_threshold: "3", is_active: "on" };
    expect(await addWalletAction(form({ ...wallet, password: m.password }))).toEqual(fieldError("code"));
    expect(await addWalletAction(form({ ...wallet, password: m.password, code: nth(codes, 0) }))).toMatchObject({ ok: true });
  });
});

describe("dashboard sign-in (next-auth credentials authorize)", () => {
  test("the password alone asks for the second step; a wrong code is refused; the right one signs in, once", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret, codes } = await enrolFromDashboard(m);
    signInAs(null);
    clock.nextStep();
    const ip = "203.0.113.81";
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password }, ip)).toEqual({ kind: "second_factor_required" });
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: "wrong", code: codeFor(secret) }, ip)).toEqual({ kind: "invalid" });
    expect(
      await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password, code: "000000" === codeFor(secret) ? "111111" : "000000" }, ip),
    ).toEqual({ kind: "invalid" });
    const code = codeFor(secret);
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password, code }, ip)).toEqual({
      kind: "signed_in",
      user: { id: String(m.id), name: m.username, familyId: expect.any(String) },
    });
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password, code }, ip)).toEqual({ kind: "invalid" });
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password, code: nth(codes, 9) }, ip)).toMatchObject({
      kind: "signed_in",
    });
    expect(await authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password, code: nth(codes, 9) }, ip)).toEqual({ kind: "invalid" });
  });
});
