import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import type { MemberOnlyPermission } from "@/lib/auth/roles";
import type { ErrorCode } from "./error-codes";

/**
 * One definition per API operation (unkey's `createRoute`): method, path, who may call it, the zod
 * schemas of its inputs and what the reference says about it. The same object is handed to
 * `withApi` (which enforces access, limits and validation from it), listed in lib/api-routes.ts
 * (the route table the access tests walk) and read by lib/openapi/document.ts (the reference).
 */

export const httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof httpMethods)[number];

/**
 * Who may call a route:
 * - `public`: no credential (register, login, refresh, the payment page's endpoints);
 * - `authenticated`: any valid credential (access token, API key, dashboard session);
 * - `login`: a login only (access token or dashboard session), never an API key;
 * - a permission: a credential carrying it (an API key's own, a login's from its role in the account);
 * - a member-only permission (manage_api_keys, manage_account, manage_members): a login whose role
 *   carries it (lib/auth/roles.ts), never an API key.
 */
export type RouteAccess = "public" | "authenticated" | "login" | Permission | MemberOnlyPermission;

/** The reference's sections, in the order it shows them. */
export const apiTags = {
  Authentication: "Register, log in, refresh and check tokens.",
  Account: "The merchant account (login only).",
  Members:
    "The people of a merchant account and their roles (owner, admin, developer, viewer), invitations by email, and the accounts a login belongs to (login only).",
  "API keys": "Dedicated credentials for merchant backends (managed with a login only).",
  Blockchains: "The networks this deployment serves.",
  "Merchant wallets": "Where each blockchain's payments end up: one receiving wallet per blockchain.",
  "Payment orders": "Payment requests, each with its own deposit address.",
  Transactions: "On-chain transfers the gateway detected.",
  Webhooks: "Endpoints that receive order events, their delivery log, and the event history.",
  "Payment links": "Reusable links (/link/{id}): each customer opening one gets a fresh order and the hosted payment page.",
  Payouts: "Batches that pay many addresses in one transaction your wallet signs, with approval above a threshold.",
  Subscriptions:
    "Plans and the subscriptions to them: the customer grants a capped allowance once to the subscription's own pull contract, and each period the gateway moves at most one period's amount straight to the merchant's wallet.",
  Invoices: "Invoices mailed to clients, paid on the hosted invoice page (/invoice/{id}) through the checkout, with reminders and a printable PDF.",
  "Payment page": "What the hosted payment page (/pay/{order_id}) calls; public, by ORD-… id only.",
  Sandbox: "Test tools: devnet payments, mining, faucet and a webhook inbox (sandbox mode only; 404 in live mode).",
  Meta: "This document.",
  Operations: "Liveness, readiness and Prometheus metrics for the operator's monitoring (no merchant credential).",
} as const;
export type ApiTag = keyof typeof apiTags;

/** How a route answers on success (lib/http/envelope.ts and lib/http/pagination.ts). */
export type EnvelopeAnswer<D extends z.ZodType = z.ZodType> = { kind: "envelope"; status: 200 | 201; data: D; message: string };
export type PageAnswer<I extends z.ZodType = z.ZodType, E extends z.ZodObject | undefined = z.ZodObject | undefined> = { kind: "page"; item: I; extra?: E };
export type BareAnswer<S extends z.ZodType = z.ZodType> = { kind: "bare"; status: 200 | 201; schema: S };
export type SuccessResponse =
  /** `ok()` / `created()`: `{ success: true, data, message, timestamp }`. */
  | EnvelopeAnswer
  /** `page()`: the bare list shape `{ count, next, previous, results }`, plus any `extra` top-level fields. */
  | PageAnswer
  /** `bare()`: the body itself (auth endpoints). */
  | BareAnswer;

/** `ok(data, message)` in the reference. */
export const okAnswer = <D extends z.ZodType>(data: D, message = "OK") =>
  ({ kind: "envelope", status: 200, data, message }) as const satisfies EnvelopeAnswer<D>;
/** `created(data, message)` in the reference. */
export const createdAnswer = <D extends z.ZodType>(data: D, message = "Created") =>
  ({ kind: "envelope", status: 201, data, message }) as const satisfies EnvelopeAnswer<D>;
