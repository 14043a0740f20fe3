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
import {
  finishIdempotentRequest,
  idempotencyHeader,
  idempotencyKeyOf,
  startIdempotentRequest,
  type IdempotencyStart,
} from "@/lib/idempotency/idempotent-request";
import type { ApiResult } from "./envelope";
import { errorAnswer as errorEnvelope, logRequest } from "./plain-route";
import { clientIpOf, clientLimitSubject } from "./client-address";
import { ApiError, notFound, validationError } from "./errors";
import { readJsonObject } from "./read-body";
import { routeKeyOf, type RouteAccess, type RouteDefinition, type SuccessBody, type SuccessResponse, type SuccessStatus } from "./define-route";
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

/** Who is calling and how their request counts, as the admission stage settled it. */
interface Admission {
  principal: Principal | null;
  /** The request's count, when it was taken before the handler. */
  quota: RateLimitState | null;
  /** A read's or a metered write's count, running beside its handler (settled by `settleCount`). */
  countAside: Promise<RateLimitState> | null;
  /** `countInStatement` routes: the count in flight, for the handler to `admit()` before it writes. */
  meter: RequestMeter | null;
  /** Why the request stops here (429, 403), with what was learnt so far kept for its headers and log line. */
  refusal: ApiError | null;
}

const anonymous: Admission = { principal: null, quota: null, countAside: null, meter: null, refusal: null };

/** What the pipeline produced: the answer, and what the closing stages need of it. */
interface Handled {
  response: Response;
  admission: Admission;
  db: Db | null;
  /** This request holds an Idempotency-Key: its answer is stored for replays. */
  idempotent: Extract<IdempotencyStart, { kind: "run" }> | null;
}

/** The request's identity: its id (`x-request-id`), URL and clock, fixed at the start. */
interface Call {
  request: Request;
  requestId: string;
  url: URL;
  now: Date;
  headers: Record<string, string>;
}

/** A handler's answer, held to what its route's reference says (status and body type). */
export type RouteAnswer<R extends SuccessResponse> = ApiResult<SuccessBody<R>, SuccessStatus<R>>;

/**
 * The one wrapper every API route goes through: request id, authentication, rate limit,
 * permission, zod validation, envelope, and the error envelope, all as the route's definition
 * (lib/http/define-route.ts) says. The handler's answer must be the body the route's reference
 * documents (`RouteAnswer`): a field the OpenAPI response schema lacks, or of another type, fails
 * the type check.
 *
 * The stages, in order, each returning what the next needs: `openDatabase` (sandbox-only routes,
 * the client), `limitClient` (public routes' per-address limit), `admit` (credential, count,
 * access), `claimIdempotency` (a stored answer, or a claim on the key), `execute` (parse, then the
 * handler), and after the answer `settleCount`, `storeIdempotentAnswer` and the log line.
 */
export function withApi<
  A extends RouteAccess,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  R extends SuccessResponse = SuccessResponse,
