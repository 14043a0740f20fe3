import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { unsubscribe } from "@/lib/mail/customer-mail";
import { mailRoutes } from "@/lib/mail/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/mail/unsubscribe?token=… – one click: a store's customer mail stops going to the address
  POST: withApi(mailRoutes.unsubscribe, async ({ db, query }) => ok(await unsubscribe(db, query.token), "Unsubscribed.")),
});
