import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { sandboxRoutes } from "@/lib/sandbox/routes";
import { mine } from "@/lib/sandbox/sandbox-tools";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/sandbox/mine/ – mine n blocks on the devnet (simulated confirmations)
  POST: withApi(sandboxRoutes.mine, async ({ db, body, principal }) => {
    return ok(await mine(db, principal.merchantId, body), `Mined ${body.blocks} block(s).`);
  }),
});
