import { page, pageQuery, pageWindow } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { inboxUrl } from "@/lib/webhooks/inbox-url";
import { accountSecretsByIds } from "@/lib/auth/queries";
import { listInboxMessages } from "@/lib/webhooks/queries";
import { serializeInboxMessage } from "@/lib/webhooks/serialize";

// GET /api/sandbox/inbox/ – what the merchant's capture URL received, newest first (sandbox only)
export const GET = withApi({ route: "GET /api/sandbox/inbox", query: pageQuery, sandboxOnly: true }, async ({ db, url, query, principal }) => {
  const [{ rows, count }, [account]] = await Promise.all([
    listInboxMessages(db, principal.merchantId, pageWindow(query)),
    accountSecretsByIds(db, [principal.merchantId]),
  ]);
  const result = page(url, query, count, rows.map(serializeInboxMessage));
  // The page shape plus where to point an endpoint (or an order's webhook_url) to fill it.
  return { ...result, body: { inbox_url: account ? inboxUrl(account.inboxToken) : null, ...(result.body as object) } };
});
