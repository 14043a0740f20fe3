import { env } from "@/lib/env";
import { redactUrls } from "@/lib/redact";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

/** One JSON line per event. Callers pass only what is safe to keep: never bodies, tokens or secrets; URLs are cut to their origin. */
function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (levels[level] < levels[env.LOG_LEVEL]) return;
  // No URL's path or query reaches the log (RPC provider keys live there; see lib/redact.ts).
  const line = redactUrls(JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields }));
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

/** drizzle's query errors put the bound parameters (password hashes, secrets) in their message and stack. */
function isQueryError(error: Error): error is Error & { query: string; params: unknown[] } {
  return typeof (error as { query?: unknown }).query === "string" && Array.isArray((error as { params?: unknown }).params);
}

/** Error details for the log (message and stack), never for a response body. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  if (isQueryError(error)) {
    const cause = error.cause;
    return {
      error: `query failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      code: (cause as { code?: unknown } | undefined)?.code,
      query: error.query,
      stack: (error.stack ?? "")
        .split("\n")
        .filter((line) => /^\s+at /.test(line))
        .join("\n"),
    };
  }
  return { error: error.message, stack: error.stack };
}
