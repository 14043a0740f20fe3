/** Issue 28 item 2: verification, password reset and security notices, sent through a real SMTP server. */
import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as verifyCredential } from "@/app/api/auth/verify/route";
import { POST as requestReset } from "@/app/api/auth/password-reset/route";
import { POST as confirmReset } from "@/app/api/auth/password-reset/confirm/route";
import { POST as verifyEmail } from "@/app/api/auth/verify-email/route";
import { POST as resendVerification } from "@/app/api/auth/verify-email/resend/route";
import { GET as getAccount } from "@/app/api/account/route";
import { GET as listAuditLog } from "@/app/api/audit-log/route";
import { POST as postWallet } from "@/app/api/merchant-wallets/route";
import { PUT as putWallet } from "@/app/api/merchant-wallets/[id]/route";
import { emailTokens, mailOutbox } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, randomAddress, uniqueName } from "../../helpers/factories";
import { expectMatchesSchema } from "../../helpers/openapi";
import { call } from "../../helpers/request";
import { linkToken, startSmtpSink } from "../../helpers/smtp-sink";
import { signInAs } from "../../dashboard/session";

const { updateWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");

const database = setupTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const smtpUrlBefore = env.SMTP_URL;

beforeAll(async () => {
  smtp = await startSmtpSink();
});
beforeEach(() => {
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await settleBackgroundMail();
  env.SMTP_URL = smtpUrlBefore;
  await smtp.close();
});

function newAccount() {
  const username = uniqueName("mail");
  return { username, email: `${username}@example.com`, password: "s3cure-enough", shop_name: `Shop ${username}` };
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("email verification", () => {
  test("registering mails a link; opening it verifies the address, the account shows it, and the link works once", async () => {
    const input = newAccount();
    expect((await call(register, "POST", "/api/auth/register", { body: input, ip: "192.0.2.31" })).status).toBe(201);
    const mail = await smtp.waitFor(input.email, /confirm your email address/);
    expect(mail.subject).toContain(input.shop_name);
    expect(mail.from).toBe("no-reply@localhost");
    const token = linkToken(mail, "/verify-email");

    const loggedIn = await call(login, "POST", "/api/auth/login", { body: { username: input.username, password: input.password } });
    expect((await call(getAccount, "GET", "/api/account/", { token: loggedIn.body.access })).body.data.email_verified_at).toBeNull();

    const verified = await call(verifyEmail, "POST", "/api/auth/verify-email", { body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ email: input.email, email_verified_at: expect.any(String) });
    expectMatchesSchema("POST /api/auth/verify-email", 200, verified.body);
    expect((await call(getAccount, "GET", "/api/account/", { token: loggedIn.body.access })).body.data.email_verified_at).toBe(verified.body.email_verified_at);

    const again = await call(verifyEmail, "POST", "/api/auth/verify-email", { body: { token } });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", details: { token: [expect.stringContaining("invalid")] } } });
    expectMatchesSchema("POST /api/auth/verify-email", 400, again.body);
    // A verified address is not sent another link.
    const resend = await call(resendVerification, "POST", "/api/auth/verify-email/resend", { token: loggedIn.body.access });
    expect(resend.status).toBe(409);
    expect(resend.body.error.code).toBe("CONFLICT");
    expectMatchesSchema("POST /api/auth/verify-email/resend", 409, resend.body);
  });

  test("only the token's hash is stored; a made-up or expired token is refused with 400, never a 500", async () => {
    const m = await createMerchant();
    const token = linkToken(await smtp.waitFor(m.email, /confirm your email address/), "/verify-email");
    const rows = await database.db.select().from(emailTokens).where(eq(emailTokens.merchantId, m.id));
    expect(rows.map((r) => r.tokenHash)).not.toContain(token);

    for (const bad of ["nope", "x".repeat(200)]) {
      const res = await call(verifyEmail, "POST", "/api/auth/verify-email", { body: { token: bad } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.token).toBeDefined();
    }
    expect((await call(verifyEmail, "POST", "/api/auth/verify-email", { body: {} })).body.error.details.token).toEqual(["This field is required."]);

    await database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.merchantId, m.id));
    const expired = await call(verifyEmail, "POST", "/api/auth/verify-email", { body: { token } });
    expect(expired.status).toBe(400);
  });

  test("resend mails a new working link, at most 5 an hour per account; an API key may not ask", async () => {
    const m = await createMerchant();
    await smtp.waitFor(m.email, /confirm your email address/);
    for (let i = 0; i < 5; i++) {
      const res = await call(resendVerification, "POST", "/api/auth/verify-email/resend", { token: m.access });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String), email: m.email });
      expectMatchesSchema("POST /api/auth/verify-email/resend", 200, res.body);
    }
    const sixth = await call(resendVerification, "POST", "/api/auth/verify-email/resend", { token: m.access });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("RATE_LIMITED");
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expectMatchesSchema("POST /api/auth/verify-email/resend", 429, sixth.body);

    const latest = await smtp.waitFor(m.email, /confirm your email address/, 6);
    expect(smtp.to(m.email).filter((mail) => /confirm your email/.test(mail.subject))).toHaveLength(6);
    expect((await call(verifyEmail, "POST", "/api/auth/verify-email", { body: { token: linkToken(latest, "/verify-email") } })).status).toBe(200);
    expect((await call(resendVerification, "POST", "/api/auth/verify-email/resend", {})).status).toBe(401);
  });
});

