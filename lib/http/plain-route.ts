import "server-only";
import { randomUUID } from "node:crypto";
import { databaseUnavailability } from "@/lib/db/errors";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { observeHttpRequest } from "@/lib/metrics/record";
import type { ApiResult } from "./envelope";
import { errorResponse } from "./envelope";
import type { RouteDefinition } from "./define-route";
import { ApiError, notFound } from "./errors";

/** Seconds a client is told to wait (`Retry-After`) when the database is unavailable. */
export const databaseRetryAfterSeconds = 5;

/** The 503 a request gets while the database cannot be reached: retry advice in the body and in `Retry-After`. */
export function databaseUnavailableError(): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", "The service is temporarily unavailable (its database cannot be reached). Retry shortly.", undefined, {
    body: { retry_after: databaseRetryAfterSeconds },
    headers: { "Retry-After": String(databaseRetryAfterSeconds) },
  });
}

/**
 * A thrown error as the error envelope: an ApiError gives its code, status, details and extra
 * fields; a lost or unreachable database (lib/db/errors.ts) is a 503 SERVICE_UNAVAILABLE with
 * Retry-After, logged as a warning with its cause; anything else is logged with the request id
 * and becomes a fixed 500 INTERNAL_ERROR (no stack, no SQL in the body).
 */
export function errorAnswer(error: unknown, { requestId, route, headers }: { requestId: string; route: string; headers: Record<string, string> }): Response {
  const unavailable = error instanceof ApiError ? null : databaseUnavailability(error);
  if (unavailable) {
    log.warn("database unavailable; answered 503", { request_id: requestId, route, ...unavailable });
    error = databaseUnavailableError();
  }
  if (error instanceof ApiError) {
    return errorResponse(error.code, error.message, { details: error.details, extra: error.extra?.body, headers: { ...headers, ...error.extra?.headers } });
  }
  log.error("unhandled error", { request_id: requestId, route, ...describeError(error) });
  return errorResponse("INTERNAL_ERROR", "An unexpected error occurred.", { headers });
}

/** The one log line per request (never a body, token or secret). */
export function logRequest(fields: {
  requestId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  started: number;
  merchantId?: number;
  credential?: string;
}): void {
  const durationMs = performance.now() - fields.started;
  observeHttpRequest(fields.method, fields.route, fields.status, durationMs / 1000);
  log.info("request", {
    request_id: fields.requestId,
    method: fields.method,
    path: fields.path,
    status: fields.status,
    duration_ms: Math.round(durationMs),
    merchant_id: fields.merchantId,
    credential: fields.credential,
  });
}

export interface PlainRouteOptions {
  /** The route's pattern, e.g. "/api/[...path]": named in error logs. */
  route?: string;
  /** A documented operation that is not a withApi route (the inbox capture URL): its path names it, its sandboxOnly applies. */
  definition?: RouteDefinition;
  /** Sandbox tools: 404 NOT_FOUND in live mode, before the handler runs. */
  sandboxOnly?: boolean;
  /** The path holds a credential (a capture token): the request log shows the route's pattern instead. */
  secretPath?: boolean;
}

/**
 * For the few routes that cannot go through withApi (the catch-all 404, the sandbox inbox's
 * capture URL, the Inngest serve endpoint): the same request id (`x-request-id`), error envelope
 * and request log line, with no authentication, rate limit or body parsing. The handler returns
 * an `ApiResult` (sent as JSON) or a ready Response, and throws ApiError for expected failures.
 */
export function plainRoute<C = unknown>(
  options: PlainRouteOptions,
  handler: (request: Request, context: C, requestId: string) => Promise<ApiResult | Response>,
) {
  const routeName = options.definition?.path ?? options.route ?? "route";
  const sandboxOnly = options.sandboxOnly ?? options.definition?.sandboxOnly;
  async function route(request: Request, context: C): Promise<Response> {
    const started = performance.now();
    const requestId = randomUUID();
    const headers = { "x-request-id": requestId };
    let response: Response;
    try {
      if (sandboxOnly && env.GATEWAY_MODE !== "sandbox") throw notFound("Endpoint");
      const result = await handler(request, context, requestId);
      response =
        result instanceof Response
          ? withHeaders(result, headers)
          : Response.json(result.body, { status: result.status, headers: { ...headers, ...result.headers } });
    } catch (error) {
      response = errorAnswer(error, { requestId, route: routeName, headers });
    }
    logRequest({
      requestId,
      method: request.method,
      path: options.secretPath ? routeName : new URL(request.url).pathname,
      route: routeName,
      status: response.status,
      started,
    });
    return response;
  }
  return Object.assign(route, { definition: options.definition });
}

/** The response with these headers added; a response with immutable headers (e.g. from fetch) is copied first. */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
