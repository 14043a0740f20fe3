import { finishPasskeyRegistration, listMerchantPasskeys } from "@/lib/auth/manage-passkeys";
import { authRoutes } from "@/lib/auth/routes";
import { created, ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/account/second-factor/passkeys/ – the registered passkeys
  GET: withApi(authRoutes.listPasskeys, async ({ db, principal }) => ok(await listMerchantPasskeys(db, principal.userId ?? principal.merchantId))),
  // POST /api/account/second-factor/passkeys/ – the browser's attestation → a new passkey (and recovery codes when it is the first factor)
  POST: withApi(authRoutes.registerPasskey, async ({ db, principal, body, clientIp }) =>
    created(await finishPasskeyRegistration(db, principal.userId ?? principal.merchantId, body, clientIp), "Passkey added."),
  ),
});
