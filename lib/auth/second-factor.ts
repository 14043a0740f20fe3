import "server-only";
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";
import { currentActor } from "@/lib/audit/context";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { sha256Hex } from "./hash";
import { tokenAudience, tokenIssuer } from "./jwt";
import { reserveAttempt } from "./login-throttle";
import { countRecentLoginFailures, deleteLoginFailures } from "./queries";
import { listPasskeys } from "./passkey-queries";
import { rateLimitedError } from "@/lib/rate-limit/fixed-window";
import {
  countUnusedRecoveryCodes,
  findTotpFactor,
  hasEnabledSecondFactor,
  replaceRecoveryCodes,
  spendRecoveryCode,
  spendTotpStep,
  upsertPendingTotp,
} from "./second-factor-queries";
import { verifyPasskeyAssertion } from "./passkeys";
import type { PasskeyAssertion } from "./schemas";
import { getAuthSecret } from "./secret";
import { decryptTotpSecret, encryptTotpSecret, newRecoveryCode, newTotpSecret, normalizeRecoveryCode, otpauthUri, recoveryCodeCount, totpStepOf } from "./totp";

export { hasEnabledSecondFactor };

// ─── code attempts: a lock-out per account ───

/**
 * 5 wrong codes in 15 minutes lock that kind of code check of the account until the oldest ages
 * out. A code has 10^6 values and 3 are valid at a time, so this allows about one guess in 66 000
 * per 15 minutes. Two buckets: the login step (`2fa-login:<id>`, reached with the password) and
 * the fresh proofs and enrolment behind a session or token (`2fa:<id>`), so a stolen session
 * guessing codes cannot lock the owner out of signing in. Kept in login_failures, pruned with it.
 * Each attempt is counted as a failure before its code is checked (`beginCodeAttempt`), so the
 * lock-out holds however many attempts arrive at once (issue 49); a right code forgives them all.
 */
export const maxCodeFailures = 5;
export const codeFailureWindowMs = 15 * 60 * 1000;
type CodePurpose = "login" | "proof";
const codeSubject = (merchantId: number, purpose: CodePurpose) => (purpose === "login" ? `2fa-login:${merchantId}` : `2fa:${merchantId}`);

/** Throws 429 RATE_LIMITED while the lock-out holds; else counts this attempt as a failure until a right code forgives it. */
async function beginCodeAttempt(db: DbOrTx, merchantId: number, purpose: CodePurpose, now: Date): Promise<void> {
  const subject = codeSubject(merchantId, purpose);
  await reserveAttempt(db, [subject], now, async (tx) => {
    const [row] = await countRecentLoginFailures(tx, [subject], new Date(now.getTime() - codeFailureWindowMs));
    if (!row || row.failures < maxCodeFailures) return;
    const until = new Date(row.oldest).getTime() + codeFailureWindowMs;
    throw rateLimitedError({ retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) });
  });
}

const aadOf = (merchantId: number) => `merchant:${merchantId}`;

/**
 * Whether `code` is a valid second factor of the merchant now, spending it: a TOTP code (6 digits,
 * refused when its time step or a later one was used already) or an unused recovery code; says
 * which (null: refused). Counts a failure toward the lock-out and throws 429 RATE_LIMITED while
 * locked. A recovery code spent and a refused code are audit entries.
 */
async function spendSecondFactorCode(
  db: DbOrTx,
  merchantId: number,
  code: string,
  now: Date,
  { enabling = false, purpose = "proof", clientIp }: { enabling?: boolean; purpose?: CodePurpose; clientIp?: string | null } = {},
): Promise<"totp" | "recovery_code" | null> {
  await beginCodeAttempt(db, merchantId, purpose, now);
  const factor = await findTotpFactor(db, merchantId);
  let accepted: "totp" | "recovery_code" | null = null;
  const typed = code.trim().replaceAll(" ", "");
  if (factor?.secretCiphertext && (enabling ? !factor.enabledAt : factor.enabledAt)) {
    const step = totpStepOf(decryptTotpSecret(factor.secretCiphertext, aadOf(merchantId)), typed, now);
    if (step !== null && (await spendTotpStep(db, factor.id, step, now, enabling))) accepted = "totp";
  }
  // Recovery codes exist only while a second factor (TOTP or a passkey) is on.
  if (!accepted && !enabling && !/^\d{6}$/.test(typed) && (await spendRecoveryCode(db, merchantId, sha256Hex(normalizeRecoveryCode(typed)), now)))
    accepted = "recovery_code";
  const ip = clientIp !== undefined ? clientIp : currentActor().clientIp;
  const step = enabling ? "enrolment" : purpose;
  if (accepted) {
    await deleteLoginFailures(db, codeSubject(merchantId, purpose));
    if (accepted === "recovery_code") {
      await recordAudit(db, {
        merchantId,
        action: "second_factor.recovery_code_used",
        after: { step, recovery_codes_remaining: await countUnusedRecoveryCodes(db, merchantId) },
        ip,
        now,
      });
    }
  } else {
    await recordAudit(db, { merchantId, action: "auth.second_factor_failed", after: { step }, ip, now });
  }
  return accepted;
}