describe("password reset", () => {
  test("the same answer whether or not the address has an account; only an account's address gets mail", async () => {
    const m = await createMerchant();
    const unknown = `${uniqueName("nobody")}@example.com`;
    const forUnknown = await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: unknown }, ip: "192.0.2.41" });
    const forKnown = await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: m.email.toUpperCase() }, ip: "192.0.2.41" });
    expect(forUnknown.status).toBe(200);
    expect(forKnown.status).toBe(200);
    expect(forUnknown.body).toEqual(forKnown.body);
    expectMatchesSchema("POST /api/auth/password-reset", 200, forKnown.body);
    const mail = await smtp.waitFor(m.email, /reset your password/);
    expect(mail.body).toContain("expires in 60 minutes");
    await settleBackgroundMail();
    expect(smtp.to(unknown)).toEqual([]);
  });

  test("a reset sets the new password, revokes every session and refresh token, spends every other reset link and verifies the address", async () => {
    const m = await createMerchant();
    const second = (await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password } })).body;
    await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: m.email }, ip: "192.0.2.42" });
    await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: m.email }, ip: "192.0.2.42" });
    const older = linkToken(await smtp.waitFor(m.email, /reset your password/, 1), "/reset-password");
    const newer = linkToken(await smtp.waitFor(m.email, /reset your password/, 2), "/reset-password");

    const weak = await call(confirmReset, "POST", "/api/auth/password-reset/confirm", { body: { token: newer, password: "password" } });
    expect(weak.status).toBe(400);
    expect(weak.body.error.details.password).toBeDefined();

    const done = await call(confirmReset, "POST", "/api/auth/password-reset/confirm", {
      body: { token: newer, password: "a brand new passphrase" },
      ip: "192.0.2.43",
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: expect.any(String) });
    expectMatchesSchema("POST /api/auth/password-reset/confirm", 200, done.body);
    expectMatchesSchema("POST /api/auth/password-reset/confirm", 400, weak.body);
    await smtp.waitFor(m.email, /your password was reset/);

    for (const access of [m.access, second.access]) expect((await call(verifyCredential, "GET", "/api/auth/verify/", { token: access })).status).toBe(401);
    for (const token of [m.refresh, second.refresh])
      expect((await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: token } })).status).toBe(401);
    expect((await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password } })).status).toBe(401);
    const fresh = await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: "a brand new passphrase" } });
    expect(fresh.status).toBe(200);
    expect((await call(getAccount, "GET", "/api/account/", { token: fresh.body.access })).body.data.email_verified_at).toEqual(expect.any(String));
    // The audit log has the reset, from the address that confirmed it, and never the new password.
    const resets = await call(listAuditLog, "GET", "/api/audit-log/", { token: fresh.body.access, query: { action: "auth.password_reset" } });
    expect(resets.body.results).toEqual([
      expect.objectContaining({ actor: { kind: "public", name: null }, client_ip: "192.0.2.43", after: { sessions_revoked: true } }),
    ]);
    expect(JSON.stringify(resets.body)).not.toContain("a brand new passphrase");

    for (const token of [newer, older]) {
      const reused = await call(confirmReset, "POST", "/api/auth/password-reset/confirm", { body: { token, password: "yet another passphrase" } });
      expect(reused.status).toBe(400);
      expect(reused.body.error.details.token).toBeDefined();
    }
  });

  test("an expired reset link is refused", async () => {
    const m = await createMerchant();
    await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: m.email }, ip: "192.0.2.43" });
    const token = linkToken(await smtp.waitFor(m.email, /reset your password/), "/reset-password");
    await database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.merchantId, m.id));
    const res = await call(confirmReset, "POST", "/api/auth/password-reset/confirm", { body: { token, password: "a brand new passphrase" } });
    expect(res.status).toBe(400);
    expect((await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password } })).status).toBe(200);
  });

  test("requests are limited to 5 an hour per address (known or not) and 20 per client address; confirm attempts to 30 per client address", async () => {
    const m = await createMerchant();
    const unknown = `${uniqueName("nobody")}@example.com`;
    for (const email of [m.email, unknown]) {
      for (let i = 0; i < 5; i++)
        expect((await call(requestReset, "POST", "/api/auth/password-reset", { body: { email }, ip: `192.0.2.${50 + i}` })).status).toBe(200);
      const sixth = await call(requestReset, "POST", "/api/auth/password-reset", { body: { email }, ip: "192.0.2.60" });
      expect(sixth.status).toBe(429);
      expect(sixth.body.error.code).toBe("RATE_LIMITED");
      expectMatchesSchema("POST /api/auth/password-reset", 429, sixth.body);
    }
    await settleBackgroundMail();
    expect(smtp.to(m.email).filter((mail) => /reset your password/.test(mail.subject))).toHaveLength(5);

    const ip = "192.0.2.61";
    for (let i = 0; i < 20; i++)
      expect((await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: `${uniqueName("x")}@example.com` }, ip })).status).toBe(200);
    expect((await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: `${uniqueName("x")}@example.com` }, ip })).status).toBe(429);

    for (let i = 0; i < 30; i++)
      expect(
        (await call(confirmReset, "POST", "/api/auth/password-reset/confirm", { body: { token: `guess${i}`, password: "a brand new passphrase" }, ip })).status,
      ).toBe(400);
    expect(
      (await call(confirmReset, "POST", "/api/auth/password-reset/confirm", { body: { token: "guess", password: "a brand new passphrase" }, ip })).status,
    ).toBe(429);
  });
});

