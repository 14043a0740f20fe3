import { revokeApiKey, serializeApiKey } from "@/lib/auth/api-keys";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/api-keys/{id}/ – revoke a key; it stops working at once
  DELETE: withApi(authRoutes.revokeApiKey, async ({ db, principal, params }) =>
    ok(serializeApiKey(await revokeApiKey(db, principal.merchantId, params.id)), "API key revoked."),
  ),
});
