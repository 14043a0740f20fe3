import { authRoutes } from "@/lib/auth/routes";
import { login } from "@/lib/auth/sessions";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/login – exchange username and password for an access and a refresh token
  POST: withApi(authRoutes.login, async ({ db, body, clientIp }) => {
    const { access, refresh, merchant, account } = await login(db, body.username, body.password, clientIp, new Date(), body.account);
    return bare({
      access,
      refresh,
      user: { id: merchant.id, username: merchant.username, email: merchant.email },
      account: { id: account.merchantId, role: account.role },
    });
  }),
});