describe("security notices", () => {
  test("a sign-in from an address the account never used mails the owner; the first sign-in and known addresses do not", async () => {
    const m = await createMerchant(); // its first sign-in, from 203.0.113.7
    await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "203.0.113.7" });
    expect((await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "198.18.0.9" })).status).toBe(200);
    const notice = await smtp.waitFor(m.email, /new sign-in/);
    expect(notice.subject).toContain("198.18.0.9");
    await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "198.18.0.9" });
    // A wrong password from yet another address is no sign-in.
    await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: "wrong password" }, ip: "198.18.0.10" });
    await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "198.18.0.11" });
    await smtp.waitFor(m.email, /new sign-in/, 2);
    expect(
      smtp
        .to(m.email)
        .filter((mail) => /new sign-in/.test(mail.subject))
        .map((mail) => mail.subject.split(" ").pop()),
    ).toEqual(["198.18.0.9", "198.18.0.11"]);
  });

  test("the account keeps its 20 most recent sign-in addresses: the oldest, forgotten, counts as new again", async () => {
    const m = await createMerchant(); // first sign-in from 203.0.113.7, the oldest address
    const signIn = (ip: string) => call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip });
    for (let i = 1; i <= 19; i++) expect((await signIn(`198.18.3.${i}`)).status).toBe(200);
    await smtp.waitFor(m.email, /new sign-in/, 19);
    // 20 known: a sign-in from a known one is quiet.
    await signIn("203.0.113.7");
    await signIn("198.18.3.1");
    // A 21st address: the least recently used (198.18.3.2) is forgotten.
    await signIn("198.18.3.100");
    await smtp.waitFor(m.email, /new sign-in/, 20);
    await signIn("198.18.3.3");
    await signIn("198.18.3.2");
    await smtp.waitFor(m.email, /new sign-in/, 21);
    const notices = smtp.to(m.email).filter((mail) => /new sign-in/.test(mail.subject));
    expect(notices.slice(19).map((mail) => mail.subject.split(" ").pop())).toEqual(["198.18.3.100", "198.18.3.2"]);
  });

  test("changing a payout address mails the owner, from the API and from the dashboard; adding a first wallet does not", async () => {
    const m = await createMerchant();
    const first = randomAddress();
    const wallet = (await call(postWallet, "POST", "/api/merchant-wallets/", { token: m.access, body: { blockchain: 2, wallet_address: first } })).body.data;
    const second = randomAddress();
    const put = await call(putWallet, "PUT", "/api/x/", {
      token: m.access,
      params: { id: String(wallet.id) },
      body: { wallet_address: second, reauth: { password: m.password } },
      ip: "198.18.1.1",
    });
    expect(put.status).toBe(200);
    const mail = await smtp.waitFor(m.email, /payout address changed/);
    expect(mail.body).toContain(`Previous address: ${first}`);
    expect(mail.body).toContain(`New address: ${second}`);
    expect(mail.body).toContain("198.18.1.1");

    signInAs({ id: m.id, username: m.username });
    try {
      const third = randomAddress();
      expect((await updateWalletAction(form({ id: String(wallet.id), wallet_address: third, confirmation_threshold: "4", password: m.password }))).ok).toBe(
        true,
      );
      const fromDashboard = await smtp.waitFor(m.email, /payout address changed/, 2);
      expect(fromDashboard.body).toContain(`New address: ${third}`);
      // A threshold change alone is no address change.
      expect((await updateWalletAction(form({ id: String(wallet.id), wallet_address: third, confirmation_threshold: "5" }))).ok).toBe(true);
    } finally {
      signInAs(null);
    }
    expect(smtp.to(m.email).filter((mail) => /payout address changed/.test(mail.subject))).toHaveLength(2);
  });
});

