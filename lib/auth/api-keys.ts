import "server-only";
import type { ApiKey } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import type { CreateApiKeyBody } from "./api-key-schemas";
import { forgetMerchantCredentials } from "./credential-cache";
import { sha256Hex } from "./hash";
import { normalizePermissions, permissionPresets, type Permission } from "./permissions";
import { findMerchantApiKey, insertApiKey, listActiveKeysOfCreator, narrowApiKeyPermissions, revokeMerchantApiKey } from "./queries";
import { roleAllows, type Role } from "./roles";
import { assertFreshSecondFactor } from "./second-factor";

/** How much of the key stays visible: the mode prefix plus 4 characters (e.g. `sk_test_3fA9`). */
const visiblePrefixLength = "sk_test_".length + 4;

export function serializeApiKey(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    permissions: key.permissions,
    expires_at: key.expiresAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
    created_by: key.createdBy,
    revoked: key.revokedAt !== null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of a key: never its secret or hash, only the visible prefix. */
function auditedKey(key: ApiKey) {
  return { name: key.name, prefix: key.prefix, permissions: key.permissions, expires_at: key.expiresAt?.toISOString() ?? null };
}

/** Who makes a key: a login with its role in the account (keys are managed with a login only). */
export interface KeyCreator {
  merchantId: number;
  userId: number;
  role: Role;
}

/**
 * Creates a key; the secret is returned here and never again (only its hash is stored). A key
 * carries at most what its maker's role allows (issue 49: a developer cannot mint `manage_wallets`),
 * and names its maker, so it follows them when their role shrinks or they leave (`narrowKeysOfMember`).
 * With a second factor enabled, `reauth.code` must be a fresh code (`codeField` names it in a form).
 */
export async function createApiKey(
  db: DbOrTx,
  creator: KeyCreator,
  input: CreateApiKeyBody,
  now = new Date(),
  { codeField = "reauth.code" }: { codeField?: string } = {},
) {
  const { merchantId } = creator;
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw validationError({ expires_at: ["Expiry must be in the future."] });
  const permissions: Permission[] = normalizePermissions(input.preset ? permissionPresets[input.preset] : (input.permissions ?? []));
  const beyondRole = permissions.filter((p) => !roleAllows(creator.role, p));
  if (beyondRole.length > 0) {
    throw new ApiError(
      "INSUFFICIENT_PERMISSIONS",
      `Your role in this account (${creator.role}) cannot give a key ${beyondRole.join(", ")}: a key carries at most its maker's permissions.`,
    );
  }
  await assertFreshSecondFactor(db, creator.userId, input.reauth?.code, { field: codeField, now, passkey: input.reauth?.passkey });
  const secret = newId("apiKey");
  const record = await db.transaction(async (tx) => {
    const row = await insertApiKey(tx, {
      merchantId,
      name: input.name,
      prefix: secret.slice(0, visiblePrefixLength),
      keyHash: sha256Hex(secret),
      permissions,
      createdBy: creator.userId,
      expiresAt,
      createdAt: now,
    });
    await recordAudit(tx, { merchantId, action: "api_key.created", target: `api_key:${row.id}`, after: auditedKey(row), now });
    return row;
  });
  return { key: secret, record };
}

/** Revokes one of the merchant's keys; revoking twice is harmless; another merchant's key is 404. */
export async function revokeApiKey(db: DbOrTx, merchantId: number, id: number, now = new Date()) {
  const revoked = await db.transaction(async (tx) => {
    const row = await revokeMerchantApiKey(tx, merchantId, id, now);
    if (row) await recordAudit(tx, { merchantId, action: "api_key.revoked", target: `api_key:${row.id}`, before: auditedKey(row), now });
    return row;
  });
  if (revoked) {
    forgetMerchantCredentials(merchantId);
    return revoked;
  }
  const existing = await findMerchantApiKey(db, merchantId, id);
  if (!existing) throw notFound("API key");
  return existing;
}

/**
 * After a member's role changed (`role`) or they left the account (`role` null), in that
 * transaction: every live key they made is narrowed to what the new role allows, or revoked when
 * nothing is left (or they left), each change audited. Returns how many keys changed; the caller
 * forgets cached credentials after commit.
 */
export async function narrowKeysOfMember(tx: DbOrTx, merchantId: number, userId: number, role: Role | null, now: Date): Promise<number> {
  const keys = await listActiveKeysOfCreator(tx, merchantId, userId);
  let changed = 0;
  for (const key of keys) {
    const kept = role === null ? [] : key.permissions.filter((p) => roleAllows(role, p as Permission));
    if (kept.length === key.permissions.length) continue;
    changed += 1;
    if (kept.length === 0) {
      const row = await revokeMerchantApiKey(tx, merchantId, key.id, now);
      if (row)
        await recordAudit(tx, {
          merchantId,
          action: "api_key.revoked",
          target: `api_key:${key.id}`,
          before: auditedKey(key),
          after: { reason: role === null ? "maker_removed" : "maker_role_changed" },
          now,
        });
    } else {
      const row = await narrowApiKeyPermissions(tx, merchantId, key.id, kept);
      if (row)
        await recordAudit(tx, {
          merchantId,
          action: "api_key.narrowed",
          target: `api_key:${key.id}`,
          before: auditedKey(key),
          after: { ...auditedKey(row), reason: "maker_role_changed" },
          now,
        });
    }
  }
  return changed;
}
