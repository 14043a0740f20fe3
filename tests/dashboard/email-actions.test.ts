/** Issue 28 item 2, the dashboard's callers: forgot/reset password, verify, resend, and the outbox page's listing. */
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { listOutboxMessages } from "@/lib/mail/queries";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { linkToken, startSmtpSink } from "../helpers/smtp-sink";
import { signInAs } from "./session";

const fake = vi.hoisted(() => ({ clientIp: "203.0.113.80" }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-gateway-peer-address": fake.clientIp }) }));

const { requestPasswordResetAction } = await import("@/app/(auth)/forgot-password/actions");
const { confirmPasswordResetAction } = await import("@/app/(auth)/reset-password/actions");
const { verifyEmailAction } = await import("@/app/(auth)/verify-email/actions");
const { resendVerificationAction } = await import("@/app/(dashboard)/dashboard/outbox/actions");

const database = setupTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const smtpUrlBefore = env.SMTP_URL;
let ipCounter = 0;

beforeAll(async () => {
  smtp = await startSmtpSink();
});
beforeEach(() => {
  env.SMTP_URL = smtp.url;
  fake.clientIp = `198.18.2.${++ipCounter}`;
  signInAs(null);
});
afterAll(async () => {
  await settleBackgroundMail();
  env.SMTP_URL = smtpUrlBefore;
  await smtp.close();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("password reset from the sign-in pages", () => {
  test("forgot password answers alike for any address and mails the account; the reset form sets the password and ends every session", async () => {
    const m = await createMerchant();
    expect(await requestPasswordResetAction(form({ email: "nobody-at-all@example.com" }))).toEqual({ ok: true, data: { sent: true } });
    expect(await requestPasswordResetAction(form({ email: m.email }))).toEqual({ ok: true, data: { sent: true } });
    expect(await requestPasswordResetAction(form({ email: "not an address" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { email: [expect.any(String)] } },
    });
    const token = linkToken(await smtp.waitFor(m.email, /reset your password/), "/reset-password");

    expect(await confirmPasswordResetAction(form({ token: "made-up", password: "a brand new passphrase" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { token: [expect.any(String)] } },
    });
    expect(await confirmPasswordResetAction(form({ token, password: "a brand new passphrase" }))).toEqual({ ok: true, data: { changed: true } });
    expect((await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: m.refresh } })).status).toBe(401);
    expect((await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: "a brand new passphrase" } })).status).toBe(200);
    expect(await confirmPasswordResetAction(form({ token, password: "another new passphrase" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR" },
    });
  });

  test("the forms count against the same per-client-address limits as the API", async () => {
    for (let i = 0; i < 20; i++) expect((await requestPasswordResetAction(form({ email: `someone${i}@example.com` }))).ok).toBe(true);
    expect(await requestPasswordResetAction(form({ email: "someone@example.com" }))).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
  });
});

describe("verification from the dashboard", () => {
  test("resend mails a link; the verify page spends it; the outbox lists only the account's own mail", async () => {
    const m = await createMerchant();
    const other = await createMerchant();
    signInAs({ id: m.id, username: m.username });
    expect(await resendVerificationAction(form({}))).toEqual({ ok: true, data: { email: m.email } });
    const token = linkToken(await smtp.waitFor(m.email, /confirm your email address/, 2), "/verify-email");
    signInAs(null);
    expect(await verifyEmailAction(form({ token }))).toEqual({ ok: true, data: { email: m.email } });
    expect(await verifyEmailAction(form({ token }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
    signInAs({ id: m.id, username: m.username });
    expect(await resendVerificationAction(form({}))).toMatchObject({ ok: false, error: { code: "CONFLICT" } });

    const outbox = await listOutboxMessages(database.db, m.id, 20);
    expect(outbox.map((row) => row.kind)).toEqual(["verify_email", "verify_email"]);
    expect(outbox.every((row) => row.toAddress === m.email && row.smtpStatus === "sent")).toBe(true);
    expect((await listOutboxMessages(database.db, other.id, 20)).map((row) => row.toAddress)).toEqual([other.email]);
  });
});
