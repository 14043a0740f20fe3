/**
 * Issue 49 items 1, 2, 3 and 7: a team member never becomes the owner. Each group is the hole the
 * review got through, tried again over the real surface (routes in-process, dashboard actions, the
 * outbox page), for every role.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { GET as getAccount } from "@/app/api/account/route";
import { POST as rotateAccountSecret } from "@/app/api/account/rotate-webhook-secret/route";
import { DELETE as removeMember, PUT as changeRole } from "@/app/api/account/members/[userId]/route";
import { GET as listInvitations, POST as invite } from "@/app/api/account/invitations/route";
import { GET as listKeys, POST as createKey } from "@/app/api/api-keys/route";
import { POST as acceptInvitation } from "@/app/api/auth/invitations/accept/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as requestReset } from "@/app/api/auth/password-reset/route";
import { POST as confirmReset } from "@/app/api/auth/password-reset/confirm/route";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { POST as createWalletRoute } from "@/app/api/merchant-wallets/route";
import { GET as listOrders } from "@/app/api/payment-orders/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { POST as rotateEndpointSecret } from "@/app/api/webhook-endpoints/[id]/rotate-secret/route";
import { allRoles, type Role } from "@/lib/auth/roles";
import { auditLog, mailOutbox } from "@/lib/db/schema";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { listOutboxMessages } from "@/lib/mail/queries";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, randomAddress, uniqueName, type TestMerchant } from "../../helpers/factories";
import { addMember, invitationTokenFromOutbox, type TestMember } from "../../helpers/members";
import { call } from "../../helpers/request";
import { signInAs } from "../../dashboard/session";
import { codeFor, enrolTotp } from "../auth/totp-support";
import { renderPage } from "../../helpers/next-intl-server-en";

// The outbox page reads its words with next-intl's server functions: outside Next, the English messages.
vi.mock("next-intl/server", () => import("../../helpers/next-intl-server-en"));

const { default: OutboxPage } = await import("@/app/(dashboard)/dashboard/outbox/page");
const { revealAccountSecretAction, rotateAccountSecretAction } = await import("@/app/(dashboard)/dashboard/settings/actions");
const { revealSecretAction } = await import("@/app/(dashboard)/dashboard/webhooks/actions");
const { createApiKeyAction } = await import("@/app/(dashboard)/dashboard/api-keys/actions");
const { inviteMemberAction } = await import("@/app/(dashboard)/dashboard/team/actions");
const { addWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");

const database = setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const outboxToken = (email: string) => invitationTokenFromOutbox(database.db, email);

/** One store with a member of every role but the owner. */
async function teamOfEveryRole(): Promise<{ owner: TestMerchant; members: Record<Exclude<Role, "owner">, TestMember> }> {
  const owner = await createMerchant();
  const members = {} as Record<Exclude<Role, "owner">, TestMember>;
  for (const role of ["admin", "developer", "viewer"] as const) members[role] = await addMember(owner, role, outboxToken);
  return { owner, members };
}

/** The outbox page as `who` sees it, rendered to HTML. */
async function outboxPageAs(who: { id: number; username: string }, as?: { accountId: number; role: Role }): Promise<string> {
  signInAs(who, as);
  return renderPage(await OutboxPage());
}

afterEach(() => {
  vi.useRealTimers();
  signInAs(null);
});

