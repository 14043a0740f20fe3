import { routeMethods } from "@/lib/http/route-methods";
import { created } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { acceptInvitationWithCredentials } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/invitations/accept/ – join the inviting account with an existing or a new login
  POST: withApi(memberRoutes.acceptInvitation, async ({ db, body, clientIp }) =>
    created(await acceptInvitationWithCredentials(db, body, clientIp), "Invitation accepted."),
  ),
});
