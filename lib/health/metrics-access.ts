import "server-only";
import { timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";

/**
 * Whether a scrape may read GET /api/metrics (it names RPC providers, routes and per-route counts):
 * with METRICS_TOKEN set, only with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time; 401 INVALID_TOKEN otherwise). Without it, open in the sandbox and off in live mode (404
 * NOT_FOUND): a live gateway never serves its metrics to whoever finds the URL.
 */
export function authorizeMetricsScrape(request: Request): void {
  if (!env.METRICS_TOKEN) {
    if (env.GATEWAY_MODE === "live") throw new ApiError("NOT_FOUND", "Metrics are off in live mode until METRICS_TOKEN is set.");
    return;
  }
  const sent = Buffer.from((request.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, ""));
  const expected = Buffer.from(env.METRICS_TOKEN);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw new ApiError("INVALID_TOKEN", "A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).");
  }
}
