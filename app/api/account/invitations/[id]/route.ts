import { routeMethods } from "@/lib/http/route-methods";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { cancelInvitation, memberActorOf } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/account/invitations/{id}/ – the invitation's link stops working
  DELETE: withApi(memberRoutes.revokeInvitation, async ({ db, principal, params }) => {
    await cancelInvitation(db, memberActorOf(principal), params.id);
    return ok({ id: params.id }, "Invitation revoked.");
  }),
});
