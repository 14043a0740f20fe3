import { redirect } from "next/navigation";
import { afterEach, describe, expect, test, vi } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, type TestMerchant } from "../helpers/factories";
import { SoftwarePasskey } from "../api/auth/passkey-support";
import { sessionModuleMock, signInAs } from "./session";

/** As in sign-in-second-factor.test.ts: signIn runs the real `authorize` on the real database. */
const fake = vi.hoisted(() => ({ clientIp: "203.0.113.91" }));
vi.mock("@/lib/auth/next-auth", async () => {
  const { authorizeCredentials } = await import("@/lib/auth/dashboard-sign-in");
  const { getDb } = await import("@/lib/db/client");
  const { CredentialsSignin } = await import("@auth/core/errors");
  const signIn = vi.fn(async (_provider: string, options: Record<string, string>) => {
    const user = await authorizeCredentials(await getDb(), options, fake.clientIp);
    if (!user) throw new CredentialsSignin();
    redirect(options.redirectTo ?? "/dashboard");
  });
  return { ...sessionModuleMock, signIn };
});
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-gateway-peer-address": fake.clientIp }) }));

const { signInAction, passkeySignInOptionsAction } = await import("@/app/(auth)/sign-in/actions");
const { passkeyRegistrationOptionsAction, registerPasskeyAction, passkeyProofOptionsAction, removePasskeyAction, startTotpAction } =
  await import("@/app/(dashboard)/dashboard/settings/actions");

setupTestDatabase();

afterEach(() => {
  signInAs(null);
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const redirectTo = (path: string) => expect.objectContaining({ digest: expect.stringContaining(`NEXT_REDIRECT;replace;${path};`) });

async function addPasskeyFromSettings(m: TestMerchant, passkey: SoftwarePasskey) {
  signInAs(m);
  const options = await passkeyRegistrationOptionsAction({ password: m.password });
  if (!options.ok) throw new Error(JSON.stringify(options));
  const added = await registerPasskeyAction({ name: "This laptop", response: passkey.register(options.data as { challenge: string; rp: { id?: string } }) });
  if (!added.ok) throw new Error(JSON.stringify(added));
  return added.data;
}

describe("passkeys in the dashboard", () => {
  test("settings add a passkey (recovery codes once); removing it asks the password and a passkey or code", async () => {
    const m = await createMerchant();
    signInAs(m);
    expect(await passkeyRegistrationOptionsAction({ password: "wrong" })).toMatchObject({ ok: false, error: { details: { password: [expect.any(String)] } } });
    const passkey = new SoftwarePasskey();
    const added = await addPasskeyFromSettings(m, passkey);
    expect(added.passkey.name).toBe("This laptop");
    expect(added.recovery_codes).toHaveLength(10);

    expect(await removePasskeyAction({ id: added.passkey.id, password: m.password })).toMatchObject({
      ok: false,
      error: { details: { code: [expect.any(String)] } },
    });
    const proof = await passkeyProofOptionsAction({});
    if (!proof.ok) throw new Error(JSON.stringify(proof));
    const removed = await removePasskeyAction({ id: added.passkey.id, password: m.password, passkey: passkey.assert(proof.data as { challenge: string }) });
    expect(removed).toEqual({ ok: true, data: { removed: true, two_factor_off: true } });
  });

  test('sign-in: the password, then "Use a passkey" (options, then the assertion instead of a code) signs in; a replay does not', async () => {
    const m = await createMerchant();
    const passkey = new SoftwarePasskey();
    await addPasskeyFromSettings(m, passkey);
    signInAs(null);
    const fields = { username: m.username, password: m.password, callbackUrl: "/dashboard/orders" };
    expect(await signInAction(form(fields))).toMatchObject({ ok: false, error: { code: "SECOND_FACTOR_REQUIRED" } });

    expect(await passkeySignInOptionsAction({ username: m.username, password: "wrong" })).toMatchObject({ ok: false, error: { code: "INVALID_CREDENTIALS" } });
    const options = await passkeySignInOptionsAction({ username: m.username, password: m.password });
    if (!options.ok) throw new Error(JSON.stringify(options));
    const assertion = JSON.stringify(passkey.assert(options.data as { challenge: string }));
    await expect(signInAction(form({ ...fields, passkey: assertion }))).rejects.toEqual(redirectTo("/dashboard/orders"));
    expect(await signInAction(form({ ...fields, passkey: assertion }))).toMatchObject({ ok: false, error: { code: "INVALID_CREDENTIALS" } });
    expect(await signInAction(form({ ...fields, passkey: "{not json" }))).toMatchObject({ ok: false, error: { code: "INVALID_CREDENTIALS" } });
  });

  test("with a passkey on, setting up TOTP asks the password and a recovery code", async () => {
    const m = await createMerchant();
    const added = await addPasskeyFromSettings(m, new SoftwarePasskey());
    expect(await startTotpAction(form({ password: m.password }))).toMatchObject({ ok: false, error: { details: { code: [expect.any(String)] } } });
    const started = await startTotpAction(form({ password: m.password, code: added.recovery_codes[0]! }));
    expect(started).toMatchObject({ ok: true, data: { secret: expect.any(String) } });
  });

  test('"Use a passkey" on an account without one is refused', async () => {
    const m = await createMerchant();
    expect(await passkeySignInOptionsAction({ username: m.username, password: m.password })).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
  });
});