/**
 * Whether `assertion` is a valid passkey assertion of the merchant over a challenge made for this
 * step (lib/auth/passkeys.ts). Counts toward the same lock-out as codes and is audited like them.
 */
async function spendPasskeyAssertion(
  db: DbOrTx,
  merchantId: number,
  assertion: PasskeyAssertion,
  now: Date,
  { purpose = "proof", clientIp }: { purpose?: CodePurpose; clientIp?: string | null } = {},
): Promise<boolean> {
  await beginCodeAttempt(db, merchantId, purpose, now);
  const passkey = await verifyPasskeyAssertion(db, merchantId, assertion, purpose === "login" ? "login" : "proof", now);
  const ip = clientIp !== undefined ? clientIp : currentActor().clientIp;
  if (passkey) {
    await deleteLoginFailures(db, codeSubject(merchantId, purpose));
    await recordAudit(db, {
      merchantId,
      action: "second_factor.passkey_used",
      target: `second_factor:${passkey.id}`,
      after: { step: purpose, name: passkey.name },
      ip,
      now,
    });
    return true;
  }
  await recordAudit(db, { merchantId, action: "auth.second_factor_failed", after: { step: purpose, method: "passkey" }, ip, now });
  return false;
}

/**
 * A fresh second factor when the merchant has one enabled (issue 28): asked before creating an API
 * key, adding a webhook endpoint, changing a payout address and disabling the second factor. No-op
 * for accounts without one. A passkey assertion (`passkey`, over a challenge from the proof options
 * endpoint) does instead of a code. Missing or wrong: 400 VALIDATION_ERROR on `field`; locked: 429.
 */
export async function assertFreshSecondFactor(
  db: DbOrTx,
  merchantId: number,
  code: string | undefined,
  { field = "reauth.code", now = new Date(), passkey }: { field?: string; now?: Date; passkey?: PasskeyAssertion } = {},
): Promise<void> {
  if (!(await hasEnabledSecondFactor(db, merchantId))) return;
  if (!code && passkey) {
    if (await spendPasskeyAssertion(db, merchantId, passkey, now)) return;
    throw validationError({ [field]: ["The passkey could not be verified: try again."] }, "The passkey could not be verified.");
  }
  if (!code)
    throw validationError(
      { [field]: ["Enter a code from your authenticator app (or a recovery code), or use a passkey."] },
      "A fresh second factor is required for this change.",
    );
  if (!(await spendSecondFactorCode(db, merchantId, code, now))) {
    throw validationError({ [field]: ["The code is not correct, or was already used."] }, "The second-factor code is not correct.");
  }
}

// ─── enrolment ───

export interface SecondFactorStatus {
  totp: { enabled: boolean; enabled_at: string | null };
  recovery_codes_remaining: number;
  passkeys: number;
}

export async function secondFactorStatus(db: DbOrTx, merchantId: number): Promise<SecondFactorStatus> {
  const factor = await findTotpFactor(db, merchantId);
  const enabledAt = factor?.enabledAt ?? null;
  return {
    totp: { enabled: enabledAt !== null, enabled_at: enabledAt?.toISOString() ?? null },
    recovery_codes_remaining: (await hasEnabledSecondFactor(db, merchantId)) ? await countUnusedRecoveryCodes(db, merchantId) : 0,
    passkeys: (await listPasskeys(db, merchantId)).length,
  };
}

/**
 * Starts a TOTP enrolment: a new secret, stored encrypted and shown this once (as text and as an
 * otpauth:// URI for a QR code). Restarting replaces a pending one; 409 CONFLICT once enabled.
 * The caller asks for the password first (lib/auth/fresh-proof.ts).
 */
export async function beginTotpEnrolment(db: DbOrTx, merchant: { id: number; username: string }, now = new Date()) {
  const secret = newTotpSecret();
  const row = await upsertPendingTotp(db, merchant.id, encryptTotpSecret(secret, aadOf(merchant.id)), now);
  if (!row) throw new ApiError("CONFLICT", "Two-factor authentication is already enabled; disable it first to enrol a new authenticator.");
  return { secret, otpauth_uri: otpauthUri(secret, merchant.username) };
}

