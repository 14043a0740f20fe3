/** Issue 28 item 3: members with roles, invitations by email (through a real SMTP server), several stores per login. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { GET as listAccounts } from "@/app/api/accounts/route";
import { GET as listMembers } from "@/app/api/account/members/route";
import { PUT as changeRole, DELETE as removeMember } from "@/app/api/account/members/[userId]/route";
import { GET as listInvitations, POST as invite } from "@/app/api/account/invitations/route";
import { DELETE as revokeInvitation } from "@/app/api/account/invitations/[id]/route";
import { POST as accept } from "@/app/api/auth/invitations/accept/route";
import { GET as listOrders, POST as createOrderRoute } from "@/app/api/payment-orders/route";
import { POST as postWallet } from "@/app/api/merchant-wallets/route";
import { POST as postApiKey } from "@/app/api/api-keys/route";
import { GET as listAuditLog } from "@/app/api/audit-log/route";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, randomAddress, uniqueName, type TestMerchant } from "../../helpers/factories";
import { addMember } from "../../helpers/members";
import { expectMatchesSchema } from "../../helpers/openapi";
import { call } from "../../helpers/request";
import { linkToken, startSmtpSink } from "../../helpers/smtp-sink";

setupTestDatabase();
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const smtpUrlBefore = env.SMTP_URL;

beforeAll(async () => {
  smtp = await startSmtpSink();
});
beforeEach(() => {
  env.SMTP_URL = smtp.url;
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await settleBackgroundMail();
  env.SMTP_URL = smtpUrlBefore;
  await smtp.close();
});

/** The token of the last invitation mailed to `email` (through SMTP). */
async function mailedToken(email: string): Promise<string> {
  const before = smtp.to(email).filter((m) => /invited you/.test(m.subject)).length;
  return linkToken(await smtp.waitFor(email, /invited you/, Math.max(before, 1)), "/invite");
}

async function inviteTo(owner: { access: string }, role: string, email = `${uniqueName("inv")}@example.com`) {
  const res = await call(invite, "POST", "/api/account/invitations/", { token: owner.access, body: { email, role } });
  return { res, email };
}

const orderBody = () => ({ amount: "1.5", currency: "USDC", blockchain: "base", order_info: "{}", nonce: Math.floor(Math.random() * 1e9) });

