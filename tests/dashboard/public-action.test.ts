import { AuthError, CredentialsSignin } from "@auth/core/errors";
import { redirect } from "next/navigation";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { POST as login } from "@/app/api/auth/login/route";
import { ApiError } from "@/lib/http/errors";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, uniqueName } from "../helpers/factories";
import { call } from "../helpers/request";
import { sessionModuleMock, signInAs } from "./session";

// next-auth's signIn and next/headers need a live request: the test stands in for both.
const fake = vi.hoisted(() => ({ clientIp: "203.0.113.50", signIn: null as unknown as ReturnType<typeof import("vitest").vi.fn> }));
vi.mock("@/lib/auth/next-auth", () => {
  fake.signIn = vi.fn(async (_provider: string, options: { redirectTo: string }) => redirect(options.redirectTo));
  return { ...sessionModuleMock, signIn: fake.signIn };
});
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-gateway-peer-address": fake.clientIp }) }));

const { authedAction, publicAction } = await import("@/lib/auth/authed-action");
const { signUpAction } = await import("@/app/(auth)/sign-up/actions");
const { signInAction } = await import("@/app/(auth)/sign-in/actions");

setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

/** What Next's redirect() throws: it must pass through the wrapper to Next. */
const redirectTo = (path: string) => expect.objectContaining({ digest: expect.stringContaining(`NEXT_REDIRECT;replace;${path};`) });

