import "server-only";
import type { Merchant } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/record";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { ApiError, notFound } from "@/lib/http/errors";
import { roleAllows, type Role } from "./roles";
import { hourlyLimit } from "./rate-limit";
import { findMerchantById, updateMerchant } from "./queries";

/** Old secrets keep verifying for a day after rotation, so receivers can roll over. */
export const secretRotationGraceMs = 24 * 60 * 60 * 1000;

/** Who reads or changes an account: the account and the caller's role in it (null: not a login). */
export interface AccountActor {
  merchantId: number;
  role: Role | null;
}

/**
 * Whether a caller may see the account's webhook signing secret: only the roles that manage it
 * (owners and admins, like rotating it). With the secret a reader could sign a forged
 * `payment.confirmed` to the merchant's backend, so every surface (API, dashboard) asks this one rule.
 */
export function maySeeAccountSecret(actor: AccountActor): boolean {
  return actor.role !== null && roleAllows(actor.role, "manage_account");
}

const secretRefused = () => new ApiError("INSUFFICIENT_PERMISSIONS", "Only owners and admins may see or rotate the account's webhook secret.");

/** The account as `actor` may read it: `webhook_secret` is null unless their role manages the account. */
export async function getAccountFor(db: DbOrTx, actor: AccountActor) {
  return serializeAccount(await getAccountOrThrow(db, actor.merchantId), { withWebhookSecret: maySeeAccountSecret(actor) });
}

/** The account's webhook secret, for an owner or admin (403 otherwise). */
export async function revealAccountWebhookSecret(db: DbOrTx, actor: AccountActor): Promise<string> {
  if (!maySeeAccountSecret(actor)) throw secretRefused();
  return (await getAccountOrThrow(db, actor.merchantId)).webhookSecret;
}

export function serializeAccount(merchant: Merchant, { withWebhookSecret }: { withWebhookSecret: boolean }) {
  return {
    id: merchant.id,
    username: merchant.username,
    email: merchant.email,
    shop_name: merchant.shopName,
    plan: merchant.plan,
    rate_limit_per_hour: hourlyLimit(merchant.plan, merchant.rateLimitPerHour),
    webhook_secret: withWebhookSecret ? merchant.webhookSecret : null,
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

/** New account webhook secret (owners and admins); the previous one stays valid for 24 hours. */
export async function rotateAccountWebhookSecret(db: DbOrTx, actor: AccountActor, now = new Date()) {
  if (!maySeeAccountSecret(actor)) throw secretRefused();
  const merchantId = actor.merchantId;
  const current = await getAccountOrThrow(db, merchantId);
  return db.transaction(async (tx) => {
    const updated = await updateMerchant(tx, merchantId, {
      webhookSecret: newId("webhookSecret"),
      previousWebhookSecret: current.webhookSecret,
      previousWebhookSecretExpiresAt: new Date(now.getTime() + secretRotationGraceMs),
      updatedAt: now,
    });
    await recordAudit(tx, {
      merchantId,
      action: "account.webhook_secret_rotated",
      target: `account:${merchantId}`,
      after: { previous_secret_expires_at: updated!.previousWebhookSecretExpiresAt?.toISOString() ?? null },
      now,
    });
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
      await recordAudit(tx, {
        merchantId,
        action: "account.settings_updated",
        target: `account:${merchantId}`,
        before: { payment_tolerance_bps: current.paymentToleranceBps },
        after: { payment_tolerance_bps: updated.paymentToleranceBps },
        now,
      });
    }
    return updated;
  });
}
