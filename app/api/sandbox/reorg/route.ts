import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { sandboxRoutes } from "@/lib/sandbox/routes";
import { reorg } from "@/lib/sandbox/sandbox-tools";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/sandbox/reorg/ – replace the devnet's newest blocks with a longer branch
  POST: withApi(sandboxRoutes.reorg, async ({ db, body, principal }) => {
    const result = await reorg(db, principal.merchantId, body);
    return ok(result, `Replaced ${result.depth} block(s).`);
  }),
});