describe("item 1: mail addressed to a person is readable by that person only", () => {
  test("a viewer asks a reset of the owner's password: the link is in no outbox the viewer can open, and the owner's own outbox has it", async () => {
    const { owner, members } = await teamOfEveryRole();
    const requested = await call(requestReset, "POST", "/api/auth/password-reset/", { body: { email: owner.email } });
    expect(requested.status).toBe(200);
    await settleBackgroundMail();

    for (const role of ["admin", "developer", "viewer"] as const) {
      const member = members[role];
      const html = await outboxPageAs(member, { accountId: owner.id, role });
      expect(html, role).not.toContain("/reset-password?token=");
      expect(html, role).not.toContain(owner.email);
      expect(
        (await listOutboxMessages(database.db, member.id, 50)).every((m) => m.toAddress === member.email),
        role,
      ).toBe(true);
    }
    const ownersOwn = await outboxPageAs(owner);
    const link = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(ownersOwn);
    expect(link).not.toBeNull();

    // The link still works for its reader, the owner.
    const confirmed = await call(confirmReset, "POST", "/api/auth/password-reset/confirm/", {
      body: { token: link![1], password: "owner's new horse battery" },
    });
    expect(confirmed.status).toBe(200);
  });

  test("invitation mail is the invitee's: no member's outbox shows it, the open-invitations list carries no token, and without SMTP its sender gets the link once", async () => {
    const { owner, members } = await teamOfEveryRole();
    const email = `${uniqueName("invitee")}@example.com`;
    const sent = await call(invite, "POST", "/api/account/invitations/", { token: members.admin.access, body: { email, role: "developer" } });
    expect(sent.status).toBe(201);
    expect(sent.body.data.invitation_url).toMatch(/\/invite\?token=[A-Za-z0-9_-]{43}$/);

    for (const [who, as] of [
      [owner, undefined],
      [members.admin, { accountId: owner.id, role: "admin" as const }],
      [members.developer, { accountId: owner.id, role: "developer" as const }],
      [members.viewer, { accountId: owner.id, role: "viewer" as const }],
    ] as const) {
      expect(await outboxPageAs(who, as)).not.toContain("/invite?token=");
    }
    const open = await call(listInvitations, "GET", "/api/account/invitations/", { token: owner.access });
    expect(JSON.stringify(open.body)).not.toMatch(/token|invite\?/);

    // Sent to an address a login already uses: filed in that login's outbox, and only there.
    const existing = await createMerchant();
    await call(invite, "POST", "/api/account/invitations/", { token: owner.access, body: { email: existing.email, role: "viewer" } });
    expect(await outboxPageAs(existing)).toContain("/invite?token=");
    expect(await outboxPageAs(owner)).not.toContain("/invite?token=");

    // The dashboard's form hands the link to its sender the same way.
    signInAs(owner);
    const viaDashboard = await inviteMemberAction(form({ email: `${uniqueName("dash")}@example.com`, role: "viewer" }));
    expect(viaDashboard).toMatchObject({ ok: true, data: { invitation_url: expect.stringMatching(/\/invite\?token=/) } });
  });

  test("an invitation is accepted only by the login using the invited address, and with its second factor", async () => {
    const owner = await createMerchant();
    const other = await createMerchant();
    const invitee = await createMerchant();
    const sent = await call(invite, "POST", "/api/account/invitations/", { token: owner.access, body: { email: invitee.email, role: "admin" } });
    const token = new URL(sent.body.data.invitation_url).searchParams.get("token")!;

    const wrongLogin = await call(acceptInvitation, "POST", "/api/auth/invitations/accept/", {
      body: { token, username: other.username, password: other.password },
    });
    expect(wrongLogin.status).toBe(400);
    expect(wrongLogin.body.error.details.username[0]).toMatch(/another address/);

    const { secret } = await enrolTotp(invitee);
    const noCode = await call(acceptInvitation, "POST", "/api/auth/invitations/accept/", {
      body: { token, username: invitee.username, password: invitee.password },
    });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details).toHaveProperty("code");

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 30_000 });
    const accepted = await call(acceptInvitation, "POST", "/api/auth/invitations/accept/", {
      body: { token, username: invitee.username, password: invitee.password, code: codeFor(secret) },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.account).toMatchObject({ id: owner.id, role: "admin" });
  });
});