let ipCounter = 0;
beforeEach(() => {
  fake.clientIp = `198.51.100.${++ipCounter}`;
  fake.signIn.mockClear();
  signInAs(null);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("publicAction", () => {
  test("no session needed; bad input is VALIDATION_ERROR with the spec's per-field messages, before the handler", async () => {
    const handler = vi.fn(async (input: { name: string }) => input.name.toUpperCase());
    const action = publicAction(z.object({ name: z.string().min(3, "Too short.") }), handler);
    expect(await action(form({ name: "ab" }))).toEqual({
      ok: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: { name: ["Too short."] } },
    });
    expect(await action(form({}))).toEqual({
      ok: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: { name: ["This field is required."] } },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(await action(form({ name: "abc" }))).toEqual({ ok: true, data: "ABC" });
  });

  test("an ApiError keeps its code; anything else is a fixed INTERNAL_ERROR; a redirect passes through", async () => {
    const expected = publicAction(z.object({}), async () => {
      throw new ApiError("CONFLICT", "Already running.");
    });
    expect(await expected({})).toEqual({ ok: false, error: { code: "CONFLICT", message: "Already running." } });
    const unexpected = publicAction(z.object({}), async () => {
      throw new Error("connection string postgres://secret@db leaked");
    });
    const result = await unexpected({});
    expect(result).toEqual({ ok: false, error: { code: "INTERNAL_ERROR", message: "An unexpected error occurred." } });
    expect(JSON.stringify(result)).not.toContain("secret");
    const redirecting = publicAction(z.object({}), async () => redirect("/dashboard"));
    await expect(redirecting({})).rejects.toEqual(redirectTo("/dashboard"));
  });

  test("clientLimit counts per client address before validation and answers RATE_LIMITED past it", async () => {
    const action = publicAction(z.object({ name: z.string() }), async () => "ran", { clientLimit: { name: `test-${uniqueName()}`, perHour: 2 } });
    expect((await action(form({}))).ok).toBe(false); // invalid, but counted
    expect(await action(form({ name: "x" }))).toEqual({ ok: true, data: "ran" });
    expect(await action(form({ name: "x" }))).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    fake.clientIp = "198.51.100.250"; // another address has its own count
    expect(await action(form({ name: "x" }))).toEqual({ ok: true, data: "ran" });
  });
});

describe("sandboxOnly actions", () => {
  test("in live mode the action is NOT_FOUND before the session, the input or the handler is looked at", async () => {
    vi.stubEnv("GATEWAY_MODE", "live");
    vi.resetModules();
    const live = await import("@/lib/auth/authed-action");
    const handler = vi.fn(async () => "ran");
    signInAs({ id: 1, username: "someone" });
    for (const action of [live.authedAction(z.object({}), handler, { sandboxOnly: true }), live.publicAction(z.object({}), handler, { sandboxOnly: true })]) {
      expect(await action({})).toEqual({ ok: false, error: { code: "NOT_FOUND", message: "Endpoint not found." } });
    }
    expect(handler).not.toHaveBeenCalled();
    // Without the option the same action runs in live mode.
    expect(await live.publicAction(z.object({}), handler)({})).toEqual({ ok: true, data: "ran" });
  });

  test("the dashboard's sandbox tools are sandboxOnly", async () => {
    vi.stubEnv("GATEWAY_MODE", "live");
    vi.resetModules();
    const tools = await import("@/app/(dashboard)/dashboard/sandbox/actions");
    const merchant = await createMerchant();
    signInAs(merchant);
    for (const action of [tools.createTestOrderAction, tools.payOrderAction, tools.mineAction, tools.faucetAction]) {
      expect(await action(form({}))).toEqual({ ok: false, error: { code: "NOT_FOUND", message: "Endpoint not found." } });
    }
  });

  test("sandbox mode: the same wrapper lets the action run", async () => {
    signInAs({ id: 1, username: "someone" });
    expect(await authedAction(z.object({}), async () => "ran", { sandboxOnly: true })({})).toEqual({ ok: true, data: "ran" });
  });
});

describe("sign-up and sign-in forms go through publicAction", () => {
  test("sign-up registers (the account logs in on the API) and signs in with the stored, trimmed username", async () => {
    const username = uniqueName("signup");
    const password = "a-long-enough-passphrase";
    await expect(signUpAction(form({ username: ` ${username} `, email: `${username}@example.com`, password, shop_name: "Form Shop" }))).rejects.toEqual(
      redirectTo("/dashboard"),
    );
    expect(fake.signIn).toHaveBeenCalledWith("credentials", { username, password, redirectTo: "/dashboard" });
    expect((await call(login, "POST", "/api/auth/login", { body: { username, password } })).status).toBe(200);

    // A taken username is VALIDATION_ERROR on its field; a missing field says so.
    const again = await signUpAction(form({ username, email: `other-${username}@example.com`, password, shop_name: "Form Shop" }));
    expect(again).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { username: [expect.any(String)] } } });
    expect(await signUpAction(form({ username: uniqueName("signup"), password }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { email: ["This field is required."], shop_name: ["This field is required."] } },
    });
  });

  test("sign-up shares POST /api/auth/register's limit of 100 an hour per client address", async () => {
    for (let i = 0; i < 100; i++) expect((await signUpAction(form({}))).ok).toBe(false);
    expect(await signUpAction(form({}))).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
  });

  test("sign-in: missing fields are VALIDATION_ERROR; bad credentials and throttling keep their codes; success redirects to a same-site path only", async () => {
    expect(await signInAction(form({ username: "someone" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { password: ["This field is required."] } },
    });
    expect(fake.signIn).not.toHaveBeenCalled();

    fake.signIn.mockRejectedValueOnce(new AuthError("CredentialsSignin"));
    expect(await signInAction(form({ username: "someone", password: "wrong" }))).toEqual({
      ok: false,
      error: { code: "INVALID_CREDENTIALS", message: "Invalid username or password." },
    });
    const throttled = new CredentialsSignin();
    throttled.code = "rate_limited";
    fake.signIn.mockRejectedValueOnce(throttled);
    expect(await signInAction(form({ username: "someone", password: "wrong" }))).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });

    await expect(signInAction(form({ username: "someone", password: "right", callbackUrl: "/dashboard/orders" }))).rejects.toEqual(
      redirectTo("/dashboard/orders"),
    );
    await expect(signInAction(form({ username: "someone", password: "right", callbackUrl: "//evil.example/" }))).rejects.toEqual(redirectTo("/dashboard"));
  });
});
