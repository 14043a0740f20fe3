import { bareAnswer, defineRoute } from "@/lib/http/define-route";
import { livenessJson, metricsText, readinessJson } from "./schemas";

/** For the operator's monitoring: public probes (no credential, no rate limit) and the metrics scrape. */
export const healthRoutes = {
  liveness: defineRoute({
    method: "GET",
    path: "/api/health/live",
    access: "public",
    doc: {
      summary: "Liveness probe",
      description: "200 while the process answers HTTP. It does not touch the database, so a database outage never gets the process restarted.",
      tags: ["Operations"],
      response: bareAnswer(livenessJson),
    },
  }),
  readiness: defineRoute({
    method: "GET",
    path: "/api/health/ready",
    access: "public",
    doc: {
      summary: "Readiness probe",
      description:
        "200 when the database answers within 2 s and (local job driver) every background task completed a tick within the sleep it announced plus a 30 s grace; otherwise 503 with the same body, whose `failed` names the checks that failed and `checks.workers.stale` the late tasks.",
      tags: ["Operations"],
      response: bareAnswer(readinessJson),
    },
  }),
  metrics: defineRoute({
    method: "GET",
    path: "/api/metrics",
    access: "public",
    doc: {
      summary: "Prometheus metrics",
      description:
        "The process's metrics in the Prometheus text format: chain head, scanned cursor and lag, webhook deliveries due and attempts, sweeps, gasless relay spend and budget, background task state, HTTP requests. When METRICS_TOKEN is set, send `Authorization: Bearer <METRICS_TOKEN>` (401 INVALID_TOKEN otherwise); in live mode without METRICS_TOKEN the endpoint is off (404 NOT_FOUND).",
      tags: ["Operations"],
      response: bareAnswer(metricsText),
    },
  }),
};
