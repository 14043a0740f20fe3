import { routeMethods } from "@/lib/http/route-methods";
import { created, ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { inviteMember, listInvitations, memberActorOf, serializeSentInvitation } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/account/invitations/ – open invitations
  GET: withApi(memberRoutes.listInvitations, async ({ db, principal }) => ok(await listInvitations(db, memberActorOf(principal)))),
  // POST /api/account/invitations/ – mail an invitation to join with a role
  POST: withApi(memberRoutes.invite, async ({ db, principal, body }) =>
    created(serializeSentInvitation(await inviteMember(db, memberActorOf(principal), body)), "Invitation sent."),
  ),
});
