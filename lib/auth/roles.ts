import { z } from "zod";
import { allPermissions, type Permission } from "./permissions";

/** A member's role in a merchant account (issue 28), most powerful first. */
export const allRoles = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof allRoles)[number];
export const role = z.enum(allRoles);

/**
 * What only a login may do, on top of the API permissions: manage API keys, change the account's
 * settings and secret, manage its members. API keys never carry these.
 */
export const memberOnlyPermissions = ["manage_api_keys", "manage_account", "manage_members"] as const;
export type MemberOnlyPermission = (typeof memberOnlyPermissions)[number];
export type MemberPermission = Permission | MemberOnlyPermission;

/** Each role's permissions. The developer has API keys, webhooks and the sandbox (which creates test payments), not payout wallets or members. */
export const rolePermissions: Record<Role, readonly MemberPermission[]> = {
  owner: [...allPermissions, ...memberOnlyPermissions],
  admin: [...allPermissions, ...memberOnlyPermissions],
  developer: ["read", "create_payments", "manage_webhooks", "manage_api_keys"],
  viewer: ["read"],
};

export function roleAllows(memberRole: Role, needed: MemberPermission): boolean {
  return rolePermissions[memberRole].includes(needed);
}

/** A role's API permissions (what GET /api/auth/verify/ reports for a login). */
export function apiPermissionsOf(memberRole: Role): Permission[] {
  return allPermissions.filter((p) => rolePermissions[memberRole].includes(p));
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (allRoles as readonly string[]).includes(value);
}
