import { createApiKeyBody } from "@/lib/auth/api-key-schemas";
import { createApiKey, serializeApiKey } from "@/lib/auth/api-keys";
import { listApiKeys } from "@/lib/auth/queries";
import { created } from "@/lib/http/envelope";
import { page, pageQuery, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";

// POST /api/api-keys/ – create an API key; the secret is in this response only
export const POST = withApi({ route: "POST /api/api-keys", body: createApiKeyBody }, async ({ db, principal, body }) => {
  const { key, record } = await createApiKey(db, principal.merchantId, body);
  return created({ ...serializeApiKey(record), key }, "API key created. Store the key now: it will not be shown again.");
});

// GET /api/api-keys/ – the merchant's API keys, newest first (never their secrets)
export const GET = withApi({ route: "GET /api/api-keys", query: pageQuery }, async ({ db, principal, query, url }) => {
  const { limit, offset } = pageWindow(query);
  const { rows, count } = await listApiKeys(db, principal.merchantId, limit, offset);
  return page(url, query, count, rows.map(serializeApiKey));
});
