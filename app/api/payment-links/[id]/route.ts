import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { deleteLink, getLinkOrThrow, serializeLink, updateLink } from "@/lib/payment-links/payment-links";
import { linkParams, updateLinkBody } from "@/lib/payment-links/schemas";

// GET /api/payment-links/{id}/ – one payment link
export const GET = withApi({ route: "GET /api/payment-links/[id]", params: linkParams }, async ({ db, params, principal }) =>
  ok(serializeLink(await getLinkOrThrow(db, principal.merchantId, params.id))),
);

// PUT /api/payment-links/{id}/ – replace a link's settings (orders already made keep theirs)
export const PUT = withApi({ route: "PUT /api/payment-links/[id]", params: linkParams, body: updateLinkBody }, async ({ db, params, body, principal }) =>
  ok(serializeLink(await updateLink(db, principal.merchantId, params.id, body)), "Payment link updated."),
);

// DELETE /api/payment-links/{id}/ – remove a link; its page answers 404 from now on
export const DELETE = withApi({ route: "DELETE /api/payment-links/[id]", params: linkParams }, async ({ db, params, principal }) => {
  await deleteLink(db, principal.merchantId, params.id);
  return ok({ id: params.id, deleted: true }, "Payment link deleted.");
});
