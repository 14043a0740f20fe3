import { getDb } from "@/lib/db/client";
import { checkReadiness } from "@/lib/health/readiness";
import { healthRoutes } from "@/lib/health/routes";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/health/ready – readiness: 503 naming the failed checks when the database or a worker is not well
  GET: plainRoute({ definition: healthRoutes.readiness }, async () => {
    const readiness = await checkReadiness(await getDb());
    return { status: readiness.ready ? 200 : 503, body: readiness.body, headers: { "cache-control": "no-store" } };
  }),
});
