import "server-only";
import { randomUUID } from "node:crypto";
import { currentActor, type AuditActor } from "@/lib/audit/context";
import { recordAudit } from "@/lib/audit/record";
import type { Db, DbOrTx } from "@/lib/db/types";
import type { Merchant } from "@/lib/db/schema";
import { ApiError } from "@/lib/http/errors";
import { noticeSignInFromNewAddress } from "@/lib/mail/account-emails";
import { resolveLoginAccount } from "@/lib/members/members";
import { findMembership } from "@/lib/members/queries";
import { forgetLoginFamily } from "./credential-cache";
import { insertLoginSession, markLoginSessionRevoked, touchLoginSession } from "./login-session-queries";
import { sha256Hex } from "./hash";
import { signToken, verifyToken } from "./jwt";
import { beginLoginAttempt, recordLoginSuccess } from "./login-throttle";
import { passkeyAuthenticationOptions } from "./passkeys";
import { verifyAgainstDummy, verifyPassword } from "./passwords";
import type { PasskeyAssertion } from "./schemas";
import { assertLoginSecondFactor, hasEnabledSecondFactor, secondFactorMethods, secondFactorRequired } from "./second-factor";
import {
  findMerchantById,
  findMerchantByUsername,
  findRefreshTokenByHash,
  insertRefreshToken,
  isRefreshFamilyRevoked,
  revokeRefreshFamily,
  spendRefreshToken,
} from "./queries";

export interface TokenPair {
  access: string;
  refresh: string;
}

/**
 * `accountId`: the merchant account the pair acts in (the login must be a member; checked on every use).
 * `authAt`: when the login gave its password (and second factor): now at a sign-in, the old one at a refresh.
 */
async function issuePair(
  db: DbOrTx,
  merchant: Pick<Merchant, "id" | "username">,
  familyId: string,
  now: Date,
  accountId: number,
  authAt: Date | null,
): Promise<TokenPair> {
  // The access token names its family too, so revoking the family ends it as well.
  const access = await signToken({ merchantId: merchant.id, accountId, username: merchant.username, type: "access", familyId, authAt }, now);
  const refresh = await signToken({ merchantId: merchant.id, accountId, username: merchant.username, type: "refresh", familyId, authAt }, now);
  await insertRefreshToken(db, {
    merchantId: merchant.id,
    familyId,
    tokenHash: sha256Hex(refresh.token),
    expiresAt: refresh.expiresAt,
    createdAt: now,
  });
  return { access: access.token, refresh: refresh.token };
}

/** The person signing in, as the audit log names them: a dashboard session or an API login. */
function signingInActor(merchant: Pick<Merchant, "username">): AuditActor {
  const actor = currentActor();
  return { ...actor, kind: actor.via === "dashboard" ? "session" : "access_token", label: merchant.username };
}

/**
 * A completed sign-in: a new login family with its token pair, the session the sessions page lists
 * (device, address) and its audit entry, in one transaction.
 */
async function openLoginSession(
  db: Db,
  merchant: Pick<Merchant, "id" | "username">,
  method: string,
  clientIp: string,
  now: Date,
  accountId: number,
): Promise<TokenPair> {
  const actor = signingInActor(merchant);
  const familyId = randomUUID();
  return db.transaction(async (tx) => {
    const tokens = await issuePair(tx, merchant, familyId, now, accountId, now);
    await insertLoginSession(tx, {
      familyId,
      merchantId: merchant.id,
      kind: actor.via ?? "api",
      userAgent: actor.userAgent?.slice(0, 512) ?? null,
      clientIp,
      createdAt: now,
      lastSeenAt: now,
      lastSeenIp: clientIp,
    });
    await recordAudit(tx, {
      merchantId: accountId,
      action: "auth.login_succeeded",
      target: `session:${familyId.slice(0, 8)}`,
      after: { method, via: actor.via ?? "api" },
      actor,
      ip: clientIp,
      now,
    });
    return tokens;
  });
}

/** Ends a login family: its tokens stop working in this process at once, in others within credentialCacheTtlMs. */
export async function revokeLoginFamily(db: DbOrTx, familyId: string, now = new Date()): Promise<void> {
  await revokeRefreshFamily(db, familyId, now);
  await markLoginSessionRevoked(db, familyId, now);
  forgetLoginFamily(familyId);
}

/**
 * POST /api/auth/login: password check with per-username and per-address throttling. An account with
 * a second factor gets no tokens here: 401 SECOND_FACTOR_REQUIRED with a challenge for
 * `loginWithSecondFactor` (issue 28); its failures are forgiven only once that step succeeds.
 */
