import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { identifyActor, runAsActor } from "@/lib/audit/context";
import { authenticate, type Principal } from "@/lib/auth/authenticate";
import { memberOnlyPermissions, roleAllows } from "@/lib/auth/roles";
import { countMerchant, RequestMeter } from "@/lib/auth/rate-limit";
import { consume, rateLimitedError, rateLimitHeaders, type RateLimitState } from "@/lib/rate-limit/fixed-window";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { finishIdempotentRequest, idempotencyHeader, idempotencyKeyOf, startIdempotentRequest, type IdempotencyStart } from "@/lib/idempotency/idempotent-request";
import type { ApiResult } from "./envelope";
import { errorAnswer as errorEnvelope, logRequest } from "./plain-route";
import { clientIpOf, clientLimitSubject } from "./client-address";
import { ApiError, notFound, validationError } from "./errors";
import { readJsonObject } from "./read-body";
import { routeKeyOf, type RouteAccess, type RouteDefinition } from "./define-route";
import { fieldErrors } from "./zod-details";

type Schema = z.ZodType;

/** The route's access rule against the credential: API permissions, a login's role (issue 28). */
export function assertAccess(principal: Principal, access: RouteAccess): void {
  if (access === "public" || access === "authenticated") return;
  const memberOnly = access === "login" || (memberOnlyPermissions as readonly string[]).includes(access);
  if (memberOnly && principal.kind === "api_key") {
    throw new ApiError("INSUFFICIENT_PERMISSIONS", "This operation needs a login; API keys cannot perform it.");
  }
  if (access === "login") return;
  if (principal.role) {
    if (!roleAllows(principal.role, access)) {
      throw new ApiError("INSUFFICIENT_PERMISSIONS", `Your role in this account (${principal.role}) does not allow this ('${access}').`);
    }
    return;
  }
  if (!principal.permissions.includes(access as Principal["permissions"][number])) {
    throw new ApiError("INSUFFICIENT_PERMISSIONS", `This credential lacks the '${access}' permission.`);
  }
}
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<A extends RouteAccess, B, Q, P> {
  request: Request;
  url: URL;
  db: Db;
  requestId: string;
  clientIp: string;
  principal: A extends "public" ? null : Principal;
  /** With `countInStatement`: the request's count in flight, to `admit()` before writing (null: already counted). */
  meter: RequestMeter | null;
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
}

export { clientIpOf };

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

function searchParamsObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * Fields (dotted paths) holding a string with U+0000. PostgreSQL text cannot store that character,
 * so it would fail in the database as a 500; it is refused up front as a validation error.
 */
function fieldsWithNul(input: unknown, path: string[] = [], out: string[] = []): string[] {
  if (typeof input === "string") {
    if (input.includes("\u0000")) out.push(path.length ? path.join(".") : "non_field_errors");
  } else if (input && typeof input === "object" && path.length < 32) {
    for (const [key, value] of Object.entries(input)) {
      if (key.includes("\u0000")) out.push(path.length ? path.join(".") : "non_field_errors");
      else fieldsWithNul(value, [...path, key], out);
    }
  }
  return out;
}

