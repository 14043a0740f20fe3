import { getAccountFor, maySeeAccountSecret, serializeAccount, updateAccountSettings } from "@/lib/auth/account";
import { authRoutes } from "@/lib/auth/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/account/ – the logged-in merchant's account and plan; the webhook secret to owners and admins only (login only)
  GET: withApi(authRoutes.getAccount, async ({ db, principal }) => ok(await getAccountFor(db, principal))),

  // PUT /api/account/ – account settings: the payment tolerance for new orders (login only)
  PUT: withApi(authRoutes.updateAccount, async ({ db, principal, body }) =>
    ok(
      serializeAccount(await updateAccountSettings(db, principal.merchantId, body), { withWebhookSecret: maySeeAccountSecret(principal) }),
      "Account updated.",
    ),
  ),
});
