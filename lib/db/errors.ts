/** Unique-index violation from either driver (postgres.js or PGlite). */
export function uniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Node socket errors that mean the database server cannot be reached (or went away mid-query). */
const unreachableErrnos = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/** postgres.js's own connection errors. */
const clientConnectionCodes = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);
/**
 * SQLSTATEs of a server that is going away or not accepting work: 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up / shutting down), 53300
 * too_many_connections, 57014 query_canceled (our statement_timeout), and class 08 (connection exception).
 */
const unavailableSqlStates = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);

/**
 * Why the database is unavailable, when `error` (or any error in its cause chain) says it cannot
 * be reached, went away, or did not answer in time; null for any other error (a bug, a constraint).
 * Walks `cause` because drizzle wraps the driver's error.
 */
export function databaseUnavailableReason(error: unknown): string | null {
  return databaseUnavailability(error)?.cause ?? null;
}

/**
 * The unavailability for the log: the code and the driver's own message (never drizzle's wrapper
 * message, which carries the SQL and its bound parameters).
 */
export function databaseUnavailability(error: unknown): { cause: string; error: string } | null {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (unreachableErrnos.has(code) || clientConnectionCodes.has(code) || unavailableSqlStates.has(code) || /^08...$/.test(code)) {
      return { cause: code, error: e instanceof Error ? e.message : String((e as { message?: unknown }).message ?? code) };
    }
  }
  return null;
}
