import { routeMethods } from "@/lib/http/route-methods";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { accountsOfUser } from "@/lib/members/members";
import { memberRoutes } from "@/lib/members/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/accounts/ – the merchant accounts this login belongs to
  GET: withApi(memberRoutes.listAccounts, async ({ db, principal }) => ok(await accountsOfUser(db, principal.userId!))),
});
