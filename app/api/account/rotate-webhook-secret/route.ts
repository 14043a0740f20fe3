import { rotateAccountWebhookSecret } from "@/lib/auth/account";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// POST /api/account/rotate-webhook-secret/ – new account webhook secret; the old one works for 24 more hours
export const POST = withApi({ route: "POST /api/account/rotate-webhook-secret" }, async ({ db, principal }) => {
  const merchant = await rotateAccountWebhookSecret(db, principal.merchantId);
  return ok(
    { webhook_secret: merchant.webhookSecret, previous_secret_expires_at: merchant.previousWebhookSecretExpiresAt?.toISOString() ?? null },
    "Webhook secret rotated.",
  );
});
