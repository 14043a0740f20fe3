import { z } from "zod";

export const livenessJson = z.object({ status: z.literal("alive").describe("The process answers HTTP; it checks nothing else") });

const checkStatus = z.enum(["ok", "failed"]);

export const readinessJson = z
  .object({
    status: z.enum(["ready", "not_ready"]),
    failed: z.array(z.enum(["database", "workers"])).describe("The checks that failed (empty when ready)"),
    checks: z.object({
      database: z.object({ status: checkStatus, duration_ms: z.number().int(), error: z.string().optional() }),
      workers: z.object({
        status: checkStatus,
        driver: z.enum(["local", "inngest", "none"]),
        error: z.string().optional(),
        stale: z
          .array(z.object({ task: z.string(), overdue_seconds: z.number().int(), consecutive_errors: z.number().int(), last_error: z.string().nullable() }))
          .describe("Task loops that have not completed a tick within the sleep they announced plus the grace"),
        tasks: z
          .array(
            z.object({
              task: z.string(),
              running_since: z.string().nullable(),
              last_success_at: z.string().nullable(),
              last_error_at: z.string().nullable(),
              last_error: z.string().nullable(),
              consecutive_errors: z.number().int(),
              backing_off_until: z.string().nullable(),
              last_tick_duration_ms: z.number().int().nullable(),
              due_by: z.string(),
              restarts: z.number().int(),
              locked_elsewhere: z.boolean(),
            }),
          )
          .describe("Every task loop of this instance (local driver)"),
      }),
    }),
  })
  .describe("200 when ready, 503 with the same shape when a check failed");

export const metricsText = z.string().describe("Prometheus text exposition format (text/plain; version=0.0.4)");
