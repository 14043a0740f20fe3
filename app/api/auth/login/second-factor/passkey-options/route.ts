import { loginPasskeyOptions } from "@/lib/auth/manage-passkeys";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/login/second-factor/passkey-options/ – the login challenge → WebAuthn request options
  POST: withApi(authRoutes.loginPasskeyOptions, async ({ db, body }) => ok(await loginPasskeyOptions(db, body.challenge))),
});
