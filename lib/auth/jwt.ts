import "server-only";
import { randomUUID } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { env } from "@/lib/env";
import { getAuthSecret } from "./secret";

/** spec › Limits: access tokens live 24 hours, refresh tokens 30 days. */
export const accessTokenTtlSeconds = 24 * 60 * 60;
export const refreshTokenTtlSeconds = 30 * 24 * 60 * 60;

export type TokenType = "access" | "refresh";

export interface TokenClaims {
  /** The login (the person): `sub`. */
  merchantId: number;
  /** The merchant account the token acts in (`acc`; issue 28); tokens from before it act in the login's own account. */
  accountId: number;
  username: string;
  type: TokenType;
  /** refresh tokens: the rotation family */
  familyId?: string;
  /**
   * When the login behind the token gave its password (and second factor) (`auth_time`, as OpenID
   * Connect names it): kept through refreshes, so a refreshed token is no fresher than its sign-in.
   * Null for tokens issued before it was recorded.
   */
  authAt: Date | null;
  expiresAt: Date;
}

/**
 * Tokens name the deployment that issued them: `iss` is the public origin (APP_URL) and `aud` the
 * mode (`gateway:sandbox` / `gateway:live`), so a sandbox token is refused by a live deployment
 * even where both were (wrongly) given the same AUTH_SECRET. Read when used, like the mode itself.
 */
export function tokenIssuer(): string {
  return new URL(env.APP_URL).origin;
}
export function tokenAudience(): string {
  return `gateway:${env.GATEWAY_MODE}`;
}

export async function signToken(
  claims: Omit<TokenClaims, "expiresAt" | "accountId" | "authAt"> & { accountId?: number; authAt?: Date | null },
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + (claims.type === "access" ? accessTokenTtlSeconds : refreshTokenTtlSeconds);
  const token = await new SignJWT({
    username: claims.username,
    typ: claims.type,
    acc: claims.accountId ?? claims.merchantId,
    ...(claims.familyId ? { fam: claims.familyId } : {}),
    ...(claims.authAt ? { auth_time: Math.floor(claims.authAt.getTime() / 1000) } : {}),
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(claims.merchantId))
    .setIssuer(tokenIssuer())
    .setAudience(tokenAudience())
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(getAuthSecret());
  return { token, expiresAt: new Date(exp * 1000) };
}

/** Verifies signature, expiry, issuer, audience, type and family; null for anything that is not a valid token of that type. */
export async function verifyToken(token: string, type: TokenType): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, getAuthSecret(), {
      algorithms: ["HS256"],
      currentDate: new Date(),
      issuer: tokenIssuer(),
      audience: tokenAudience(),
    });
    const merchantId = Number(payload.sub);
    if (payload.typ !== type || !Number.isSafeInteger(merchantId) || typeof payload.username !== "string" || !payload.exp) return null;
    // Every token this gateway issues belongs to a login family.
    if (typeof payload.fam !== "string" || payload.fam === "") return null;
    const accountId = payload.acc === undefined ? merchantId : Number(payload.acc);
    if (!Number.isSafeInteger(accountId)) return null;
    return {
      merchantId,
      accountId,
      username: payload.username,
      type,
      familyId: typeof payload.fam === "string" ? payload.fam : undefined,
      authAt: typeof payload.auth_time === "number" && Number.isFinite(payload.auth_time) ? new Date(payload.auth_time * 1000) : null,
      expiresAt: new Date(payload.exp * 1000),
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