describe("the outbox", () => {
  test("with no SMTP_URL mail goes to the account's outbox only; in the sandbox with SMTP a copy is kept, marked sent", async () => {
    env.SMTP_URL = undefined;
    const input = newAccount();
    const registered = await call(register, "POST", "/api/auth/register", { body: input, ip: "192.0.2.71" });
    const id = registered.body.user.id as number;
    const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.merchantId, id));
    expect(rows).toEqual([
      expect.objectContaining({ kind: "verify_email", toAddress: input.email, smtpStatus: null, subject: expect.stringContaining(input.shop_name) }),
    ]);
    expect(rows[0]!.text).toMatch(/\/verify-email\?token=/);
    expect(rows[0]!.html).toContain("<a href=");
    expect(smtp.to(input.email)).toEqual([]);
    // The outbox link works like a mailed one.
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(rows[0]!.text)![1]!;
    expect((await call(verifyEmail, "POST", "/api/auth/verify-email", { body: { token } })).status).toBe(200);

    env.SMTP_URL = smtp.url;
    await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: input.email }, ip: "192.0.2.72" });
    await smtp.waitFor(input.email, /reset your password/);
    await settleBackgroundMail();
    const copies = await database.db.select().from(mailOutbox).where(eq(mailOutbox.merchantId, id));
    expect(copies.find((row) => row.kind === "password_reset")).toMatchObject({ smtpStatus: "sent" });
  });

  test("an SMTP server that refuses connections does not fail the request: the reset answers 200 and the copy is marked failed", async () => {
    const m = await createMerchant();
    const dead = await startSmtpSink();
    await dead.close();
    env.SMTP_URL = dead.url;
    const res = await call(requestReset, "POST", "/api/auth/password-reset", { body: { email: m.email }, ip: "192.0.2.73" });
    expect(res.status).toBe(200);
    await settleBackgroundMail();
    const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.merchantId, m.id));
    expect(rows.find((row) => row.kind === "password_reset")).toMatchObject({ smtpStatus: "failed" });
  });

  /**
   * Runs `request` with SMTP_URL pointing at a server that accepts and never greets (the client would
   * wait a minute): an answer within 5 s did not wait for the mail, and the mail's connection was
   * still made, in the background.
   */
  async function answersWhileSmtpHangs(what: string, request: () => Promise<{ status: number }>) {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    env.SMTP_URL = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}?greetingTimeout=60000`;
    try {
      let bound: NodeJS.Timeout | undefined;
      const res = await Promise.race([
        request(),
        new Promise<never>((_, reject) => (bound = setTimeout(() => reject(new Error(`${what} waited for the SMTP server`)), 5_000))),
      ]).finally(() => clearTimeout(bound));
      expect(res.status).toBe(200);
      const deadline = Date.now() + 5_000;
      while (sockets.size === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sockets.size).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await settleBackgroundMail();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      env.SMTP_URL = smtp.url;
    }
  }

  test("a reset request does not wait for the mail: it answers while an SMTP server that never greets still holds the connection", async () => {
    const m = await createMerchant();
    await answersWhileSmtpHangs("the reset request", () =>
      call(requestReset, "POST", "/api/auth/password-reset", { body: { email: m.email }, ip: "192.0.2.74" }),
    );
    const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.merchantId, m.id));
    expect(rows.find((row) => row.kind === "password_reset")).toMatchObject({ smtpStatus: "failed" });
  });

  test("a sign-in from a new address does not wait for its notice: it answers while an SMTP server that never greets still holds the connection", async () => {
    const m = await createMerchant(); // its first sign-in, from 203.0.113.7
    await answersWhileSmtpHangs("the sign-in", () =>
      call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password }, ip: "198.18.0.77" }),
    );
    const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.merchantId, m.id));
    expect(rows.find((row) => row.kind === "new_sign_in")).toMatchObject({ smtpStatus: "failed" });
  });
});
