import { healthRoutes } from "@/lib/health/routes";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/health/live – liveness: the process answers (never touches the database)
  GET: plainRoute({ definition: healthRoutes.liveness }, async () => ({ status: 200, body: { status: "alive" }, headers: { "cache-control": "no-store" } })),
});
