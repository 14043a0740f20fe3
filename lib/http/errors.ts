import { statusOf, type ErrorCode } from "./error-codes";

export type FieldErrors = Record<string, string[]>;

/** An expected failure: thrown by domain code, turned into the error envelope by withApi. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldErrors,
    /** Extra top-level body fields and headers (e.g. retry_after / Retry-After). */
    readonly extra?: { body?: Record<string, unknown>; headers?: Record<string, string> },
  ) {
    super(message);
    this.name = "ApiError";
    this.status = statusOf(code);
  }
}

export function validationError(details: FieldErrors, message = "Request data is invalid."): ApiError {
  return new ApiError("VALIDATION_ERROR", message, details);
}

export function notFound(what = "Resource"): ApiError {
  return new ApiError("NOT_FOUND", `${what} not found.`);
}