/** `page(…)` of `item`s in the reference. */
export const pageAnswer = <I extends z.ZodType, E extends z.ZodObject | undefined = undefined>(item: I, extra?: E) =>
  ({ kind: "page", item, extra }) as const satisfies PageAnswer<I, E>;
/** `bare(body, status)` in the reference. */
export const bareAnswer = <S extends z.ZodType, const St extends 200 | 201 = 200>(schema: S, status: St = 200 as St) =>
  ({ kind: "bare", status, schema }) as const satisfies BareAnswer<S>;

/**
 * A response schema's output as JSON holds it: the values a string enum allows widened to string
 * (the database keeps roles, statuses and event names as text, checked where they are written), and a
 * free-form object (`z.record`) as any object. Keys, nesting, numbers, booleans and nulls stay exact.
 */
export type JsonShape<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? JsonShape<U>[]
    : T extends object
      ? string extends keyof T
        ? object
        : { [K in keyof T]: JsonShape<T[K]> }
      : T;

/**
 * The success body a route's reference promises, as a type: what its handler must return
 * (withApi checks it at compile time, so a handler cannot answer what the OpenAPI document does not say).
 */
export type SuccessBody<R extends SuccessResponse> = R extends { kind: "envelope"; data: infer D extends z.ZodType }
  ? { success: true; data: JsonShape<z.output<D>>; message: string; timestamp: string }
  : R extends { kind: "page"; item: infer I extends z.ZodType; extra?: infer E }
    ? { count: number; next: string | null; previous: string | null; results: Array<JsonShape<z.output<I>>> } & (E extends z.ZodObject
        ? JsonShape<z.output<E>>
        : unknown)
    : R extends { kind: "bare"; schema: infer S extends z.ZodType }
      ? JsonShape<z.output<S>>
      : never;
/** The status a route's reference promises on success. */
export type SuccessStatus<R extends SuccessResponse> = R extends { kind: "page" } ? 200 : R extends { status: infer St } ? St : never;

/** What the reference says about an operation beyond its inputs. */
export interface RouteDoc<R extends SuccessResponse = SuccessResponse> {
  summary: string;
  description?: string;
  tags: readonly ApiTag[];
  /** Named request-body examples shown in the reference. */
  bodyExamples?: Record<string, { summary: string; value: unknown }>;
  response: R;
  /** Domain error codes beyond the ones the reference derives (auth, validation, not found, rate limit). */
  errors?: readonly ErrorCode[];
}

export interface RouteDefinition<
  A extends RouteAccess = RouteAccess,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  R extends SuccessResponse = SuccessResponse,
> {
  method: HttpMethod;
  /** The app/api folder, dynamic segments in brackets: "/api/payment-orders/[orderId]". */
  path: `/api/${string}`;
  access: A;
  body?: B;
  query?: Q;
  /** Path parameters; a value that does not parse names nothing (404 NOT_FOUND, not a validation error). */
  params?: P;
  /** Sandbox tools: 404 NOT_FOUND in live mode. */
  sandboxOnly?: boolean;
  /** A per-client-address limit for public routes, counted before validation (e.g. register). */
  clientLimit?: { name: string; perHour: number };
  /**
   * The request's count runs beside validation and the handler, and the handler's write waits
   * for it (`meter.admit()`, see lib/auth/rate-limit.ts RequestMeter) instead of the count being
   * awaited before the handler. Only for a route that writes nothing before `admit`.
   */
  countInStatement?: boolean;
  doc: RouteDoc<R>;
}

/** Identity with the literal types kept (access, method), so withApi can type the handler's context. */
export function defineRoute<
  const A extends RouteAccess,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  const R extends SuccessResponse = SuccessResponse,
>(definition: RouteDefinition<A, B, Q, P, R>): RouteDefinition<A, B, Q, P, R> {
  return definition;
}

/** "GET /api/payment-orders/[orderId]": how logs, tests and the reference name a route. */
export const routeKeyOf = (route: Pick<RouteDefinition, "method" | "path">): string => `${route.method} ${route.path}`;
