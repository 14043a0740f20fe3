import "server-only";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { noticeTwoFactorDisabled } from "@/lib/mail/account-emails";
import { assertFreshProof } from "./fresh-proof";
import type { ProofFields } from "./manage-totp";
import { deletePasskey, insertPasskey, listPasskeys } from "./passkey-queries";
import { passkeyAuthenticationOptions, passkeyRegistrationOptions, verifyPasskeyRegistration } from "./passkeys";
import { findMerchantById } from "./queries";
import type { ReauthProof } from "./schemas";
import { hasEnabledSecondFactor, merchantOfLoginChallenge } from "./second-factor";
import { deleteSecondFactors, replaceRecoveryCodes } from "./second-factor-queries";
import { sha256Hex } from "./hash";
import { newRecoveryCode, normalizeRecoveryCode, recoveryCodeCount } from "./totp";

type Passkey = Awaited<ReturnType<typeof listPasskeys>>[number];

export function passkeyJsonOf(p: Passkey) {
  return { id: p.id, name: p.name ?? "Passkey", created_at: p.createdAt.toISOString(), last_used_at: p.lastUsedAt?.toISOString() ?? null };
}

/**
 * Registration starts with the password (and the current second factor when one is on), like TOTP
 * enrolment: a stolen session must not be able to bind its own authenticator.
 */
export async function startPasskeyRegistration(
  db: DbOrTx,
  merchantId: number,
  proof: ReauthProof | undefined,
  clientIp: string | null,
  fields: ProofFields = {},
  now = new Date(),
) {
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant) throw notFound("Account");
  await assertFreshProof(db, merchantId, proof, clientIp, { field: fields.field ?? "reauth.password", codeField: fields.codeField ?? "reauth.code", now });
  return passkeyRegistrationOptions(db, merchant, now);
}

/**
 * Stores the passkey the browser made over the registration challenge. The first second factor of
 * an account also gets ten recovery codes, returned this once (as with TOTP).
 */
export async function finishPasskeyRegistration(
  db: DbOrTx,
  merchantId: number,
  input: { name: string; response: RegistrationResponseJSON },
  clientIp: string | null,
  { field = "response", now = new Date() }: { field?: string; now?: Date } = {},
) {
  const credential = await verifyPasskeyRegistration(db, merchantId, input.response, now);
  if (!credential) throw validationError({ [field]: ["The passkey could not be verified: start again."] }, "The passkey could not be verified.");
  const firstFactor = !(await hasEnabledSecondFactor(db, merchantId));
  const codes = firstFactor ? Array.from({ length: recoveryCodeCount }, newRecoveryCode) : [];
  const passkey = await db.transaction(async (tx) => {
    const row = await insertPasskey(tx, { merchantId, ...credential, name: input.name }, now);
    if (!row) throw new ApiError("CONFLICT", "This passkey is registered already.");
    if (firstFactor)
      await replaceRecoveryCodes(
        tx,
        merchantId,
        codes.map((c) => sha256Hex(normalizeRecoveryCode(c))),
        now,
      );
    await recordAudit(tx, {
      merchantId,
      action: "second_factor.passkey_added",
      target: `second_factor:${row.id}`,
      after: { kind: "passkey", name: row.name },
      ip: clientIp ?? undefined,
      now,
    });
    return row;
  });
  return { passkey: passkeyJsonOf(passkey), recovery_codes: codes };
}

export async function listMerchantPasskeys(db: DbOrTx, merchantId: number) {
  return (await listPasskeys(db, merchantId)).map(passkeyJsonOf);
}

/**
 * Removing a passkey needs the password and a fresh second factor (it may be this passkey). When it
 * was the last second factor, two-factor authentication is off: recovery codes go too, and the
 * owner is told by email.
 */
export async function removePasskey(
  db: DbOrTx,
  merchantId: number,
  passkeyId: number,
  proof: ReauthProof | undefined,
  clientIp: string | null,
  fields: ProofFields = {},
  now = new Date(),
) {
  const existing = (await listPasskeys(db, merchantId)).find((p) => p.id === passkeyId);
  if (!existing) throw notFound("Passkey");
  await assertFreshProof(db, merchantId, proof, clientIp, { field: fields.field ?? "reauth.password", codeField: fields.codeField ?? "reauth.code", now });
  const turnedOff = await db.transaction(async (tx) => {
    const removed = await deletePasskey(tx, merchantId, passkeyId);
    if (!removed) throw notFound("Passkey");
    await recordAudit(tx, {
      merchantId,
      action: "second_factor.passkey_removed",
      target: `second_factor:${removed.id}`,
      before: { kind: "passkey", name: removed.name },
      after: null,
      ip: clientIp ?? undefined,
      now,
    });
    if (await hasEnabledSecondFactor(tx, merchantId)) return false;
    await deleteSecondFactors(tx, merchantId);
    await recordAudit(tx, { merchantId, action: "second_factor.disabled", before: { kind: "passkey" }, after: null, ip: clientIp ?? undefined, now });
    return true;
  });
  if (turnedOff) {
    const merchant = await findMerchantById(db, merchantId);
    if (merchant) await noticeTwoFactorDisabled(db, merchant, clientIp ?? "unknown", now);
  }
  return { removed: true, two_factor_off: turnedOff };
}

/** Options to prove the owner with a passkey (the `reauth.passkey` of a sensitive change); 409 when the account has none. */
export async function passkeyProofOptions(db: DbOrTx, merchantId: number, now = new Date()) {
  const options = await passkeyAuthenticationOptions(db, merchantId, "proof", now);
  if (!options) throw new ApiError("CONFLICT", "The account has no passkey.");
  return options;
}

/** Options for the login's second step with a passkey, for a valid login challenge; 409 when the account has no passkey. */
export async function loginPasskeyOptions(db: DbOrTx, challenge: string, now = new Date()) {
  const merchantId = await merchantOfLoginChallenge(db, challenge, now);
  const options = await passkeyAuthenticationOptions(db, merchantId, "login", now);
  if (!options) throw new ApiError("CONFLICT", "The account has no passkey: enter a code instead.");
  return options;
}
