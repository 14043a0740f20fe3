import { statusOf, type ErrorCode } from "./error-codes";
import type { FieldErrors } from "./errors";

/**
 * What a handler returns; withApi adds headers and serialises it. `B` and `S` are the body and
 * status as the helpers below type them, so withApi can hold a handler to its route's reference.
 */
export interface ApiResult<B = unknown, S extends number = number> {
  readonly status: S;
  readonly body: B;
  readonly headers?: Record<string, string>;
}

/** The success envelope around `data`. */
export interface Envelope<T> {
  success: true;
  data: T;
  message: string;
  timestamp: string;
}

const now = () => new Date().toISOString();

/** 200 `{ success, data, message, timestamp }` */
export function ok<T>(data: T, message = "OK"): ApiResult<Envelope<T>, 200> {
  return { status: 200, body: { success: true, data, message, timestamp: now() } };
}

/** 201 `{ success, data, message, timestamp }` */
export function created<T>(data: T, message = "Created"): ApiResult<Envelope<T>, 201> {
  return { status: 201, body: { success: true, data, message, timestamp: now() } };
}

/** A bare body (auth endpoints answer bare objects, lists the bare page shape). */
export function bare<T, const S extends number = 200>(body: T, status: S = 200 as S): ApiResult<T, S> {
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
