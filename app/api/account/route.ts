import { getAccountOrThrow, serializeAccount, updateAccountSettings } from "@/lib/auth/account";
import { updateAccountBody } from "@/lib/auth/schemas";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// GET /api/account/ – the logged-in merchant's account, plan and webhook secret (login only)
export const GET = withApi({ route: "GET /api/account" }, async ({ db, principal }) =>
  ok(serializeAccount(await getAccountOrThrow(db, principal.merchantId))),
);

// PUT /api/account/ – account settings: the payment tolerance for new orders (login only)
export const PUT = withApi({ route: "PUT /api/account", body: updateAccountBody }, async ({ db, principal, body }) =>
  ok(serializeAccount(await updateAccountSettings(db, principal.merchantId, body)), "Account updated."),
);
