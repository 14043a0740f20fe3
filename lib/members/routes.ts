import { createdAnswer, defineRoute, okAnswer } from "@/lib/http/define-route";
import { idParams } from "@/lib/http/schemas";
import { z } from "zod";
import {
  acceptInvitationBody,
  acceptedInvitationJson,
  accountMembershipJson,
  changeRoleBody,
  invitationJson,
  inviteBody,
  memberJson,
  memberParams,
  sentInvitationJson,
} from "./schemas";

/** Team members, invitations and the accounts of a login (issue 28). */
export const memberRoutes = {
  listAccounts: defineRoute({
    method: "GET",
    path: "/api/accounts",
    access: "login",
    doc: {
      summary: "List my accounts",
      description: "The merchant accounts this login belongs to and its role in each, its own first. Log in with `account` to act in another one.",
      tags: ["Members"],
      response: okAnswer(z.array(accountMembershipJson)),
    },
  }),
  listMembers: defineRoute({
    method: "GET",
    path: "/api/account/members",
    access: "login",
    doc: {
      summary: "List the account's members",
      description: "Every login with a role in this account, in the order they joined.",
      tags: ["Members"],
      response: okAnswer(z.array(memberJson)),
    },
  }),
  changeMemberRole: defineRoute({
    method: "PUT",
    path: "/api/account/members/[userId]",
    access: "manage_members",
    params: memberParams,
    body: changeRoleBody,
    doc: {
      summary: "Change a member's role",
      description:
        "Owners and admins; only an owner grants, changes or removes the owner role (403 INSUFFICIENT_PERMISSIONS). The account keeps at least one owner: demoting the last one is 409 CONFLICT. The member's tokens and sessions follow the new role at once.",
      tags: ["Members"],
      response: okAnswer(memberJson, "Role changed."),
      errors: ["CONFLICT"],
    },
  }),
  removeMember: defineRoute({
    method: "DELETE",
    path: "/api/account/members/[userId]",
    access: "manage_members",
    params: memberParams,
    doc: {
      summary: "Remove a member",
      description:
        "Owners and admins (an owner only by an owner). The member's tokens and sessions for this account stop working. The last owner cannot be removed (409 CONFLICT).",
      tags: ["Members"],
      response: okAnswer(z.object({ user_id: z.number().int() }), "Member removed."),
      errors: ["CONFLICT"],
    },
  }),
  listInvitations: defineRoute({
    method: "GET",
    path: "/api/account/invitations",
    access: "manage_members",
    doc: {
      summary: "List open invitations",
      description: "Invitations neither accepted, revoked nor expired.",
      tags: ["Members"],
      response: okAnswer(z.array(invitationJson)),
    },
  }),
  invite: defineRoute({
    method: "POST",
    path: "/api/account/invitations",
    access: "manage_members",
    body: inviteBody,
    doc: {
      summary: "Invite a member by email",
      description:
        "Mails a single-use link (valid 7 days) to join this account with `role`; only its hash is stored, and a new invitation to the same address replaces the open one. The link is the invitee's: it is filed in no other member's outbox, and only a login using the invited address can accept it. With no SMTP server the answer carries it once in `invitation_url`, for the sender to hand over. Only an owner invites an owner. An address a member already uses: 400 VALIDATION_ERROR on email. At most 20 invitations an hour per account (429).",
      tags: ["Members"],
      response: createdAnswer(sentInvitationJson, "Invitation sent."),
      errors: ["RATE_LIMITED"],
    },
  }),
  revokeInvitation: defineRoute({
    method: "DELETE",
    path: "/api/account/invitations/[id]",
    access: "manage_members",
    params: idParams,
    doc: {
      summary: "Revoke an invitation",
      description: "Its link stops working.",
      tags: ["Members"],
      response: okAnswer(z.object({ id: z.number().int() }), "Invitation revoked."),
    },
  }),
  acceptInvitation: defineRoute({
    method: "POST",
    path: "/api/auth/invitations/accept",
    access: "public",
    body: acceptInvitationBody,
    clientLimit: { name: "invitation-accept", perHour: 30 },
    doc: {
      summary: "Accept an invitation",
      description:
        "Spends the link's token: an existing login (its username and password; wrong ones count toward the login throttle: 401 INVALID_CREDENTIALS; with two-factor authentication also `code`, else 400 on `code`) joins the account with the invited role, if it is the login using the invited address (else 400 on `username`), or with `create_login` a new login is registered (its email is the invited address, verified; it also gets its own account) and joins. Then log in with `account` to act in it. An invalid, used, revoked or expired token: 400 with `details.token`. At most 30 attempts an hour per client address.",
      tags: ["Authentication", "Members"],
      response: createdAnswer(acceptedInvitationJson, "Invitation accepted."),
      errors: ["INVALID_CREDENTIALS", "CONFLICT", "RATE_LIMITED"],
    },
  }),
};