describe("item 2: every response carrying a secret answers it only to the roles that manage it", () => {
  let team: Awaited<ReturnType<typeof teamOfEveryRole>>;
  beforeAll(async () => {
    team = await teamOfEveryRole();
  });

  /** Each role's access token and dashboard session in the team's store. */
  const as = (role: Role) =>
    role === "owner"
      ? { token: team.owner.access, who: team.owner, session: undefined }
      : { token: team.members[role].access, who: team.members[role], session: { accountId: team.owner.id, role } };

  const managesAccount: Record<Role, boolean> = { owner: true, admin: true, developer: false, viewer: false };
  const managesWebhooks: Record<Role, boolean> = { owner: true, admin: true, developer: true, viewer: false };

  test.each(allRoles)("%s: GET /api/account/ and its rotation", async (role) => {
    const { token } = as(role);
    const account = await call(getAccount, "GET", "/api/account/", { token });
    expect(account.status).toBe(200);
    if (managesAccount[role]) expect(account.body.data.webhook_secret).toMatch(/^whsec_/);
    else expect(JSON.stringify(account.body)).not.toMatch(/whsec_/);

    const rotated = await call(rotateAccountSecret, "POST", "/api/account/rotate-webhook-secret/", { token });
    if (managesAccount[role]) expect(rotated.body.data.webhook_secret).toMatch(/^whsec_/);
    else expect(rotated.status).toBe(403);
  });

  test.each(allRoles)("%s: the dashboard's account secret (reveal, rotate)", async (role) => {
    const { who, session } = as(role);
    signInAs(who, session);
    for (const result of [await revealAccountSecretAction({ id: "1" }), await rotateAccountSecretAction({ id: "1" })]) {
      if (managesAccount[role]) expect(result).toMatchObject({ ok: true, data: { secret: expect.stringMatching(/^whsec_/) } });
      else expect(result).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_PERMISSIONS" } });
    }
  });

  test.each(allRoles)("%s: webhook endpoint secrets (create, rotate, the dashboard's reveal)", async (role) => {
    const { token, who, session } = as(role);
    const made = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token, body: { url: `http://127.0.0.1:9/${role}` } });
    if (!managesWebhooks[role]) {
      expect(made.status).toBe(403);
      return;
    }
    expect(made.body.data.secret).toMatch(/^whsec_/);
    const rotated = await call(rotateEndpointSecret, "POST", "/api/webhook-endpoints/x/rotate-secret/", { token, params: { id: String(made.body.data.id) } });
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    signInAs(who, session);
    expect(await revealSecretAction({ id: String(made.body.data.id) })).toMatchObject({ ok: true, data: { secret: expect.stringMatching(/^whsec_/) } });
  });

  test("a viewer cannot reveal an endpoint secret in the dashboard either", async () => {
    const made = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: team.owner.access, body: { url: "http://127.0.0.1:9/owner-only" } });
    signInAs(team.members.viewer, { accountId: team.owner.id, role: "viewer" });
    expect(await revealSecretAction({ id: String(made.body.data.id) })).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_PERMISSIONS" } });
  });

  test.each(allRoles)("%s: API key secrets (create over the API and in the dashboard)", async (role) => {
    const { token, who, session } = as(role);
    const made = await call(createKey, "POST", "/api/api-keys/", { token, body: { name: role, preset: "read_only" } });
    signInAs(who, session);
    const viaDashboard = await createApiKeyAction(form({ name: `${role}-dash`, preset: "read_only" }));
    if (role === "viewer") {
      expect(made.status).toBe(403);
      expect(viaDashboard).toMatchObject({ ok: false, error: { code: "INSUFFICIENT_PERMISSIONS" } });
    } else {
      expect(made.body.data.key).toMatch(/^sk_test_/);
      expect(viaDashboard).toMatchObject({ ok: true, data: { key: expect.stringMatching(/^sk_test_/) } });
    }
    // The list never carries a secret, whoever reads it.
    const list = await call(listKeys, "GET", "/api/api-keys/", { token: team.owner.access });
    expect(JSON.stringify(list.body)).not.toMatch(/sk_test_[0-9A-Za-z]{20}/);
  });
});

describe("item 3: an API key carries at most its maker's role, and follows the maker", () => {
  test("a developer cannot mint manage_wallets (preset or list, API or dashboard); within the role it can, and the key names its maker", async () => {
    const owner = await createMerchant();
    const developer = await addMember(owner, "developer", outboxToken);
    for (const body of [{ preset: "full_access" }, { permissions: ["read", "manage_wallets"] }]) {
      const refused = await call(createKey, "POST", "/api/api-keys/", { token: developer.access, body: { name: "escalate", ...body } });
      expect(refused.status, JSON.stringify(body)).toBe(403);
      expect(refused.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
    }
    signInAs(developer, { accountId: owner.id, role: "developer" });
    expect(await createApiKeyAction(form({ name: "escalate", preset: "full_access" }))).toMatchObject({
      ok: false,
      error: { code: "INSUFFICIENT_PERMISSIONS" },
    });

    const allowed = await call(createKey, "POST", "/api/api-keys/", {
      token: developer.access,
      body: { name: "ci", permissions: ["read", "create_payments", "manage_webhooks"] },
    });
    expect(allowed.status).toBe(201);
    expect(allowed.body.data).toMatchObject({ created_by: developer.id, permissions: ["read", "create_payments", "manage_webhooks"] });
  });

  test("removing the maker revokes their keys; demoting them narrows their keys to the new role; each step is audited", async () => {
    const owner = await createMerchant();
    const admin = await addMember(owner, "admin", outboxToken);
    const developer = await addMember(owner, "developer", outboxToken);
    const adminKey = await call(createKey, "POST", "/api/api-keys/", { token: admin.access, body: { name: "admin full", preset: "full_access" } });
    const devKey = await call(createKey, "POST", "/api/api-keys/", { token: developer.access, body: { name: "dev", preset: "create_payments" } });
    const ownerKey = await call(createKey, "POST", "/api/api-keys/", { token: owner.access, body: { name: "owner full", preset: "full_access" } });
    for (const key of [adminKey, devKey, ownerKey]) expect(key.status).toBe(201);

    const removed = await call(removeMember, "DELETE", "/api/account/members/x/", { token: owner.access, params: { userId: String(developer.id) } });
    expect(removed.status).toBe(200);
    const afterRemoval = await call(listOrders, "GET", "/api/payment-orders/", { token: devKey.body.data.key });
    expect(afterRemoval.status).toBe(401);

    const demoted = await call(changeRole, "PUT", "/api/account/members/x/", {
      token: owner.access,
      params: { userId: String(admin.id) },
      body: { role: "viewer" },
    });
    expect(demoted.status).toBe(200);
    const narrowed = await call(verify, "GET", "/api/auth/verify/", { token: adminKey.body.data.key });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.user.permissions).toEqual(["read"]);
    const wallet = await call(createWalletRoute, "POST", "/api/merchant-wallets/", {
      token: adminKey.body.data.key,
      body: { blockchain: 2, wallet_address: randomAddress() },
    });
    expect(wallet.status).toBe(403);

    // The owner's own key is untouched.
    const ownersKey = await call(verify, "GET", "/api/auth/verify/", { token: ownerKey.body.data.key });
    expect(ownersKey.body.user.permissions).toEqual(["read", "create_payments", "manage_webhooks", "manage_wallets"]);

    const audit = await database.db.select().from(auditLog).where(eq(auditLog.merchantId, owner.id));
    const actions = audit.map((row) => `${row.action} ${row.target}`);
    expect(actions).toContain(`api_key.revoked api_key:${devKey.body.data.id}`);
    expect(actions).toContain(`api_key.narrowed api_key:${adminKey.body.data.id}`);
  });
});

