import { authRoutes } from "@/lib/auth/routes";
import { refreshTokens } from "@/lib/auth/sessions";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/token/refresh/ – rotate a refresh token into a new access/refresh pair
  POST: withApi(authRoutes.refresh, async ({ db, body }) => bare(await refreshTokens(db, body.refresh))),
});
