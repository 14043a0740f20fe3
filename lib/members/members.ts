import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { randomBytes } from "node:crypto";
import type { Db, DbOrTx } from "@/lib/db/types";
import type { Invitation, Merchant } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { narrowKeysOfMember } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/authenticate";
import { forgetMerchantCredentials } from "@/lib/auth/credential-cache";
import { sha256Hex } from "@/lib/auth/hash";
import { beginLoginAttempt } from "@/lib/auth/login-throttle";
import { verifyAgainstDummy, verifyPassword } from "@/lib/auth/passwords";
import { findMerchantById, findMerchantByUsername } from "@/lib/auth/queries";
import { registerMerchant } from "@/lib/auth/register-merchant";
import { assertFreshSecondFactor } from "@/lib/auth/second-factor";
import { registerBody } from "@/lib/auth/schemas";
import { fieldErrors } from "@/lib/http/zod-details";
import { consume, rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { isRole, roleAllows, type Role } from "@/lib/auth/roles";
import { mailIsDelivered, sendMail } from "@/lib/mail/mailer";
import { findMerchantByEmail } from "@/lib/mail/queries";
import { invitationMail } from "@/lib/mail/templates";
import {
  countOwners,
  deleteMembership,
  findMembership,
  findOpenInvitationByHash,
  insertInvitation,
  insertMembership,
  listAccountsOfUser,
  listMembersOfAccount,
  listOpenInvitations,
  lockAccount,
  revokeInvitation,
  revokeOpenInvitationsTo,
  spendInvitation,
  updateMembershipRole,
} from "./queries";
import type { AcceptInvitationBody } from "./schemas";

const dayMs = 24 * 60 * 60 * 1000;
export const invitationTtlMs = 7 * dayMs;
/** Invitations one account may send in an hour. */
export const invitationsPerAccountPerHour = 20;

/** Who is acting on an account's members: a login with its role there. */
export interface MemberActor {
  merchantId: number;
  userId: number;
  role: Role;
}

/** The acting login of an API request (routes with a member-only access: never an API key). */
export function memberActorOf(principal: Principal): MemberActor {
  if (principal.userId == null || principal.role == null) throw forbidden("This operation needs a login; API keys cannot perform it.");
  return { merchantId: principal.merchantId, userId: principal.userId, role: principal.role };
}

const forbidden = (message: string) => new ApiError("INSUFFICIENT_PERMISSIONS", message);

function assertCanManageMembers(actor: MemberActor) {
  if (!roleAllows(actor.role, "manage_members")) throw forbidden(`Your role in this account (${actor.role}) does not allow managing members.`);
}

/** Owners are made, changed and removed by owners only: an admin cannot take the account over. */
function assertMayTouchRole(actor: MemberActor, role: Role) {
  if (role === "owner" && actor.role !== "owner") throw forbidden("Only an owner can grant, change or remove the owner role.");
}

// ─── which account a login acts in ───

/**
 * The account a login acts in: the one asked for (it must be a member), else its own account, else
 * the first it joined. A login in no account at all cannot act.
 */
export async function resolveLoginAccount(
  db: DbOrTx,
  userId: number,
  requested?: number | null,
  field = "account",
): Promise<{ merchantId: number; role: Role }> {
  if (requested != null) {
    const membership = await findMembership(db, requested, userId);
    if (!membership || !isRole(membership.role)) throw validationError({ [field]: ["You are not a member of this account."] });
    return { merchantId: membership.merchantId, role: membership.role };
  }
  const [first] = await listAccountsOfUser(db, userId);
  if (!first || !isRole(first.role)) throw forbidden("This login is a member of no merchant account.");
  return { merchantId: first.merchantId, role: first.role };
}

export async function accountsOfUser(db: DbOrTx, userId: number) {
  const rows = await listAccountsOfUser(db, userId);
  return rows.map((row) => ({ id: row.merchantId, shop_name: row.shopName, role: row.role }));
}

// ─── members ───

export async function listMembers(db: DbOrTx, merchantId: number) {
  const rows = await listMembersOfAccount(db, merchantId);
  return rows.map((row) => ({ user_id: row.userId, username: row.username, email: row.email, role: row.role, created_at: row.createdAt.toISOString() }));
}

/**
 * Changes a member's role; the API keys they made are narrowed to what the new role allows (revoked
 * when nothing is left). The account's last owner stays an owner: the account row is locked, so
 * two owners demoting each other at once cannot leave it without one.
 */
export async function changeMemberRole(db: Db, actor: MemberActor, userId: number, role: Role, now = new Date()) {
  assertCanManageMembers(actor);
  assertMayTouchRole(actor, role);
  const updated = await db.transaction(async (tx) => {
    if (!(await lockAccount(tx, actor.merchantId))) throw notFound("Member");
    const current = await findMembership(tx, actor.merchantId, userId);
    if (!current || !isRole(current.role)) throw notFound("Member");
    assertMayTouchRole(actor, current.role);
    if (current.role === "owner" && role !== "owner" && (await countOwners(tx, actor.merchantId)) <= 1) {
      throw new ApiError("CONFLICT", "An account keeps at least one owner: make another member owner first.");
    }
    const changed = await updateMembershipRole(tx, actor.merchantId, userId, role, now);
    await recordAudit(tx, {
      merchantId: actor.merchantId,
      action: "member.role_changed",
      target: `user:${userId}`,
      before: { role: current.role },
      after: { role },
      now,
    });
    await narrowKeysOfMember(tx, actor.merchantId, userId, role, now);
    return changed;
  });
  forgetMerchantCredentials(actor.merchantId);
  return updated!;
}

/**
 * Removes a member: their tokens and sessions for this account stop working, and the API keys they
 * made are revoked (issue 49); the last owner cannot be removed.
 */
export async function removeMember(db: Db, actor: MemberActor, userId: number) {
  assertCanManageMembers(actor);
  await db.transaction(async (tx) => {
    if (!(await lockAccount(tx, actor.merchantId))) throw notFound("Member");
    const current = await findMembership(tx, actor.merchantId, userId);
    if (!current || !isRole(current.role)) throw notFound("Member");
    assertMayTouchRole(actor, current.role);
    if (current.role === "owner" && (await countOwners(tx, actor.merchantId)) <= 1) {
      throw new ApiError("CONFLICT", "The account's last owner cannot be removed.");
    }
    await deleteMembership(tx, actor.merchantId, userId);
    await recordAudit(tx, { merchantId: actor.merchantId, action: "member.removed", target: `user:${userId}`, before: { role: current.role } });
    await narrowKeysOfMember(tx, actor.merchantId, userId, null, new Date());
  });
  forgetMerchantCredentials(actor.merchantId);
}

// ─── invitations ───

export function serializeInvitation(invitation: Invitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expires_at: invitation.expiresAt.toISOString(),
    created_at: invitation.createdAt.toISOString(),
  };
}

