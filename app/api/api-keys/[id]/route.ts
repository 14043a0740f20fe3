import { idParams } from "@/lib/auth/api-key-schemas";
import { revokeApiKey, serializeApiKey } from "@/lib/auth/api-keys";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// DELETE /api/api-keys/{id}/ – revoke a key; it stops working at once
export const DELETE = withApi({ route: "DELETE /api/api-keys/[id]", params: idParams }, async ({ db, principal, params }) =>
  ok(serializeApiKey(await revokeApiKey(db, principal.merchantId, params.id)), "API key revoked."),
);