>(options: RouteDefinition<A, B, Q, P, R>, handler: (ctx: RouteContext<A, B, Q, P>) => Promise<RouteAnswer<R>>) {
  const access: RouteAccess = options.access;
  const routeKey = routeKeyOf(options);

  // Every request runs as its actor, for the audit entries its use-cases record (lib/audit/context.ts).
  function route(request: Request, nextContext?: NextRouteContext): Promise<Response> {
    return runAsActor({ kind: "public", label: null, clientIp: clientIpOf(request), userAgent: request.headers.get("user-agent") }, () =>
      answer(request, nextContext),
    );
  }

  async function answer(request: Request, nextContext?: NextRouteContext): Promise<Response> {
    const started = performance.now();
    const requestId = randomUUID();
    const call: Call = { request, requestId, url: new URL(request.url), now: new Date(), headers: { "x-request-id": requestId } };
    const errorAnswer = (error: unknown): Response => errorEnvelope(error, { requestId, route: routeKey, headers: call.headers });

    const handled = await pipeline(call, nextContext, errorAnswer).catch((error): Handled => ({
      response: errorAnswer(error),
      admission: anonymous,
      db: null,
      idempotent: null,
    }));
    const { response, quota } = await settleCount(handled.response, handled.admission, errorAnswer);
    if (quota) for (const [name, value] of Object.entries(rateLimitHeaders(quota))) response.headers.set(name, value);
    if (handled.idempotent && handled.db) await storeIdempotentAnswer(handled.db, handled.idempotent, response, requestId);

    const { principal } = handled.admission;
    logRequest({
      requestId,
      method: request.method,
      path: call.url.pathname,
      route: options.path,
      status: response.status,
      started,
      merchantId: principal?.merchantId,
      credential: principal?.kind,
    });
    return response;
  }

  /** Everything up to the answer. Throws only before admission (the database, a client limit); later failures become the answer. */
  async function pipeline(call: Call, nextContext: NextRouteContext | undefined, errorAnswer: (error: unknown) => Response): Promise<Handled> {
    const db = await openDatabase();
    await limitClient(db, call.request);
    const admission = await admit(db, call);
    if (admission.refusal) return { response: errorAnswer(admission.refusal), admission, db, idempotent: null };
    let claim: IdempotencyStart | null;
    try {
      claim = await claimIdempotency(db, admission.principal, call);
    } catch (error) {
      return { response: errorAnswer(error), admission, db, idempotent: null };
    }
    if (claim?.kind === "replay") {
      return { response: new Response(claim.body, { status: claim.status, headers: { ...claim.headers, ...call.headers } }), admission, db, idempotent: null };
    }
    // The request's own answer, a refusal included, is what a key stores for replays.
    const response = await execute(db, admission, call, nextContext).catch(errorAnswer);
    return { response, admission, db, idempotent: claim };
  }

  async function openDatabase(): Promise<Db> {
    if (options.sandboxOnly && env.GATEWAY_MODE !== "sandbox") throw notFound("Endpoint");
    return getDb();
  }

  /** A public route's per-client-address limit, counted before anything else is read. */
  async function limitClient(db: Db, request: Request): Promise<void> {
    if (!options.clientLimit) return;
    const clientQuota = await consume(db, `${options.clientLimit.name}:${clientLimitSubject(clientIpOf(request))}`, options.clientLimit.perHour);
    if (clientQuota.exceeded) throw rateLimitedError(clientQuota);
  }

  /**
   * The credential (a recent answer is reused: lib/auth/credential-cache.ts) and, when the database
   * was asked, the request counted in the same statement; else the count is taken here, or beside
   * the handler for a read (it changes nothing, so the answer waits instead) and a metered write
   * (it waits only before it writes). A request with an Idempotency-Key is counted first: its stored
   * answer is looked up before the handler. Then the route's access rule.
   */
  async function admit(db: Db, call: Call): Promise<Admission> {
    if (access === "public") return anonymous;
    const { principal, quota: countedWithCredential } = await authenticate(db, call.request, call.now);
    identifyActor({
      kind: principal.kind,
      label: principal.apiKeyId !== undefined ? `${principal.username} (API key #${principal.apiKeyId})` : principal.username,
    });
    let quota = countedWithCredential;
    let countAside: Promise<RateLimitState> | null = null;
    let meter: RequestMeter | null = null;
    if (!quota) {
      const metered = options.countInStatement === true && !hasIdempotencyKey(call.request);
      if (call.request.method === "GET" || metered) {
        countAside = countMerchant(db, principal, call.now);
        countAside.catch(() => {}); // awaited by settleCount
        if (metered) meter = new RequestMeter(countAside);
      } else {
        quota = await countMerchant(db, principal, call.now);
      }
    }
    const admission: Admission = { principal, quota, countAside, meter, refusal: null };
    if (quota?.exceeded) return { ...admission, refusal: rateLimitedError(quota) };
    try {
      assertAccess(principal, access);
    } catch (error) {
      if (error instanceof ApiError) return { ...admission, refusal: error };
      throw error;
    }
    return admission;
  }

  /** Idempotency-Key on authenticated POSTs (after auth, limit and permission, which are never stored): a stored answer, or a claim on the key. */
  async function claimIdempotency(db: Db, principal: Principal | null, call: Call): Promise<IdempotencyStart | null> {
    const key = principal && hasIdempotencyKey(call.request) ? idempotencyKeyOf(call.request) : null;
    if (!principal || !key) return null;
    return startIdempotentRequest(db, principal.merchantId, key, call.request, call.url, call.requestId);
  }

  /** Validation and the handler: what an Idempotency-Key replays. */
  async function execute(db: Db, admission: Admission, call: Call, nextContext: NextRouteContext | undefined): Promise<Response> {
    const rawParams = (await nextContext?.params) ?? {};
    const params = options.params ? parseWith(options.params, rawParams, "params") : undefined;
    const query = options.query ? parseWith(options.query, searchParamsObject(call.url), "query") : undefined;
    const body = options.body ? parseWith(options.body, await readJsonObject(call.request), "body") : undefined;
    const result = await handler({
      request: call.request,
      url: call.url,
      db,
      requestId: call.requestId,
      clientIp: clientIpOf(call.request),
      principal: admission.principal as RouteContext<A, B, Q, P>["principal"],
      meter: admission.meter,
      body: body as Out<B>,
      query: query as Out<Q>,
      params: params as Out<P>,
    });
    return Response.json(result.body, { status: result.status, headers: { ...call.headers, ...result.headers } });
  }

  // The definition stays readable on the handler: routeMethods exports it under its method, tests walk it.
  return Object.assign(route, { definition: options as unknown as RouteDefinition });
}

function hasIdempotencyKey(request: Request): boolean {
  return request.method === "POST" && request.headers.has(idempotencyHeader);
}

/**
 * The count that ran beside a read or a metered write. Over the limit, the answer is 429, as if the
 * request had been counted first (a metered write wrote nothing: it admits first). Returns the answer
 * and the count whose X-RateLimit-* headers it carries.
 */
async function settleCount(
  response: Response,
  admission: Admission,
  errorAnswer: (error: unknown) => Response,
): Promise<{ response: Response; quota: RateLimitState | null }> {
  if (!admission.countAside) return { response, quota: admission.quota };
  try {
    const quota = await admission.countAside;
    return { response: quota.exceeded ? errorAnswer(rateLimitedError(quota)) : response, quota };
  } catch (error) {
    return { response: errorAnswer(error), quota: admission.quota };
  }
}

/** Stores the answer for replays. The answer stands even if it cannot be stored (the database went away meanwhile): a retry with the key then runs again or waits on the stale claim. */
async function storeIdempotentAnswer(db: Db, claim: Extract<IdempotencyStart, { kind: "run" }>, response: Response, requestId: string): Promise<void> {
  await finishIdempotentRequest(db, claim, response).catch((error) =>
    log.warn("could not store an idempotent answer", { request_id: requestId, ...describeError(error) }),
  );
}