/** A new invitation as its sender sees it: with the link only when no mail server delivers it (shown this once). */
export function serializeSentInvitation({ invitation, link }: { invitation: Invitation; link: string | null }) {
  return { ...serializeInvitation(invitation), invitation_url: link };
}

function invitationLink(token: string): string {
  const url = new URL("/invite", env.APP_URL);
  url.searchParams.set("token", token);
  return url.toString();
}

/**
 * Mails a single-use invitation (7 days) to join the account with `role`; only its hash is kept.
 * A new invitation to the same address replaces the open one. At most `invitationsPerAccountPerHour`.
 */
export async function inviteMember(db: Db, actor: MemberActor, input: { email: string; role: Role }, now = new Date()) {
  assertCanManageMembers(actor);
  assertMayTouchRole(actor, input.role);
  const account = await findMerchantById(db, actor.merchantId);
  if (!account) throw notFound("Account");
  const members = await listMembersOfAccount(db, actor.merchantId);
  if (members.some((m) => m.email.toLowerCase() === input.email.toLowerCase())) {
    throw validationError({ email: ["A member of this account already uses this address."] });
  }
  const quota = await consume(db, `invite:${actor.merchantId}`, invitationsPerAccountPerHour, 60 * 60 * 1000, now);
  if (quota.exceeded) throw rateLimitedError(quota);

  const token = randomBytes(32).toString("base64url");
  await revokeOpenInvitationsTo(db, actor.merchantId, input.email, now);
  const invitation = await insertInvitation(db, {
    merchantId: actor.merchantId,
    email: input.email,
    role: input.role,
    tokenHash: sha256Hex(token),
    invitedBy: actor.userId,
    expiresAt: new Date(now.getTime() + invitationTtlMs),
    createdAt: now,
  });
  const inviter = (await findMerchantById(db, actor.userId))?.username ?? account.shopName;
  const link = invitationLink(token);
  // Filed for the login that uses the address, if one does: the link is the invitee's alone, never
  // the store's (issue 49), so no other member's outbox shows it.
  const invitee = await findMerchantByEmail(db, input.email);
  await sendMail(
    db,
    {
      merchantId: actor.merchantId,
      recipientUserId: invitee?.id ?? null,
      kind: "invitation",
      to: input.email,
      content: invitationMail(account.shopName, inviter, link, invitationTtlMs / (60 * 60 * 1000)),
    },
    now,
  );
  await recordAudit(db, {
    merchantId: actor.merchantId,
    action: "member.invited",
    target: `invitation:${invitation.id}`,
    after: { email: input.email, role: input.role },
    now,
  });
  // With no SMTP server the mail reaches nobody: its sender gets the link this once, to hand over.
  return { invitation, link: mailIsDelivered() ? null : link };
}

