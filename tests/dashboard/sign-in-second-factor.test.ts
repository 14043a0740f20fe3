import { redirect } from "next/navigation";
import { afterEach, describe, expect, test, vi } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { codeFor, enrolTotp, useStepClock } from "../api/auth/totp-support";
import { sessionModuleMock } from "./session";

/**
 * next-auth's signIn needs a live request: the stand-in does what next-auth does with the
 * credentials provider, calling the real `authorize` (lib/auth/dashboard-sign-in.ts) on the real
 * database and turning null into CredentialsSignin.
 */
const fake = vi.hoisted(() => ({ clientIp: "203.0.113.90" }));
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

const { signInAction } = await import("@/app/(auth)/sign-in/actions");

setupTestDatabase();

afterEach(() => {
  vi.useRealTimers();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const redirectTo = (path: string) => expect.objectContaining({ digest: expect.stringContaining(`NEXT_REDIRECT;replace;${path};`) });

describe("dashboard sign-in with TOTP", () => {
  test("the password alone asks for the code (the form then shows its field); password and code sign in; the code does not work twice", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const fields = { username: m.username, password: m.password, callbackUrl: "/dashboard/orders" };

    expect(await signInAction(form(fields))).toEqual({
      ok: false,
      error: { code: "SECOND_FACTOR_REQUIRED", message: expect.any(String), details: { code: [expect.any(String)] } },
    });
    expect(await signInAction(form({ ...fields, code: "12345" }))).toEqual({ ok: false, error: { code: "INVALID_CREDENTIALS", message: expect.any(String) } });
    const code = codeFor(secret);
    await expect(signInAction(form({ ...fields, code }))).rejects.toEqual(redirectTo("/dashboard/orders"));
    expect(await signInAction(form({ ...fields, code }))).toMatchObject({ ok: false, error: { code: "INVALID_CREDENTIALS" } });
  });

  test("an account without TOTP signs in with the password, as before", async () => {
    const m = await createMerchant();
    await expect(signInAction(form({ username: m.username, password: m.password, callbackUrl: "/dashboard" }))).rejects.toEqual(redirectTo("/dashboard"));
  });
});
