import { routeMethods } from "@/lib/http/route-methods";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { listMembers } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/account/members/ – the account's members and their roles
  GET: withApi(memberRoutes.listMembers, async ({ db, principal }) => ok(await listMembers(db, principal.merchantId))),
});
