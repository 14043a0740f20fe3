import { accountSecretsByIds } from "@/lib/auth/queries";
import { page, pageWindow } from "@/lib/http/pagination";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { inboxUrl } from "@/lib/webhooks/inbox-url";
import { listInboxMessages } from "@/lib/webhooks/queries";
import { webhookRoutes } from "@/lib/webhooks/routes";
import { serializeInboxMessage } from "@/lib/webhooks/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/sandbox/inbox/ – what the merchant's capture URL received, newest first (sandbox only)
  GET: withApi(webhookRoutes.listInbox, async ({ db, url, query, principal }) => {
    const [{ rows, count }, [account]] = await Promise.all([
      listInboxMessages(db, principal.merchantId, pageWindow(query)),
      accountSecretsByIds(db, [principal.merchantId]),
    ]);
    const result = page(url, query, count, rows.map(serializeInboxMessage));
    // The page shape plus where to point an endpoint (or an order's webhook_url) to fill it.
    return { ...result, body: { inbox_url: account ? inboxUrl(account.inboxToken) : null, ...result.body } };
  }),
});
