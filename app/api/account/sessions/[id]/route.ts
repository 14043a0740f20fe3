import { revokeSession, serializeLoginSession } from "@/lib/auth/login-sessions";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/account/sessions/{id}/ – end one of the account's sessions at once
  DELETE: withApi(authRoutes.revokeSession, async ({ db, principal, params }) =>
    ok(serializeLoginSession(await revokeSession(db, principal.userId ?? principal.merchantId, params.id), principal.familyId ?? null), "Session revoked."),
  ),
});
