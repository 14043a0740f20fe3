import { createApiKey, serializeApiKey } from "@/lib/auth/api-keys";
import { listApiKeys } from "@/lib/auth/queries";
import { authRoutes } from "@/lib/auth/routes";
import { created } from "@/lib/http/envelope";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { memberActorOf } from "@/lib/members/members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/api-keys/ – create an API key; the secret is in this response only
  POST: withApi(authRoutes.createApiKey, async ({ db, principal, body }) => {
    const { key, record } = await createApiKey(db, memberActorOf(principal), body);
    return created({ ...serializeApiKey(record), key }, "API key created. Store the key now: it will not be shown again.");
  }),

  // GET /api/api-keys/ – the merchant's API keys, newest first (never their secrets)
  GET: withApi(authRoutes.listApiKeys, async ({ db, principal, query, url }) => {
    const { limit, offset } = pageWindow(query);
    const { rows, count } = await listApiKeys(db, principal.merchantId, limit, offset);
    return page(url, query, count, rows.map(serializeApiKey));
  }),
});
