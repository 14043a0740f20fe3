import { startTotpEnrolment } from "@/lib/auth/manage-totp";
import { authRoutes } from "@/lib/auth/routes";
import { created } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/second-factor/totp/ – start enrolment (password again): the secret, shown this once
  POST: withApi(authRoutes.beginTotp, async ({ db, principal, body, clientIp }) =>
    created(
      await startTotpEnrolment(db, principal.userId ?? principal.merchantId, body.reauth, clientIp),
      "Scan the QR code or type the secret into your authenticator app, then confirm with a code.",
    ),
  ),
});
