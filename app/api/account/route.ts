import { getAccountOrThrow, serializeAccount } from "@/lib/auth/account";
import { ok } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// GET /api/account/ – the logged-in merchant's account, plan and webhook secret (login only)
export const GET = withApi({ route: "GET /api/account" }, async ({ db, principal }) =>
  ok(serializeAccount(await getAccountOrThrow(db, principal.merchantId))),
);
