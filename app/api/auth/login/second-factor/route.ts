import { authRoutes } from "@/lib/auth/routes";
import { loginWithSecondFactor } from "@/lib/auth/sessions";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/login/second-factor/ – the login challenge and a TOTP or recovery code, or a passkey assertion → the token pair
  POST: withApi(authRoutes.loginSecondFactor, async ({ db, body, clientIp }) => {
    const { access, refresh, merchant, account } = await loginWithSecondFactor(db, body.challenge, body.code, clientIp, new Date(), body.account, body.passkey);
    return bare({
      access,
      refresh,
      user: { id: merchant.id, username: merchant.username, email: merchant.email },
      account: { id: account.merchantId, role: account.role },
    });
  }),
});
