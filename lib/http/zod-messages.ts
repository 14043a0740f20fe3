import { z } from "zod";

/**
 * zod's process-wide messages: a missing field says "This field is required." (the spec's wording)
 * instead of zod's "Invalid input: expected string, received undefined". Called once per process,
 * by instrumentation.ts at server start and by the vitest setup file. zod keeps this config on
 * `globalThis` (`__zod_globalConfig`), so it reaches every copy of zod that Next bundles into
 * route modules and server actions, not only the one instrumentation imported.
 */
export function configureZodMessages(): void {
  z.config({
    customError: (issue) => (issue.input === undefined && issue.code === "invalid_type" ? "This field is required." : undefined),
  });
}
