import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { sandboxRoutes } from "@/lib/sandbox/routes";
import { dripFaucet } from "@/lib/sandbox/sandbox-tools";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/sandbox/faucet/ – test tokens or native coin to any address on the devnet
  POST: withApi(sandboxRoutes.faucet, async ({ db, body, principal }) => {
    return ok(await dripFaucet(db, principal.merchantId, body), "Sent from the faucet.");
  }),
});