/** Confirms an enrolment with a first code: TOTP is enabled and ten recovery codes are made, returned this once. */
export async function confirmTotpEnrolment(db: DbOrTx, merchantId: number, code: string, { field = "code", now = new Date() } = {}) {
  const factor = await findTotpFactor(db, merchantId);
  if (!factor) throw new ApiError("CONFLICT", "No enrolment is pending: start one first.");
  if (factor.enabledAt) throw new ApiError("CONFLICT", "Two-factor authentication is already enabled.");
  if (!(await spendSecondFactorCode(db, merchantId, code, now, { enabling: true }))) {
    throw validationError({ [field]: ["The code is not correct: check the app's clock and enter the current code."] }, "The code is not correct.");
  }
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await replaceRecoveryCodes(
      tx,
      merchantId,
      codes.map((c) => sha256Hex(normalizeRecoveryCode(c))),
      now,
    );
    await recordAudit(tx, {
      merchantId,
      action: "second_factor.enabled",
      target: `second_factor:${factor.id}`,
      after: { kind: "totp", recovery_codes: codes.length },
      now,
    });
  });
  return { recovery_codes: codes };
}

// ─── the login challenge ───

/** How long the second step of a login may take after the password was accepted. */
export const loginChallengeTtlSeconds = 5 * 60;
const challengeType = "login_challenge";

/**
 * A signed, short-lived proof that the password step passed, completed by a second factor at
 * POST /api/auth/login/second-factor/ (a passkey step can complete the same challenge later).
 */
export async function signLoginChallenge(merchantId: number, now = new Date()): Promise<{ challenge: string; expiresAt: Date }> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + loginChallengeTtlSeconds;
  const challenge = await new SignJWT({ typ: challengeType })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(merchantId))
    .setIssuer(tokenIssuer())
    .setAudience(tokenAudience())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(getAuthSecret());
  return { challenge, expiresAt: new Date(exp * 1000) };
}

/** The merchant id a login challenge was issued to, or null (bad signature, expired, another token type). */
export async function verifyLoginChallenge(challenge: string, now = new Date()): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(challenge, getAuthSecret(), {
      algorithms: ["HS256"],
      currentDate: now,
      issuer: tokenIssuer(),
      audience: tokenAudience(),
    });
    const merchantId = Number(payload.sub);
    return payload.typ === challengeType && Number.isSafeInteger(merchantId) ? merchantId : null;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}

/** The answer to a correct password on an account with a second factor: 401 SECOND_FACTOR_REQUIRED carrying the challenge. */
export async function secondFactorRequired(merchantId: number, now: Date, methods: SecondFactorMethod[] = ["totp", "recovery_code"]): Promise<ApiError> {
  const { challenge, expiresAt } = await signLoginChallenge(merchantId, now);
  return new ApiError(
    "SECOND_FACTOR_REQUIRED",
    "Enter a code from your authenticator app (or a recovery code), or use a passkey, to finish signing in.",
    undefined,
    {
      body: { second_factor: { challenge, methods, expires_at: expiresAt.toISOString() } },
    },
  );
}

export type SecondFactorMethod = "totp" | "recovery_code" | "passkey";

/** What the login's second step accepts for this merchant (the 401 answer's `methods`). */
export async function secondFactorMethods(db: DbOrTx, merchantId: number): Promise<SecondFactorMethod[]> {
  const totp = await findTotpFactor(db, merchantId);
  const methods: SecondFactorMethod[] = totp?.enabledAt ? ["totp"] : [];
  if ((await listPasskeys(db, merchantId)).length > 0) methods.push("passkey");
  if ((await countUnusedRecoveryCodes(db, merchantId)) > 0) methods.push("recovery_code");
  return methods;
}

/** The merchant a valid login challenge names, with a second factor still enabled; 401 INVALID_TOKEN otherwise. */
export async function merchantOfLoginChallenge(db: DbOrTx, challenge: string, now: Date): Promise<number> {
  const merchantId = await verifyLoginChallenge(challenge, now);
  if (merchantId === null || !(await hasEnabledSecondFactor(db, merchantId))) {
    throw new ApiError("INVALID_TOKEN", "The sign-in challenge is invalid or expired: log in with the password again.");
  }
  return merchantId;
}

/**
 * The second step: the challenge and a code of the merchant's second factor, or a passkey assertion
 * over a challenge from POST /api/auth/login/second-factor/passkey-options/. Wrong: 401 INVALID_CREDENTIALS.
 */
export async function assertLoginSecondFactor(
  db: DbOrTx,
  challenge: string,
  code: string | undefined,
  now: Date,
  clientIp?: string,
  passkey?: PasskeyAssertion,
): Promise<{ merchantId: number; method: SecondFactorMethod }> {
  const merchantId = await merchantOfLoginChallenge(db, challenge, now);
  if (!code && passkey) {
    if (await spendPasskeyAssertion(db, merchantId, passkey, now, { purpose: "login", clientIp })) return { merchantId, method: "passkey" };
    throw new ApiError("INVALID_CREDENTIALS", "The passkey could not be verified.");
  }
  if (!code) throw validationError({ code: ["Enter a code, or use a passkey."] });
  const method = await spendSecondFactorCode(db, merchantId, code, now, { purpose: "login", clientIp });
  if (!method) throw new ApiError("INVALID_CREDENTIALS", "The code is not correct, or was already used.");
  return { merchantId, method };
}