describe("invitations", () => {
  let owner: TestMerchant;
  beforeEach(async () => {
    owner ??= await createMerchant();
  });

  test("an invitation is mailed; accepting it with a new login joins the account with the role, and the link works once", async () => {
    const { res, email } = await inviteTo(owner, "developer");
    expect(res.status).toBe(201);
    expectMatchesSchema("POST /api/account/invitations", 201, res.body);
    expect(res.body.data).toMatchObject({ email, role: "developer" });
    expect(JSON.stringify(res.body)).not.toMatch(/token/);
    const mail = await smtp.waitFor(email, /invited you/);
    expect(mail.body).toContain(owner.username);
    const token = linkToken(mail, "/invite");

    const username = uniqueName("dev");
    const accepted = await call(accept, "POST", "/api/auth/invitations/accept/", {
      body: { token, username, password: "member horse battery", create_login: true },
    });
    expect(accepted.status).toBe(201);
    expectMatchesSchema("POST /api/auth/invitations/accept", 201, accepted.body);
    expect(accepted.body.data.account).toEqual({ id: owner.id, shop_name: `Shop of ${owner.username}`, role: "developer" });

    const again = await call(accept, "POST", "/api/auth/invitations/accept/", {
      body: { token, username: uniqueName("x"), password: "member horse battery", create_login: true },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.details.token).toBeDefined();

    const members = await call(listMembers, "GET", "/api/account/members/", { token: owner.access });
    expect(members.status).toBe(200);
    expectMatchesSchema("GET /api/account/members", 200, members.body);
    expect(members.body.data).toEqual([
      expect.objectContaining({ user_id: owner.id, role: "owner" }),
      expect.objectContaining({ username, email, role: "developer" }),
    ]);
  });

  test("an existing login accepts with its password (a wrong one is refused) and then belongs to two stores", async () => {
    const other = await createMerchant();
    const { email } = await inviteTo(owner, "viewer", other.email);
    const token = await mailedToken(email);
    const wrong = await call(accept, "POST", "/api/auth/invitations/accept/", { body: { token, username: other.username, password: "not the password" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("INVALID_CREDENTIALS");
    const ok = await call(accept, "POST", "/api/auth/invitations/accept/", { body: { token, username: other.username, password: other.password } });
    expect(ok.status).toBe(201);

    // Its own store first, then the one it joined; login picks one with `account`.
    const accounts = await call(listAccounts, "GET", "/api/accounts/", { token: other.access });
    expect(accounts.body.data).toEqual([
      { id: other.id, shop_name: `Shop of ${other.username}`, role: "owner" },
      { id: owner.id, shop_name: `Shop of ${owner.username}`, role: "viewer" },
    ]);
    const own = await call(login, "POST", "/api/auth/login/", { body: { username: other.username, password: other.password } });
    expect(own.body.account).toEqual({ id: other.id, role: "owner" });
    const switched = await call(login, "POST", "/api/auth/login/", { body: { username: other.username, password: other.password, account: owner.id } });
    expect(switched.status).toBe(200);
    expect(switched.body.account).toEqual({ id: owner.id, role: "viewer" });
    expectMatchesSchema("POST /api/auth/login", 200, switched.body);
    const who = await call(verify, "GET", "/api/auth/verify/", { token: switched.body.access });
    expect(who.body.user).toMatchObject({ id: other.id, permissions: ["read"] });
    expect(who.body.account).toEqual({ id: owner.id, role: "viewer" });

    // The store's data, not the login's own: the owner's order is listed.
    const created = await call(createOrderRoute, "POST", "/api/payment-orders/", { token: owner.access, body: orderBody() });
    expect([201, 400]).toContain(created.status);
    const listed = await call(listOrders, "GET", "/api/payment-orders/", { token: switched.body.access });
    expect(listed.status).toBe(200);

    // A refresh keeps the store.
    const refreshed = await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: switched.body.refresh } });
    expect((await call(verify, "GET", "/api/auth/verify/", { token: refreshed.body.access })).body.account).toEqual({ id: owner.id, role: "viewer" });

    // An account it is not a member of: refused after the password check.
    const stranger = await createMerchant();
    const refused = await call(login, "POST", "/api/auth/login/", { body: { username: other.username, password: other.password, account: stranger.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.account).toBeDefined();
  });

  test("an expired invitation and a revoked one are refused", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date();
    const { email } = await inviteTo(owner, "viewer");
    const token = await mailedToken(email);
    vi.setSystemTime(new Date(start.getTime() + 7 * 24 * 60 * 60 * 1000 + 1000));
    const expired = await call(accept, "POST", "/api/auth/invitations/accept/", {
      body: { token, username: uniqueName("late"), password: "member horse battery", create_login: true },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.error.details.token).toBeDefined();
    vi.useRealTimers();

    const second = await inviteTo(owner, "viewer");
    const secondToken = await mailedToken(second.email);
    const open = await call(listInvitations, "GET", "/api/account/invitations/", { token: owner.access });
    const id = open.body.data.find((i: { email: string }) => i.email === second.email).id;
    expect((await call(revokeInvitation, "DELETE", `/api/account/invitations/${id}/`, { token: owner.access, params: { id: String(id) } })).status).toBe(200);
    const revoked = await call(accept, "POST", "/api/auth/invitations/accept/", {
      body: { token: secondToken, username: uniqueName("rev"), password: "member horse battery", create_login: true },
    });
    expect(revoked.status).toBe(400);
  });

  test("an account sends at most 20 invitations an hour", async () => {
    const busy = await createMerchant();
    for (let i = 0; i < 20; i++) expect((await inviteTo(busy, "viewer")).res.status).toBe(201);
    const over = await inviteTo(busy, "viewer");
    expect(over.res.status).toBe(429);
    expect(over.res.body.error.code).toBe("RATE_LIMITED");
  });
});

describe("roles", () => {
  let owner: TestMerchant;
  beforeEach(async () => {
    owner ??= await createMerchant();
  });

  test("a viewer reads but cannot create orders, wallets, keys or invitations", async () => {
    const viewer = await addMember(owner, "viewer", mailedToken);
    expect((await call(listOrders, "GET", "/api/payment-orders/", { token: viewer.access })).status).toBe(200);
    for (const [handler, path, body] of [
      [createOrderRoute, "/api/payment-orders/", orderBody()],
      [postWallet, "/api/merchant-wallets/", { blockchain: 2, wallet_address: randomAddress() }],
      [postApiKey, "/api/api-keys/", { name: "k", preset: "read_only" }],
      [invite, "/api/account/invitations/", { email: "x@example.com", role: "viewer" }],
    ] as const) {
      const res = await call(handler, "POST", path, { token: viewer.access, body });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
    }
  });

  test("a developer creates API keys but cannot change payout wallets or members", async () => {
    const developer = await addMember(owner, "developer", mailedToken);
    expect((await call(postApiKey, "POST", "/api/api-keys/", { token: developer.access, body: { name: "ci", preset: "read_only" } })).status).toBe(201);
    const wallet = await call(postWallet, "POST", "/api/merchant-wallets/", {
      token: developer.access,
      body: { blockchain: 2, wallet_address: randomAddress(), reauth: { password: developer.password } },
    });
    expect(wallet.status).toBe(403);
    const promote = await call(changeRole, "PUT", `/api/account/members/${developer.id}/`, {
      token: developer.access,
      params: { userId: String(developer.id) },
      body: { role: "admin" },
    });
    expect(promote.status).toBe(403);
  });

  test("an admin adds a payout wallet with their own password, manages members, but cannot touch an owner", async () => {
    const admin = await addMember(owner, "admin", mailedToken);
    const wallet = await call(postWallet, "POST", "/api/merchant-wallets/", {
      token: admin.access,
      body: { blockchain: 2, wallet_address: randomAddress(), reauth: { password: admin.password } },
    });
    expect(wallet.status).toBe(201);
    const demoteOwner = await call(changeRole, "PUT", `/api/account/members/${owner.id}/`, {
      token: admin.access,
      params: { userId: String(owner.id) },
      body: { role: "viewer" },
    });
    expect(demoteOwner.status).toBe(403);
    const inviteOwner = await call(invite, "POST", "/api/account/invitations/", { token: admin.access, body: { email: "boss@example.com", role: "owner" } });
    expect(inviteOwner.status).toBe(403);
    const viewer = await addMember(owner, "viewer", mailedToken);
    const promoted = await call(changeRole, "PUT", `/api/account/members/${viewer.id}/`, {
      token: admin.access,
      params: { userId: String(viewer.id) },
      body: { role: "developer" },
    });
    expect(promoted.status).toBe(200);
    expectMatchesSchema("PUT /api/account/members/[userId]", 200, promoted.body);
    // The member's token follows the new role at once.
    expect((await call(verify, "GET", "/api/auth/verify/", { token: viewer.access })).body.account.role).toBe("developer");
  });

  test("the last owner can be neither demoted nor removed; with a second owner, it can", async () => {
    const solo = await createMerchant();
    const demote = await call(changeRole, "PUT", `/api/account/members/${solo.id}/`, {
      token: solo.access,
      params: { userId: String(solo.id) },
      body: { role: "admin" },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe("CONFLICT");
    const remove = await call(removeMember, "DELETE", `/api/account/members/${solo.id}/`, { token: solo.access, params: { userId: String(solo.id) } });
    expect(remove.status).toBe(409);

    const second = await addMember(solo, "admin", mailedToken);
    expect(
      (
        await call(changeRole, "PUT", `/api/account/members/${second.id}/`, {
          token: solo.access,
          params: { userId: String(second.id) },
          body: { role: "owner" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(changeRole, "PUT", `/api/account/members/${solo.id}/`, {
          token: second.access,
          params: { userId: String(solo.id) },
          body: { role: "admin" },
        })
      ).status,
    ).toBe(200);
    // Now `second` is the last owner.
    expect(
      (await call(removeMember, "DELETE", `/api/account/members/${second.id}/`, { token: second.access, params: { userId: String(second.id) } })).status,
    ).toBe(409);
  });

  test("a removed member's tokens for the account stop working; its own account is untouched", async () => {
    const member = await addMember(owner, "developer", mailedToken);
    expect((await call(verify, "GET", "/api/auth/verify/", { token: member.access })).status).toBe(200);
    const removed = await call(removeMember, "DELETE", `/api/account/members/${member.id}/`, { token: owner.access, params: { userId: String(member.id) } });
    expect(removed.status).toBe(200);
    const after = await call(verify, "GET", "/api/auth/verify/", { token: member.access });
    expect(after.status).toBe(401);
    const own = await call(login, "POST", "/api/auth/login/", { body: { username: member.username, password: member.password } });
    expect(own.body.account).toEqual({ id: member.id, role: "owner" });
  });

  test("member changes are in the account's audit log, which owners and admins read and other roles cannot", async () => {
    const account = await createMerchant();
    const viewer = await addMember(account, "viewer", mailedToken);
    expect(
      (
        await call(changeRole, "PUT", `/api/account/members/${viewer.id}/`, {
          token: account.access,
          params: { userId: String(viewer.id) },
          body: { role: "developer" },
        })
      ).status,
    ).toBe(200);
    const { res: invited } = await inviteTo(account, "viewer");
    expect(
      (
        await call(revokeInvitation, "DELETE", `/api/account/invitations/${invited.body.data.id}/`, {
          token: account.access,
          params: { id: String(invited.body.data.id) },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(removeMember, "DELETE", `/api/account/members/${viewer.id}/`, { token: account.access, params: { userId: String(viewer.id) } })).status,
    ).toBe(200);

    const log = await call(listAuditLog, "GET", "/api/audit-log/", { token: account.access });
    expect(log.status).toBe(200);
    const entries = (log.body.results as Array<{ action: string; target: string | null; before: unknown; after: unknown; actor: { name: string } }>).filter(
      (e) => e.action.startsWith("member."),
    );
    const byAction = (action: string) => entries.filter((e) => e.action === action);
    expect(byAction("member.invited")).toHaveLength(2);
    expect(byAction("member.invited")[1]!.after).toEqual({ email: viewer.email, role: "viewer" });
    expect(byAction("member.joined")).toEqual([expect.objectContaining({ target: `user:${viewer.id}`, after: { role: "viewer" } })]);
    expect(byAction("member.role_changed")).toEqual([
      expect.objectContaining({
        target: `user:${viewer.id}`,
        before: { role: "viewer" },
        after: { role: "developer" },
        actor: expect.objectContaining({ name: account.username }),
      }),
    ]);
    expect(byAction("member.invitation_revoked")).toEqual([expect.objectContaining({ target: `invitation:${invited.body.data.id}` })]);
    expect(byAction("member.removed")).toEqual([expect.objectContaining({ target: `user:${viewer.id}`, before: { role: "developer" } })]);

    for (const role of ["viewer", "developer"] as const) {
      const member = await addMember(account, role, mailedToken);
      const refused = await call(listAuditLog, "GET", "/api/audit-log/", { token: member.access });
      expect(refused.status, role).toBe(403);
      expect(refused.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
    }
    const admin = await addMember(account, "admin", mailedToken);
    expect((await call(listAuditLog, "GET", "/api/audit-log/", { token: admin.access })).status).toBe(200);
  });
});