export async function login(db: Db, username: string, password: string, clientIp: string, now = new Date(), requestedAccount?: number) {
  const merchant = await passwordStep(db, username, password, clientIp, now);
  // After the password: which accounts a login belongs to is not told to a guesser.
  const account = await resolveLoginAccount(db, merchant.id, requestedAccount);
  if (await hasEnabledSecondFactor(db, merchant.id)) throw await secondFactorRequired(merchant.id, now, await secondFactorMethods(db, merchant.id));
  // Before recordLoginSuccess, which makes this address a known one.
  await noticeSignInFromNewAddress(db, merchant, clientIp, now);
  await recordLoginSuccess(db, merchant.id, username, clientIp, now);
  const tokens = await openLoginSession(db, merchant, "password", clientIp, now, account.merchantId);
  return { ...tokens, merchant, account };
}

/**
 * The dashboard's "Use a passkey" at sign-in: the password again (same throttle and failures as
 * login), then WebAuthn request options for the account's passkeys; no session is opened here.
 * 409 CONFLICT when the account has no passkey.
 */
export async function passkeyOptionsAfterPassword(db: Db, username: string, password: string, clientIp: string, now = new Date()) {
  const merchant = await passwordStep(db, username, password, clientIp, now);
  const options = await passkeyAuthenticationOptions(db, merchant.id, "login", now);
  if (!options) throw new ApiError("CONFLICT", "The account has no passkey: enter a code instead.");
  return options;
}

/** The password step of a login: the merchant, or 401 INVALID_CREDENTIALS / 429 (throttle), failures counted and audited. */
async function passwordStep(db: Db, username: string, password: string, clientIp: string, now: Date): Promise<Merchant> {
  // A NUL cannot be in a stored username (and PostgreSQL text refuses it): such a name matches no one.
  const merchant = username.includes("\u0000") ? null : await findMerchantByUsername(db, username);
  const attempt = await beginLoginAttempt(db, username, clientIp, merchant?.id ?? null, now);
  const valid = merchant ? await verifyPassword(merchant.passwordHash, password) : (await verifyAgainstDummy(password), false);
  if (!merchant || !valid) {
    if (merchant) await recordAudit(db, { merchantId: merchant.id, action: "auth.login_failed", actor: signingInActor(merchant), ip: clientIp, now });
    throw new ApiError("INVALID_CREDENTIALS", "Invalid username or password.");
  }
  await attempt.succeeded();
  return merchant;
}

/** POST /api/auth/login/second-factor/: the login challenge plus a TOTP or recovery code, or a passkey assertion → the token pair. */
export async function loginWithSecondFactor(
  db: Db,
  challenge: string,
  code: string | undefined,
  clientIp: string,
  now = new Date(),
  requestedAccount?: number,
  passkey?: PasskeyAssertion,
) {
  const { merchantId, method } = await assertLoginSecondFactor(db, challenge, code, now, clientIp, passkey);
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant) throw new ApiError("INVALID_TOKEN", "The sign-in challenge is invalid or expired: log in with the password again.");
  const account = await resolveLoginAccount(db, merchant.id, requestedAccount);
  await noticeSignInFromNewAddress(db, merchant, clientIp, now);
  await recordLoginSuccess(db, merchant.id, merchant.username, clientIp, now);
  const tokens = await openLoginSession(db, merchant, `password+${method}`, clientIp, now, account.merchantId);
  return { ...tokens, merchant, account };
}

/**
 * POST /api/auth/token/refresh/: single-use rotation. Presenting a token that was already
 * spent (or revoked) revokes the whole family: a stolen token dies with the legitimate one.
 */
export async function refreshTokens(db: Db, refreshToken: string, now = new Date()): Promise<TokenPair> {
  const invalid = new ApiError("INVALID_TOKEN", "Refresh token is invalid or expired.");
  const claims = await verifyToken(refreshToken, "refresh");
  if (!claims) throw invalid;
  const stored = await findRefreshTokenByHash(db, sha256Hex(refreshToken));
  if (!stored || stored.expiresAt.getTime() <= now.getTime()) throw invalid;
  // The token must be the one stored: same account, same family.
  if (stored.merchantId !== claims.merchantId || stored.familyId !== claims.familyId) throw invalid;

  if (stored.usedAt || stored.revokedAt || (await isRefreshFamilyRevoked(db, stored.familyId)) || !(await spendRefreshToken(db, stored.id, now))) {
    await revokeLoginFamily(db, stored.familyId, now);
    throw new ApiError("INVALID_TOKEN", "Refresh token was already used; all sessions from it are revoked.");
  }
  const merchant = await findMerchantById(db, stored.merchantId);
  if (!merchant) throw invalid;
  // The pair acts in one account: a login removed from it gets no new pair (issue 49), and the
  // family, useless from now on, ends.
  if (!(await findMembership(db, claims.accountId, merchant.id))) {
    await revokeLoginFamily(db, stored.familyId, now);
    throw new ApiError("INVALID_TOKEN", "This login is no longer a member of the account: log in again.");
  }
  await touchLoginSession(db, stored.familyId, currentActor().clientIp, now);
  return issuePair(db, merchant, stored.familyId, now, claims.accountId, claims.authAt);
}
