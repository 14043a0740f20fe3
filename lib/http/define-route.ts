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
  Members: "The people of a merchant account and their roles (owner, admin, developer, viewer), invitations by email, and the accounts a login belongs to (login only).",
  "API keys": "Dedicated credentials for merchant backends (managed with a login only).",
  Blockchains: "The networks this deployment serves.",
  "Merchant wallets": "Where each blockchain's payments end up: one receiving wallet per blockchain.",
  "Payment orders": "Payment requests, each with its own deposit address.",
  Transactions: "On-chain transfers the gateway detected.",
  Webhooks: "Endpoints that receive order events, their delivery log, and the event history.",
  "Payment links": "Reusable links (/link/{id}): each customer opening one gets a fresh order and the hosted payment page.",
  "Payment page": "What the hosted payment page (/pay/{order_id}) calls; public, by ORD-… id only.",
  Sandbox: "Test tools: devnet payments, mining, faucet and a webhook inbox (sandbox mode only; 404 in live mode).",
  Meta: "This document.",
  Operations: "Liveness, readiness and Prometheus metrics for the operator's monitoring (no merchant credential).",
} as const;
export type ApiTag = keyof typeof apiTags;

/** How a route answers on success (lib/http/envelope.ts and lib/http/pagination.ts). */
export type SuccessResponse =
  /** `ok()` / `created()`: `{ success: true, data, message, timestamp }`. */
  | { kind: "envelope"; status: 200 | 201; data: z.ZodType; message: string }
  /** `page()`: the bare list shape `{ count, next, previous, results }`, plus any `extra` top-level fields. */
  | { kind: "page"; item: z.ZodType; extra?: z.ZodObject }
  /** `bare()`: the body itself (auth endpoints). */
  | { kind: "bare"; status: 200 | 201; schema: z.ZodType };

/** `ok(data, message)` in the reference. */
export const okAnswer = (data: z.ZodType, message = "OK"): SuccessResponse => ({ kind: "envelope", status: 200, data, message });
/** `created(data, message)` in the reference. */
export const createdAnswer = (data: z.ZodType, message = "Created"): SuccessResponse => ({ kind: "envelope", status: 201, data, message });
/** `page(…)` of `item`s in the reference. */
export const pageAnswer = (item: z.ZodType, extra?: z.ZodObject): SuccessResponse => ({ kind: "page", item, extra });
/** `bare(body, status)` in the reference. */
export const bareAnswer = (schema: z.ZodType, status: 200 | 201 = 200): SuccessResponse => ({ kind: "bare", status, schema });

/** What the reference says about an operation beyond its inputs. */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags: readonly ApiTag[];
  /** Named request-body examples shown in the reference. */
  bodyExamples?: Record<string, { summary: string; value: unknown }>;
  response: SuccessResponse;
  /** Domain error codes beyond the ones the reference derives (auth, validation, not found, rate limit). */
  errors?: readonly ErrorCode[];
}

export interface RouteDefinition<
  A extends RouteAccess = RouteAccess,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
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
  doc: RouteDoc;
}

/** Identity with the literal types kept (access, method), so withApi can type the handler's context. */
export function defineRoute<
  const A extends RouteAccess,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(definition: RouteDefinition<A, B, Q, P>): RouteDefinition<A, B, Q, P> {
  return definition;
}

/** "GET /api/payment-orders/[orderId]": how logs, tests and the reference name a route. */
export const routeKeyOf = (route: Pick<RouteDefinition, "method" | "path">): string => `${route.method} ${route.path}`;
