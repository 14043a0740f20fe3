import { authRoutes } from "@/lib/auth/routes";
import { secondFactorStatus } from "@/lib/auth/second-factor";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/account/second-factor/ – whether TOTP is on and how many recovery codes are left
  GET: withApi(authRoutes.getSecondFactors, async ({ db, principal }) => ok(await secondFactorStatus(db, principal.userId ?? principal.merchantId))),
});
