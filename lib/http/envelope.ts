import { statusOf, type ErrorCode } from "./error-codes";
import type { FieldErrors } from "./errors";

/** What a handler returns; withApi adds headers and serialises it. */
export interface ApiResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const now = () => new Date().toISOString();

/** 200 `{ success, data, message, timestamp }` */
export function ok(data: unknown, message = "OK"): ApiResult {
  return { status: 200, body: { success: true, data, message, timestamp: now() } };
}

/** 201 `{ success, data, message, timestamp }` */
export function created(data: unknown, message = "Created"): ApiResult {
  return { status: 201, body: { success: true, data, message, timestamp: now() } };
}

/** A bare body (auth endpoints answer bare objects, lists the bare page shape). */
export function bare(body: unknown, status = 200): ApiResult {
  return { status, body };
}

export function errorBody(code: ErrorCode, message: string, details?: FieldErrors, extra?: Record<string, unknown>) {
  return {
    success: false as const,
    error: details ? { code, message, details } : { code, message },
    ...extra,
    timestamp: now(),
  };
}

export function errorResponse(
  code: ErrorCode,
  message: string,
  options: { details?: FieldErrors; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Response {
  return Response.json(errorBody(code, message, options.details, options.extra), {
    status: statusOf(code),
    headers: options.headers,
  });
}
