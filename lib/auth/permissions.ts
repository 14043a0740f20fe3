import { z } from "zod";

/** DESIGN › Permissions. Login tokens carry all four. */
export const allPermissions = ["read", "create_payments", "manage_webhooks", "manage_wallets"] as const;
export type Permission = (typeof allPermissions)[number];
export const permission = z.enum(allPermissions);

/** API key presets (spec › Authentication item 7). */
export const permissionPresets = {
  read_only: ["read"],
  create_payments: ["read", "create_payments"],
  manage_webhooks: ["read", "manage_webhooks"],
  full_access: [...allPermissions],
} as const satisfies Record<string, readonly Permission[]>;
export type PermissionPreset = keyof typeof permissionPresets;
export const permissionPreset = z.enum(Object.keys(permissionPresets) as [PermissionPreset, ...PermissionPreset[]]);

/** Permissions in their canonical order, without duplicates. */
export function normalizePermissions(list: readonly Permission[]): Permission[] {
  return allPermissions.filter((p) => list.includes(p));
}
