import { authRoutes } from "@/lib/auth/routes";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/auth/verify/ – report whether the presented credential is valid, and what it may do
  GET: withApi(authRoutes.verify, async ({ principal }) =>
    bare({
      valid: true,
      user: { id: principal.userId ?? principal.merchantId, username: principal.username, permissions: principal.permissions },
      account: { id: principal.merchantId, role: principal.role },
      expires_at: principal.expiresAt ? principal.expiresAt.toISOString() : null,
    }),
  ),
});
