import { startPasskeyRegistration } from "@/lib/auth/manage-passkeys";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/second-factor/passkeys/options/ – password (and current factor) → WebAuthn creation options
  POST: withApi(authRoutes.passkeyRegistrationOptions, async ({ db, principal, body, clientIp }) =>
    ok(await startPasskeyRegistration(db, principal.userId ?? principal.merchantId, body.reauth, clientIp)),
  ),
});