function parseWith<S extends Schema>(schema: S, input: unknown, part: "params" | "query" | "body"): z.output<S> {
  const withNul = fieldsWithNul(input);
  // A path parameter that does not parse (a NUL byte, a malformed id) names no resource.
  if (part === "params" && (withNul.length || !schema.safeParse(input).success)) throw notFound("Resource");
  if (withNul.length) throw validationError(Object.fromEntries(withNul.map((field) => [field, ["Must not contain the NUL character (\\u0000)."]])));
  if (part === "query" && schema instanceof z.ZodObject && input && typeof input === "object") {
    // Lists refuse filters they do not know instead of silently ignoring them (issue 15).
    const known = Object.keys(schema.shape);
    const unknown = Object.keys(input).filter((key) => !known.includes(key));
    if (unknown.length) {
      throw validationError(Object.fromEntries(unknown.map((key) => [key, [`Unknown query parameter; accepted: ${known.join(", ")}.`]])));
    }
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationError(fieldErrors(parsed.error));
  return parsed.data;
}

/**
 * The one wrapper every API route goes through: request id, authentication, rate limit,
 * permission, zod validation, envelope, and the error envelope, all as the route's definition
 * (lib/http/define-route.ts) says.
 */
export function withApi<A extends RouteAccess, B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, P extends Schema | undefined = undefined>(
  options: RouteDefinition<A, B, Q, P>,
  handler: (ctx: RouteContext<A, B, Q, P>) => Promise<ApiResult>,
) {
  const access: RouteAccess = options.access;
  const routeKey = routeKeyOf(options);

  // Every request runs as its actor, for the audit entries its use-cases record (lib/audit/context.ts).
  function route(request: Request, nextContext?: NextRouteContext): Promise<Response> {
    return runAsActor({ kind: "public", label: null, clientIp: clientIpOf(request), userAgent: request.headers.get("user-agent") }, () => answer(request, nextContext));
  }

  async function answer(request: Request, nextContext?: NextRouteContext): Promise<Response> {
    const started = performance.now();
    const now = new Date();
    const requestId = randomUUID();
    const url = new URL(request.url);
    const headers: Record<string, string> = { "x-request-id": requestId };
    let principal: Principal | null = null;
    let quota: RateLimitState | null = null;
    let meter: RequestMeter | null = null;
    /** A read's count, running beside its handler. */
    let countAside: Promise<RateLimitState> | null = null;
    let response: Response;
    let db: Db | undefined;
    /** This request holds an Idempotency-Key: its answer is stored for replays. */
    let idempotent: Extract<IdempotencyStart, { kind: "run" }> | null = null;

    /** Validation and the handler: what an Idempotency-Key replays. */
    async function run(database: Db): Promise<Response> {
      const rawParams = (await nextContext?.params) ?? {};
      const params = options.params ? parseWith(options.params, rawParams, "params") : undefined;
      const query = options.query ? parseWith(options.query, searchParamsObject(url), "query") : undefined;
      const body = options.body ? parseWith(options.body, await readJsonObject(request), "body") : undefined;

      const result = await handler({
        request,
        url,
        db: database,
        requestId,
        clientIp: clientIpOf(request),
        principal: principal as RouteContext<A, B, Q, P>["principal"],
        meter,
        body: body as Out<B>,
        query: query as Out<Q>,
        params: params as Out<P>,
      });
      return Response.json(result.body, { status: result.status, headers: { ...headers, ...result.headers } });
    }

    const errorAnswer = (error: unknown): Response => errorEnvelope(error, { requestId, route: routeKey, headers });

    try {
      if (options.sandboxOnly && env.GATEWAY_MODE !== "sandbox") throw notFound("Endpoint");
      db = await getDb();

      if (options.clientLimit) {
        const clientQuota = await consume(db, `${options.clientLimit.name}:${clientLimitSubject(clientIpOf(request))}`, options.clientLimit.perHour);
        if (clientQuota.exceeded) throw rateLimitedError(clientQuota);
      }

      const withIdempotencyKey = request.method === "POST" && request.headers.has(idempotencyHeader);
      if (access !== "public") {
        // The credential (a recent answer is reused: lib/auth/credential-cache.ts) and, when the
        // database was asked, the request counted in the same statement.
        const authenticated = await authenticate(db, request, now);
        principal = authenticated.principal;
        quota = authenticated.quota;
        identifyActor({ kind: principal.kind, label: principal.apiKeyId !== undefined ? `${principal.username} (API key #${principal.apiKeyId})` : principal.username });
        if (!quota) {
          // A read changes nothing, so it need not wait for its count: the answer waits instead; a
          // metered write waits for it only before it writes. A stored answer is looked up before the
          // handler: a request with an Idempotency-Key is counted first.
          const metered = options.countInStatement && !withIdempotencyKey;
          if (request.method === "GET" || metered) (countAside = countMerchant(db, principal, now)).catch(() => {}); // awaited below
          else quota = await countMerchant(db, principal, now);
          if (metered && countAside) meter = new RequestMeter(countAside);
        }
        if (quota?.exceeded) throw rateLimitedError(quota);
        assertAccess(principal, access);
      }

      // Idempotency-Key on authenticated POSTs (after auth, limit and permission, which are never stored).
      let replay: Extract<IdempotencyStart, { kind: "replay" }> | null = null;
      const idempotencyKey = principal && withIdempotencyKey ? idempotencyKeyOf(request) : null;
      if (principal && idempotencyKey) {
        const start = await startIdempotentRequest(db, principal.merchantId, idempotencyKey, request, url, requestId);
        if (start.kind === "replay") replay = start;
        else idempotent = start;
      }
      if (replay) {
        response = new Response(replay.body, { status: replay.status, headers: { ...replay.headers, ...headers } });
      } else {
        response = await run(db);
      }
    } catch (error) {
      response = errorAnswer(error);
    }

    // The count that ran beside a read or a metered write. Over the limit, the answer is 429, as
    // if the request had been counted first (a metered write wrote nothing: it admits first).
    if (countAside) {
      try {
        quota = await countAside;
        if (quota.exceeded) response = errorAnswer(rateLimitedError(quota));
      } catch (error) {
        response = errorAnswer(error);
      }
    }
    if (quota) for (const [name, value] of Object.entries(rateLimitHeaders(quota))) response.headers.set(name, value);

    if (idempotent && db) {
      // The answer stands even if it cannot be stored (the database went away meanwhile): a retry with the key then runs again or waits on the stale claim.
      await finishIdempotentRequest(db, idempotent, response).catch((error) => log.warn("could not store an idempotent answer", { request_id: requestId, ...describeError(error) }));
    }

    logRequest({ requestId, method: request.method, path: url.pathname, route: options.path, status: response.status, started, merchantId: principal?.merchantId, credential: principal?.kind });
    return response;
  }
  // The definition stays readable on the handler: routeMethods exports it under its method, tests walk it.
  return Object.assign(route, { definition: options as RouteDefinition });
}
