import "server-only";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { apiKeyPrefixes } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import { sha256Hex } from "./hash";
import { verifyToken } from "./jwt";
import { allPermissions, type Permission } from "./permissions";
import { apiPermissionsOf, isRole, type Role } from "./roles";
import { apiKeyCacheKey, cachedCredential, loginFamilyCacheKey, rememberCredential, type CachedApiKey, type CachedLoginFamily } from "./credential-cache";
import { findApiKeyAndCount, findTokenMerchantAndCount } from "./queries";
import { fixedWindow, windowState, type RateLimitState } from "@/lib/rate-limit/fixed-window";
import { hourlyLimit } from "./rate-limit";

/** Who is calling, as withApi hands it to handlers. */
export interface Principal {
  kind: "access_token" | "api_key" | "session";
  /** The merchant account acted in. */
  merchantId: number;
  username: string;
  /** API permissions; a login's come from its role. */
  permissions: Permission[];
  /** A login's person and role in the account (issue 28); null for an API key. */
  userId: number | null;
  role: Role | null;
  /** When the credential stops working (null: never). */
  expiresAt: Date | null;
  apiKeyId?: number;
  /** An access token's login family (its session on the sessions page). */
  familyId?: string;
  /** An access token: when its login gave the password (and second factor); null otherwise. */
  signedInAt: Date | null;
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
 * Resolves the Bearer credential (API key or access JWT); throws 401 INVALID_TOKEN for a bad one
 * (which is never counted). What the database says about a credential is reused for
 * `credentialCacheTtlMs` (lib/auth/credential-cache.ts); when it has to be asked, the same
 * statement counts the request against the merchant's hourly limit and `quota` says so. On a
 * reused answer the request is not counted yet (`quota` null): withApi counts it, on its own or
 * in the route's statement (RequestMeter). The quota is reported, not enforced: withApi decides.
 */
export async function authenticate(db: Db, request: Request, now = new Date()): Promise<{ principal: Principal; quota: RateLimitState | null }> {
  const token = bearerToken(request);
  if (!token) throw invalidToken("Authentication credentials were not provided.");

  if (apiKeyPrefixes.some((prefix) => token.startsWith(prefix))) {
    const expectedPrefix = env.GATEWAY_MODE === "live" ? "sk_live_" : "sk_test_";
    if (!token.startsWith(expectedPrefix)) throw invalidToken(`This deployment accepts only ${expectedPrefix} keys.`);
    const keyHash = sha256Hex(token);
    const cacheKey = apiKeyCacheKey(keyHash);
    const cached = cachedCredential(cacheKey, "api_key", now);
    if (cached) {
      if (cached.expiresAt && cached.expiresAt.getTime() <= now.getTime()) throw invalidToken("API key has expired.");
      return { principal: apiKeyPrincipal(cached), quota: null };
    }
    const window = fixedWindow(now);
    const key = await findApiKeyAndCount(db, keyHash, window.start, now);
    if (!key || key.revokedAt) throw invalidToken("API key is invalid or revoked.");
    if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) throw invalidToken("API key has expired.");
    const found: CachedApiKey = {
      kind: "api_key",
      apiKeyId: key.id,
      merchantId: key.merchantId,
      username: key.username,
      permissions: key.permissions,
      expiresAt: key.expiresAt,
      plan: key.plan,
      rateLimitPerHour: key.rateLimitPerHour,
    };
    rememberCredential(cacheKey, found, now);
    return { principal: apiKeyPrincipal(found), quota: windowState(key.used ?? 0, hourlyLimit(key.plan, key.rateLimitPerHour), window, now) };
  }

  const claims = await verifyToken(token, "access");
  if (!claims) throw invalidToken("Token is invalid or expired.");
  const familyId = claims.familyId ?? null;
  const cacheKey = familyId ? loginFamilyCacheKey(familyId) : null;
  const cached = cacheKey ? cachedCredential(cacheKey, "login_family", now) : null;
  if (cached && cached.merchantId === claims.accountId && cached.userId === claims.merchantId)
    return { principal: accessTokenPrincipal(cached, claims.expiresAt, familyId, claims.authAt), quota: null };
  const window = fixedWindow(now);
  const { revoked, merchant } = await findTokenMerchantAndCount(db, claims.accountId, claims.merchantId, familyId, window.start);
  if (revoked) throw invalidToken("Token was revoked.");
  // No such account, or the login is no longer one of its members.
  if (!merchant || !isRole(merchant.role)) throw invalidToken("Token is invalid or expired.");
  const found: CachedLoginFamily = {
    kind: "login_family",
    merchantId: merchant.merchantId,
    userId: claims.merchantId,
    role: merchant.role,
    username: merchant.username,
    plan: merchant.plan,
    rateLimitPerHour: merchant.rateLimitPerHour,
  };
  if (cacheKey) rememberCredential(cacheKey, found, now);
  return {
    principal: accessTokenPrincipal(found, claims.expiresAt, familyId, claims.authAt),
    quota: windowState(merchant.used ?? 0, hourlyLimit(merchant.plan, merchant.rateLimitPerHour), window, now),
  };
}

function apiKeyPrincipal(key: CachedApiKey): Principal {
  return {
    kind: "api_key",
    merchantId: key.merchantId,
    username: key.username,
    permissions: allPermissions.filter((p) => key.permissions.includes(p)),
    expiresAt: key.expiresAt,
    signedInAt: null,
    userId: null,
    role: null,
    apiKeyId: key.apiKeyId,
    plan: key.plan,
    rateLimitPerHour: key.rateLimitPerHour,
  };
}

function accessTokenPrincipal(family: CachedLoginFamily, expiresAt: Date, familyId: string | null, signedInAt: Date | null): Principal {
  return {
    signedInAt,
    ...(familyId && { familyId }),
    kind: "access_token",
    merchantId: family.merchantId,
    username: family.username,
    permissions: apiPermissionsOf(family.role),
    userId: family.userId,
    role: family.role,
    expiresAt,
    plan: family.plan,
    rateLimitPerHour: family.rateLimitPerHour,
  };
}