describe("item 7: smaller ones", () => {
  test("a removed member's refresh token is refused, not rotated, and its family ends", async () => {
    const owner = await createMerchant();
    const viewer = await addMember(owner, "viewer", outboxToken);
    await call(removeMember, "DELETE", "/api/account/members/x/", { token: owner.access, params: { userId: String(viewer.id) } });
    const refused = await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: viewer.refresh } });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_TOKEN");
    expect(refused.body.access).toBeUndefined();
  });

  test("adding a payout wallet for a new chain asks the same fresh proof as changing one, on every path", async () => {
    const owner = await createMerchant();
    const admin = await addMember(owner, "admin", outboxToken);
    const body = (blockchain: number) => ({ blockchain, wallet_address: randomAddress() });

    // A member acting in another account always gives the proof.
    const noProof = await call(createWalletRoute, "POST", "/api/merchant-wallets/", { token: admin.access, body: body(1) });
    expect(noProof.status).toBe(400);
    expect(noProof.body.error.details).toHaveProperty(["reauth.password"]);
    const wrong = await call(createWalletRoute, "POST", "/api/merchant-wallets/", {
      token: admin.access,
      body: { ...body(1), reauth: { password: "not it" } },
    });
    expect(wrong.status).toBe(400);
    const withProof = await call(createWalletRoute, "POST", "/api/merchant-wallets/", {
      token: admin.access,
      body: { ...body(1), reauth: { password: admin.password } },
    });
    expect(withProof.status).toBe(201);

    // The account's own login right after signing in: the sign-in is the proof (the spec's request).
    const fresh = await call(createWalletRoute, "POST", "/api/merchant-wallets/", { token: owner.access, body: body(2) });
    expect(fresh.status).toBe(201);
    // Ten minutes later it is not, and a refreshed token is no fresher than its sign-in.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11 * 60 * 1000 });
    const refreshed = await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: owner.refresh } });
    expect(refreshed.status).toBe(200);
    for (const token of [owner.access, refreshed.body.access]) {
      const stale = await call(createWalletRoute, "POST", "/api/merchant-wallets/", { token, body: body(3) });
      expect(stale.status).toBe(400);
      expect(stale.body.error.details).toHaveProperty(["reauth.password"]);
    }
    const relogged = await call(login, "POST", "/api/auth/login/", { body: { username: owner.username, password: owner.password } });
    expect((await call(createWalletRoute, "POST", "/api/merchant-wallets/", { token: relogged.body.access, body: body(3) })).status).toBe(201);

    // The dashboard asks the password of whoever is signed in.
    signInAs(admin, { accountId: owner.id, role: "admin" });
    expect(await addWalletAction(form({ blockchain: "4", wallet_address: randomAddress(), confirmation_threshold: "2" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { password: expect.any(Array) } },
    });
    expect(
      await addWalletAction(form({ blockchain: "4", wallet_address: randomAddress(), confirmation_threshold: "2", password: admin.password })),
    ).toMatchObject({ ok: true });
  });

  test("outbox rows name their reader", async () => {
    const merchant = await createMerchant();
    const rows = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.merchantId, merchant.id), eq(mailOutbox.kind, "verify_email")));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.recipientUserId === merchant.id)).toBe(true);
  });
});
