import "server-only";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { apiKeyPrefixes } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import { sha256Hex } from "./hash";
import { verifyToken } from "./jwt";
import { allPermissions, type Permission } from "./permissions";
import { findApiKeyAndCount, findTokenMerchantAndCount } from "./queries";
import { hourlyLimit, merchantWindow, windowState, type RateLimitState } from "./rate-limit";

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

/**
 * Resolves the Bearer credential (API key or access JWT) and counts the request against the
 * merchant's hourly limit, in one database round trip; throws 401 INVALID_TOKEN for a bad
 * credential (which is not counted). The quota is reported, not enforced: withApi decides.
 */
export async function authenticateAndCount(db: Db, request: Request, now = new Date()): Promise<{ principal: Principal; quota: RateLimitState }> {
  const token = bearerToken(request);
  if (!token) throw invalidToken("Authentication credentials were not provided.");
  const window = merchantWindow(now);

  if (apiKeyPrefixes.some((prefix) => token.startsWith(prefix))) {
    const expectedPrefix = env.GATEWAY_MODE === "live" ? "sk_live_" : "sk_test_";
    if (!token.startsWith(expectedPrefix)) throw invalidToken(`This deployment accepts only ${expectedPrefix} keys.`);
    const key = await findApiKeyAndCount(db, sha256Hex(token), window.start, now);
    if (!key || key.revokedAt) throw invalidToken("API key is invalid or revoked.");
    if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) throw invalidToken("API key has expired.");
    const principal: Principal = {
      kind: "api_key",
      merchantId: key.merchantId,
      username: key.username,
      permissions: allPermissions.filter((p) => key.permissions.includes(p)),
      expiresAt: key.expiresAt,
      apiKeyId: key.id,
      plan: key.plan,
      rateLimitPerHour: key.rateLimitPerHour,
    };
    return { principal, quota: windowState(key.used ?? 0, hourlyLimit(key.plan, key.rateLimitPerHour), window, now) };
  }

  const claims = await verifyToken(token, "access");
  if (!claims) throw invalidToken("Token is invalid or expired.");
  const { revoked, merchant } = await findTokenMerchantAndCount(db, claims.merchantId, claims.familyId ?? null, window.start);
  if (revoked) throw invalidToken("Token was revoked.");
  if (!merchant) throw invalidToken("Token is invalid or expired.");
  const principal: Principal = {
    kind: "access_token",
    merchantId: merchant.merchantId,
    username: merchant.username,
    permissions: [...allPermissions],
    expiresAt: claims.expiresAt,
    plan: merchant.plan,
    rateLimitPerHour: merchant.rateLimitPerHour,
  };
  return { principal, quota: windowState(merchant.used ?? 0, hourlyLimit(merchant.plan, merchant.rateLimitPerHour), window, now) };
}
