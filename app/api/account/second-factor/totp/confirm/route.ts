import { confirmTotpEnrolment } from "@/lib/auth/manage-totp";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/second-factor/totp/confirm/ – the first code turns TOTP on; the recovery codes, shown this once
  POST: withApi(authRoutes.confirmTotp, async ({ db, principal, body }) =>
    ok(
      await confirmTotpEnrolment(db, principal.userId ?? principal.merchantId, body.code),
      "Two-factor authentication is on. Store the recovery codes now: they will not be shown again.",
    ),
  ),
});
