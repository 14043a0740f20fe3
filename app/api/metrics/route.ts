import { timingSafeEqual } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { renderMetrics } from "@/lib/health/render-metrics";
import { healthRoutes } from "@/lib/health/routes";
import { ApiError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { routeMethods } from "@/lib/http/route-methods";

/** With METRICS_TOKEN set, only a scrape that sends it as a bearer token is answered. */
function authorized(request: Request): boolean {
  if (!env.METRICS_TOKEN) return true;
  const sent = Buffer.from((request.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, ""));
  const expected = Buffer.from(env.METRICS_TOKEN);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/metrics – Prometheus metrics of this instance (bearer METRICS_TOKEN when set)
  GET: plainRoute({ definition: healthRoutes.metrics }, async (request) => {
    if (!authorized(request)) throw new ApiError("INVALID_TOKEN", "A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).");
    const { contentType, body } = await renderMetrics(await getDb());
    return new Response(body, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  }),
});
