import { bare } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// GET /api/auth/verify/ – report whether the presented credential is valid, and what it may do
export const GET = withApi({ route: "GET /api/auth/verify" }, async ({ principal }) =>
  bare({
    valid: true,
    user: { id: principal.merchantId, username: principal.username, permissions: principal.permissions },
    expires_at: principal.expiresAt ? principal.expiresAt.toISOString() : null,
  }),
);
