import { listSessions, serializeLoginSession } from "@/lib/auth/login-sessions";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/account/sessions/ – the account's active sessions (API logins and dashboard sign-ins)
  GET: withApi(authRoutes.listSessions, async ({ db, principal }) => {
    const sessions = await listSessions(db, principal.userId ?? principal.merchantId);
    return ok(sessions.map((s) => serializeLoginSession(s, principal.familyId ?? null)));
  }),
});
