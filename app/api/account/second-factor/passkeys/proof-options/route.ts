import { passkeyProofOptions } from "@/lib/auth/manage-passkeys";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/account/second-factor/passkeys/proof-options/ – WebAuthn request options for a fresh proof (reauth.passkey)
  POST: withApi(authRoutes.passkeyProofOptions, async ({ db, principal }) => ok(await passkeyProofOptions(db, principal.userId ?? principal.merchantId))),
});
