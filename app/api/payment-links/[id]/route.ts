import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { deleteLink, getLinkOrThrow, serializeLink, updateLink } from "@/lib/payment-links/payment-links";
import { paymentLinkRoutes } from "@/lib/payment-links/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/payment-links/{id}/ – one payment link
  GET: withApi(paymentLinkRoutes.getLink, async ({ db, params, principal }) => ok(serializeLink(await getLinkOrThrow(db, principal.merchantId, params.id)))),

  // PUT /api/payment-links/{id}/ – replace a link's settings (orders already made keep theirs)
  PUT: withApi(paymentLinkRoutes.updateLink, async ({ db, params, body, principal }) =>
    ok(serializeLink(await updateLink(db, principal.merchantId, params.id, body)), "Payment link updated."),
  ),

  // DELETE /api/payment-links/{id}/ – remove a link; its page answers 404 from now on
  DELETE: withApi(paymentLinkRoutes.deleteLink, async ({ db, params, principal }) => {
    await deleteLink(db, principal.merchantId, params.id);
    return ok({ id: params.id, deleted: true }, "Payment link deleted.");
  }),
});
