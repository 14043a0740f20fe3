import "server-only";
import { randomUUID } from "node:crypto";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import { getAuthSecret } from "./secret";

/** spec › Limits: access tokens live 24 hours, refresh tokens 30 days. */
export const accessTokenTtlSeconds = 24 * 60 * 60;
export const refreshTokenTtlSeconds = 30 * 24 * 60 * 60;

export type TokenType = "access" | "refresh";

export interface TokenClaims {
  merchantId: number;
  username: string;
  type: TokenType;
  /** refresh tokens: the rotation family */
  familyId?: string;
  expiresAt: Date;
}

export async function signToken(claims: Omit<TokenClaims, "expiresAt">, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + (claims.type === "access" ? accessTokenTtlSeconds : refreshTokenTtlSeconds);
  const token = await new SignJWT({ username: claims.username, typ: claims.type, ...(claims.familyId ? { fam: claims.familyId } : {}) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(claims.merchantId))
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(getAuthSecret());
  return { token, expiresAt: new Date(exp * 1000) };
}

/** Verifies signature, expiry and type; null for anything that is not a valid token of that type. */
export async function verifyToken(token: string, type: TokenType): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, getAuthSecret(), { algorithms: ["HS256"], currentDate: new Date() });
    const merchantId = Number(payload.sub);
    if (payload.typ !== type || !Number.isSafeInteger(merchantId) || typeof payload.username !== "string" || !payload.exp) return null;
    return {
      merchantId,
      username: payload.username,
      type,
      familyId: typeof payload.fam === "string" ? payload.fam : undefined,
      expiresAt: new Date(payload.exp * 1000),
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
