import { z } from "zod";
import { registerBody, secondFactorCode } from "@/lib/auth/schemas";
import { allRoles } from "@/lib/auth/roles";
import { rowId, timestamp } from "@/lib/http/schemas";

const roleField = z.enum(allRoles).describe("owner | admin | developer (API keys, webhooks, sandbox) | viewer (read only)");

export const inviteBody = z.object({
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("Where the invitation is mailed"),
  role: roleField,
});
export type InviteBody = z.infer<typeof inviteBody>;

export const changeRoleBody = z.object({ role: roleField });

export const memberParams = z.object({ userId: rowId });

/** Accepting an invitation: with an existing login's credentials, or (`create_login`) a new login with its own account. */
export const acceptInvitationBody = z.object({
  token: z.string().min(1).max(256).describe("The `token` of the invitation link"),
  username: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(256),
  create_login: z
    .boolean()
    .optional()
    .describe("true: create this login (the invitation's address becomes its email, already verified); otherwise attach an existing login"),
  shop_name: registerBody.shape.shop_name.optional().describe("A new login's own account name; default: the username"),
  code: secondFactorCode.optional().describe("An existing login with two-factor authentication: a current TOTP code or one of its recovery codes"),
});
export type AcceptInvitationBody = z.infer<typeof acceptInvitationBody>;

export const memberJson = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: roleField,
  created_at: timestamp.describe("When they joined"),
});

export const invitationJson = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleField,
  expires_at: timestamp,
  created_at: timestamp,
});

export const sentInvitationJson = invitationJson.extend({
  invitation_url: z
    .string()
    .nullable()
    .describe(
      "The invitation link, only when this deployment sends no mail (no SMTP server): hand it to the invitee yourself. Shown this once; null when the mail was sent",
    ),
});

export const accountMembershipJson = z.object({ id: z.number().int(), shop_name: z.string(), role: roleField });

export const acceptedInvitationJson = z.object({
  user: z.object({ id: z.number().int(), username: z.string() }),
  account: accountMembershipJson,
});
