import "server-only";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { apiKeyPrefixes } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import { sha256Hex } from "./hash";
import { verifyToken } from "./jwt";
import { allPermissions, type Permission } from "./permissions";
import { findApiKeyForAuth, findMerchantPlan, isRefreshFamilyRevoked, touchApiKey } from "./queries";

/** Who is calling, as withApi hands it to handlers. */
export interface Principal {
  kind: "access_token" | "api_key" | "session";
  merchantId: number;
  username: string;
  permissions: Permission[];
  /** When the credential stops working (null: never). */
  expiresAt: Date | null;
  apiKeyId?: number;
  plan: string;
  rateLimitPerHour: number | null;
}

const invalidToken = (message: string) => new ApiError("INVALID_TOKEN", message);

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Resolves the Bearer credential (API key or access JWT); throws 401 INVALID_TOKEN otherwise. */
export async function authenticate(db: Db, request: Request, now = new Date()): Promise<Principal> {
  const token = bearerToken(request);
  if (!token) throw invalidToken("Authentication credentials were not provided.");

  if (apiKeyPrefixes.some((prefix) => token.startsWith(prefix))) {
    const expectedPrefix = env.GATEWAY_MODE === "live" ? "sk_live_" : "sk_test_";
    if (!token.startsWith(expectedPrefix)) throw invalidToken(`This deployment accepts only ${expectedPrefix} keys.`);
    const key = await findApiKeyForAuth(db, sha256Hex(token));
    if (!key || key.revokedAt) throw invalidToken("API key is invalid or revoked.");
    if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) throw invalidToken("API key has expired.");
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= 60_000) await touchApiKey(db, key.id, now);
    return {
      kind: "api_key",
      merchantId: key.merchantId,
      username: key.username,
      permissions: allPermissions.filter((p) => key.permissions.includes(p)),
      expiresAt: key.expiresAt,
      apiKeyId: key.id,
      plan: key.plan,
      rateLimitPerHour: key.rateLimitPerHour,
    };
  }

  const claims = await verifyToken(token, "access");
  if (!claims) throw invalidToken("Token is invalid or expired.");
  if (claims.familyId && (await isRefreshFamilyRevoked(db, claims.familyId))) throw invalidToken("Token was revoked.");
  const merchant = await findMerchantPlan(db, claims.merchantId);
  if (!merchant) throw invalidToken("Token is invalid or expired.");
  return {
    kind: "access_token",
    merchantId: merchant.id,
    username: merchant.username,
    permissions: [...allPermissions],
    expiresAt: claims.expiresAt,
    plan: merchant.plan,
    rateLimitPerHour: merchant.rateLimitPerHour,
  };
}
