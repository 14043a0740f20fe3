import "server-only";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { apiKeys, type ApiKey } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { notFound, validationError } from "@/lib/http/errors";
import type { CreateApiKeyBody } from "./api-key-schemas";
import { forgetMerchantCredentials } from "./credential-cache";
import { sha256Hex } from "./hash";
import { normalizePermissions, permissionPresets, type Permission } from "./permissions";

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

/** Creates a key; the secret is returned here and never again (only its hash is stored). */
export async function createApiKey(db: DbOrTx, merchantId: number, input: CreateApiKeyBody, now = new Date()) {
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw validationError({ expires_at: ["Expiry must be in the future."] });
  const permissions: Permission[] = normalizePermissions(input.preset ? permissionPresets[input.preset] : (input.permissions ?? []));
  const secret = newId("apiKey");
  const [row] = await db
    .insert(apiKeys)
    .values({
      merchantId,
      name: input.name,
      prefix: secret.slice(0, visiblePrefixLength),
      keyHash: sha256Hex(secret),
      permissions,
      expiresAt,
      createdAt: now,
    })
    .returning();
  return { key: secret, record: row! };
}

export async function listApiKeys(db: DbOrTx, merchantId: number, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(apiKeys).where(eq(apiKeys.merchantId, merchantId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(limit).offset(offset),
    db.select({ value: count() }).from(apiKeys).where(eq(apiKeys.merchantId, merchantId)),
  ]);
  return { rows, count: total?.value ?? 0 };
}

/** Revokes one of the merchant's keys; revoking twice is harmless; another merchant's key is 404. */
export async function revokeApiKey(db: DbOrTx, merchantId: number, rawId: string, now = new Date()) {
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : null;
  if (id === null) throw notFound("API key");
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
    .returning();
  if (revoked) {
    forgetMerchantCredentials(merchantId);
    return revoked;
  }
  const [existing] = await db.select().from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId))).limit(1);
  if (!existing) throw notFound("API key");
  return existing;
}

