import { rotateAccountWebhookSecret } from "@/lib/auth/account";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/rotate-webhook-secret/ – new account webhook secret; the old one works for 24 more hours
  POST: withApi(authRoutes.rotateAccountSecret, async ({ db, principal }) => {
    const merchant = await rotateAccountWebhookSecret(db, principal);
    return ok(
      { webhook_secret: merchant.webhookSecret, previous_secret_expires_at: merchant.previousWebhookSecretExpiresAt?.toISOString() ?? null },
      "Webhook secret rotated.",
    );
  }),
});
