import "server-only";
import type { Merchant } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import { hourlyLimit } from "./rate-limit";
import { findMerchantById, updateMerchant } from "./queries";

/** Old secrets keep verifying for a day after rotation, so receivers can roll over. */
export const secretRotationGraceMs = 24 * 60 * 60 * 1000;

export function serializeAccount(merchant: Merchant) {
  return {
    id: merchant.id,
    username: merchant.username,
    email: merchant.email,
    shop_name: merchant.shopName,
    plan: merchant.plan,
    rate_limit_per_hour: hourlyLimit(merchant.plan, merchant.rateLimitPerHour),
    webhook_secret: merchant.webhookSecret,
    payment_tolerance_bps: merchant.paymentToleranceBps,
    email_verified_at: merchant.emailVerifiedAt ? merchant.emailVerifiedAt.toISOString() : null,
    created_at: merchant.createdAt.toISOString(),
  };
}

export async function getAccountOrThrow(db: DbOrTx, merchantId: number) {
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant) throw notFound("Account");
  return merchant;
}

/** New account webhook secret; the previous one stays valid for 24 hours. */
export async function rotateAccountWebhookSecret(db: DbOrTx, merchantId: number, now = new Date()) {
  const current = await getAccountOrThrow(db, merchantId);
  return db.transaction(async (tx) => {
    const updated = await updateMerchant(tx, merchantId, {
      webhookSecret: newId("webhookSecret"),
      previousWebhookSecret: current.webhookSecret,
      previousWebhookSecretExpiresAt: new Date(now.getTime() + secretRotationGraceMs),
      updatedAt: now,
    });
    await recordAudit(tx, { merchantId, action: "account.webhook_secret_rotated", target: `account:${merchantId}`, after: { previous_secret_expires_at: updated!.previousWebhookSecretExpiresAt?.toISOString() ?? null }, now });
    return updated!;
  });
}

/** Sets the merchant's payment tolerance (basis points); orders created afterwards carry it. */
export async function updateAccountSettings(db: DbOrTx, merchantId: number, input: { payment_tolerance_bps: number }, now = new Date()) {
  const current = await getAccountOrThrow(db, merchantId);
  return db.transaction(async (tx) => {
    const updated = await updateMerchant(tx, merchantId, { paymentToleranceBps: input.payment_tolerance_bps, updatedAt: now });
    if (!updated) throw notFound("Account");
    if (updated.paymentToleranceBps !== current.paymentToleranceBps) {
      await recordAudit(tx, { merchantId, action: "account.settings_updated", target: `account:${merchantId}`, before: { payment_tolerance_bps: current.paymentToleranceBps }, after: { payment_tolerance_bps: updated.paymentToleranceBps }, now });
    }
    return updated;
  });
}
