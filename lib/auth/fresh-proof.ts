import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { validationError } from "@/lib/http/errors";
import type { ReauthProof } from "./schemas";
import { findMerchantById } from "./queries";
import { verifyPassword } from "./passwords";
import { beginLoginAttempt } from "./login-throttle";
import { assertFreshSecondFactor } from "./second-factor";

const refusal = "Enter your current password to make this change.";

/**
 * Throws 400 VALIDATION_ERROR (details on `field`, `reauth.password` in the API) unless `proof` holds the account's
 * current password. Wrong guesses count as login failures of the account, so a stolen token
 * cannot be used to guess the password past the login throttle (429 RATE_LIMITED). An account with
 * a second factor must also give a fresh code (`codeField`, `reauth.code` in the API; issue 28).
 */
export async function assertFreshProof(
  db: DbOrTx,
  merchantId: number,
  proof: ReauthProof | undefined,
  clientIp: string | null,
  { field = "reauth.password", codeField = "reauth.code", now = new Date() }: { field?: string; codeField?: string; now?: Date } = {},
): Promise<void> {
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant || !proof?.password) throw validationError({ [field]: [refusal] }, "Your current password is required for this change.");
  const address = clientIp ?? "unknown";
  const attempt = await beginLoginAttempt(db, merchant.username, address, merchant.id, now);
  if (!(await verifyPassword(merchant.passwordHash, proof.password)))
    throw validationError({ [field]: ["The password is not correct."] }, "The password is not correct.");
  await attempt.succeeded();
  await assertFreshSecondFactor(db, merchantId, proof.code, { field: codeField, now, passkey: proof.passkey });
}
