import "server-only";
import type { ApiKey } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { notFound, validationError } from "@/lib/http/errors";
import type { CreateApiKeyBody } from "./api-key-schemas";
import { forgetMerchantCredentials } from "./credential-cache";
import { sha256Hex } from "./hash";
import { normalizePermissions, permissionPresets, type Permission } from "./permissions";
import { findMerchantApiKey, insertApiKey, revokeMerchantApiKey } from "./queries";
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
    revoked: key.revokedAt !== null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of a key: never its secret or hash, only the visible prefix. */
function auditedKey(key: ApiKey) {
  return { name: key.name, prefix: key.prefix, permissions: key.permissions, expires_at: key.expiresAt?.toISOString() ?? null };
}

/**
 * Creates a key; the secret is returned here and never again (only its hash is stored). With a
 * second factor enabled, `reauth.code` must be a fresh code (`codeField` names it in a form).
 */
export async function createApiKey(db: DbOrTx, merchantId: number, input: CreateApiKeyBody, now = new Date(), { codeField = "reauth.code", userId }: { codeField?: string; userId?: number | null } = {}) {
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw validationError({ expires_at: ["Expiry must be in the future."] });
  await assertFreshSecondFactor(db, userId ?? merchantId, input.reauth?.code, { field: codeField, now, passkey: input.reauth?.passkey });
  const permissions: Permission[] = normalizePermissions(input.preset ? permissionPresets[input.preset] : (input.permissions ?? []));
  const secret = newId("apiKey");
  const record = await db.transaction(async (tx) => {
    const row = await insertApiKey(tx, {
      merchantId,
      name: input.name,
      prefix: secret.slice(0, visiblePrefixLength),
      keyHash: sha256Hex(secret),
      permissions,
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

