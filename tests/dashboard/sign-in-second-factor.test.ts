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

/** Issue 49 item 5: the limits hold when the sign-ins come all at once (on PostgreSQL, over the pool's connections). */
describe("100 dashboard sign-ins at once", () => {
  const errorCodes = (answers: unknown[]) => {
    const counts: Record<string, number> = {};
    for (const answer of answers) {
      const code = (answer as { error?: { code?: string } }).error?.code ?? "none";
      counts[code] = (counts[code] ?? 0) + 1;
    }
    return counts;
  };

  test("right password, wrong codes: 5 codes are checked, the rest are refused, and then the right code is refused too", async () => {
    const clock = useStepClock();
    const m = await createMerchant();
    const { secret } = await enrolTotp(m);
    clock.nextStep();
    const valid = new Set([-30_000, 0, 30_000].map((offset) => codeFor(secret, new Date(Date.now() + offset))));
    const wrong = Array.from({ length: 200 }, (_, i) => String((Number(codeFor(secret)) + 1 + i) % 1_000_000).padStart(6, "0")).filter(
      (code) => !valid.has(code),
    );
    const fields = { username: m.username, password: m.password, callbackUrl: "/dashboard" };
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => signInAction(form({ ...fields, code: wrong[i]! }))));
    expect(errorCodes(answers)).toEqual({ INVALID_CREDENTIALS: 5, RATE_LIMITED: 95 });
    expect(await signInAction(form({ ...fields, code: codeFor(secret) }))).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
  });

  test("wrong passwords: 10 are checked, the rest are refused, and then the right password is refused too", async () => {
    const m = await createMerchant();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signInAction(form({ username: m.username, password: `wrong-${i}`, callbackUrl: "/dashboard" }))),
    );
    expect(errorCodes(answers)).toEqual({ INVALID_CREDENTIALS: 10, RATE_LIMITED: 90 });
    expect(await signInAction(form({ username: m.username, password: m.password, callbackUrl: "/dashboard" }))).toMatchObject({
      ok: false,
      error: { code: "RATE_LIMITED" },
    });
  });
});
