import { getDb } from "@/lib/db/client";
import { authorizeMetricsScrape } from "@/lib/health/metrics-access";
import { renderMetrics } from "@/lib/health/render-metrics";
import { healthRoutes } from "@/lib/health/routes";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/metrics – Prometheus metrics of this instance (bearer METRICS_TOKEN when set; off in live mode without it)
  GET: plainRoute({ definition: healthRoutes.metrics }, async (request) => {
    authorizeMetricsScrape(request);
    const { contentType, body } = await renderMetrics(await getDb());
    return new Response(body, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  }),
});
