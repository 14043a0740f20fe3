import { loginBody } from "@/lib/auth/schemas";
import { login } from "@/lib/auth/sessions";
import { bare } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// POST /api/auth/login – exchange username and password for an access and a refresh token
export const POST = withApi({ route: "POST /api/auth/login", body: loginBody }, async ({ db, body, clientIp }) => {
  const { access, refresh, merchant } = await login(db, body.username, body.password, clientIp);
  return bare({ access, refresh, user: { id: merchant.id, username: merchant.username, email: merchant.email } });
});
