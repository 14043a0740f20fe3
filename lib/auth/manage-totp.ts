import "server-only";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { noticeTwoFactorDisabled } from "@/lib/mail/account-emails";
import { assertFreshProof } from "./fresh-proof";
import { findMerchantById } from "./queries";
import { beginTotpEnrolment, confirmTotpEnrolment } from "./second-factor";
import { listPasskeys } from "./passkey-queries";
import { deleteSecondFactors, deleteTotpFactor, findTotpFactor } from "./second-factor-queries";
import type { ReauthProof } from "./schemas";

/** Where refused proofs are reported: `reauth.password`/`reauth.code` (API), `password`/`code` (dashboard). */
export interface ProofFields {
  field?: string;
  codeField?: string;
}

/** Enrolment starts with the password (a stolen session must not be able to bind its own authenticator). */
export async function startTotpEnrolment(
  db: DbOrTx,
  merchantId: number,
  proof: ReauthProof | undefined,
  clientIp: string | null,
  fields: ProofFields = {},
  now = new Date(),
) {
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant) throw notFound("Account");
  if ((await findTotpFactor(db, merchantId))?.enabledAt)
    throw new ApiError("CONFLICT", "Two-factor authentication is already enabled; disable it first to enrol a new authenticator.");
  await assertFreshProof(db, merchantId, proof, clientIp, { field: fields.field ?? "reauth.password", codeField: fields.codeField, now });
  return beginTotpEnrolment(db, merchant, now);
}

export { confirmTotpEnrolment };

/**
 * Disabling needs the password and a fresh code (or recovery code, or passkey); removes the
 * authenticator, and the recovery codes unless passkeys still guard the account.
 */
export async function disableTotp(
  db: DbOrTx,
  merchantId: number,
  proof: ReauthProof | undefined,
  clientIp: string | null,
  fields: ProofFields = {},
  now = new Date(),
) {
  await assertFreshProof(db, merchantId, proof, clientIp, { field: fields.field ?? "reauth.password", codeField: fields.codeField ?? "reauth.code", now });
  // assertFreshProof asks for a code only when a factor is enabled; a pending enrolment is just discarded.
  const wasEnabled = Boolean((await findTotpFactor(db, merchantId))?.enabledAt);
  const passkeysRemain = (await listPasskeys(db, merchantId)).length > 0;
  await db.transaction(async (tx) => {
    if (passkeysRemain) await deleteTotpFactor(tx, merchantId);
    else await deleteSecondFactors(tx, merchantId);
    if (wasEnabled)
      await recordAudit(tx, { merchantId, action: "second_factor.disabled", before: { kind: "totp" }, after: null, ip: clientIp ?? undefined, now });
  });
  if (wasEnabled) {
    const merchant = await findMerchantById(db, merchantId);
    if (merchant) await noticeTwoFactorDisabled(db, merchant, clientIp ?? "unknown", now);
  }
  return { disabled: wasEnabled };
}