export async function listInvitations(db: DbOrTx, actor: MemberActor, now = new Date()) {
  assertCanManageMembers(actor);
  return (await listOpenInvitations(db, actor.merchantId, now)).map(serializeInvitation);
}

export async function cancelInvitation(db: DbOrTx, actor: MemberActor, id: number, now = new Date()) {
  assertCanManageMembers(actor);
  const revoked = await revokeInvitation(db, actor.merchantId, id, now);
  if (!revoked) throw notFound("Invitation");
  await recordAudit(db, { merchantId: actor.merchantId, action: "member.invitation_revoked", target: `invitation:${id}`, now });
}

const invalidInvitation = () => validationError({ token: ["This invitation is invalid, was already used or has expired. Ask for a new one."] });

/**
 * Spends an invitation for a login (an existing one, or one just created for it): the login joins the
 * account with the invited role. A login that is already a member keeps its role and the link stays spent.
 */
export async function acceptInvitation(db: Db, token: string, userId: number, now = new Date()) {
  const spent = await spendInvitation(db, sha256Hex(token), userId, now);
  if (!spent || !isRole(spent.role)) throw invalidInvitation();
  const joined = await insertMembership(db, { merchantId: spent.merchantId, userId, role: spent.role, createdAt: now, updatedAt: now });
  if (!joined) throw new ApiError("CONFLICT", "You are already a member of this account.");
  await recordAudit(db, { merchantId: spent.merchantId, action: "member.joined", target: `user:${userId}`, after: { role: spent.role }, now });
  return { merchantId: spent.merchantId, role: spent.role as Role };
}

/** What the accept page shows before anyone signs in: the account and role, or null for a dead link. */
export async function describeInvitation(db: DbOrTx, token: string, now = new Date()) {
  return findOpenInvitationByHash(db, sha256Hex(token), now);
}

/**
 * The accept step (API and the dashboard's /invite page): an existing login proves itself as at sign-in
 * (its password, throttled like a login, then its second factor when it has one), or a new login is
 * registered with the invited address, which the link just proved. Either way the invitation is bound
 * to its address (issue 49): an existing login must be the one using it, so a link that leaked to
 * someone else (or to another member) joins nobody else. The token is checked before anything is created.
 */
export async function acceptInvitationWithCredentials(db: Db, input: AcceptInvitationBody, clientIp: string, now = new Date()) {
  const open = await findOpenInvitationByHash(db, sha256Hex(input.token), now);
  if (!open) throw invalidInvitation();
  let user: Merchant;
  if (input.create_login) {
    const registration = registerBody.safeParse({
      username: input.username,
      email: open.email,
      password: input.password,
      shop_name: input.shop_name ?? input.username,
    });
    if (!registration.success) throw validationError(fieldErrors(registration.error));
    user = await registerMerchant(db, registration.data, now, { emailVerified: true });
  } else {
    const found = input.username.includes("\u0000") ? null : await findMerchantByUsername(db, input.username);
    const attempt = await beginLoginAttempt(db, input.username, clientIp, found?.id ?? null, now);
    const valid = found ? await verifyPassword(found.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
    if (!found || !valid) throw new ApiError("INVALID_CREDENTIALS", "Invalid username or password.");
    await attempt.succeeded();
    if (found.email.toLowerCase() !== open.email.toLowerCase()) {
      throw validationError({ username: ["This invitation was sent to another address: accept it with the login that uses that address, or create a login."] });
    }
    await assertFreshSecondFactor(db, found.id, input.code, { field: "code", now });
    user = found;
  }
  const joined = await acceptInvitation(db, input.token, user.id, now);
  return { user: { id: user.id, username: user.username }, account: { id: joined.merchantId, shop_name: open.shopName, role: joined.role } };
}
