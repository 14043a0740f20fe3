import { removePasskey } from "@/lib/auth/manage-passkeys";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/second-factor/passkeys/{id}/remove/ – password and a fresh second factor remove a passkey
  POST: withApi(authRoutes.removePasskey, async ({ db, principal, params, body, clientIp }) =>
    ok(await removePasskey(db, principal.userId ?? principal.merchantId, params.id, body.reauth, clientIp), "Passkey removed."),
  ),
});
