import { routeMethods } from "@/lib/http/route-methods";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { changeMemberRole, listMembers, memberActorOf, removeMember } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /api/account/members/{userId}/ – change a member's role
  PUT: withApi(memberRoutes.changeMemberRole, async ({ db, principal, params, body }) => {
    await changeMemberRole(db, memberActorOf(principal), params.userId, body.role);
    const member = (await listMembers(db, principal.merchantId)).find((m) => m.user_id === params.userId)!;
    return ok(member, "Role changed.");
  }),
  // DELETE /api/account/members/{userId}/ – remove a member from the account
  DELETE: withApi(memberRoutes.removeMember, async ({ db, principal, params }) => {
    await removeMember(db, memberActorOf(principal), params.userId);
    return ok({ user_id: params.userId }, "Member removed.");
  }),
});
