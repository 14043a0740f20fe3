import { disableTotp } from "@/lib/auth/manage-totp";
import { authRoutes } from "@/lib/auth/routes";
import { secondFactorStatus } from "@/lib/auth/second-factor";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/second-factor/totp/disable/ – password and a fresh code turn TOTP off
  POST: withApi(authRoutes.disableTotp, async ({ db, principal, body, clientIp }) => {
    await disableTotp(db, principal.userId ?? principal.merchantId, body.reauth, clientIp);
    return ok(await secondFactorStatus(db, principal.userId ?? principal.merchantId), "Two-factor authentication is off.");
  }),
});
