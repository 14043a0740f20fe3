import type { Permission } from "./permissions";

/**
 * Who may call a route:
 * - `public`: no credential (register, login, refresh);
 * - `authenticated`: any valid credential (access token, API key, dashboard session);
 * - `login`: a login only (access token or dashboard session), never an API key;
 * - a permission: a credential carrying it.
 */
export type RouteAccess = "public" | "authenticated" | "login" | Permission;

/**
 * Every API route and what it needs, in one table. withApi enforces it from the route's key;
 * tests/api/auth/route-access.test.ts walks it. Keys mirror app/api paths (no trailing slash).
 */
export const routeAccess = {
  "POST /api/auth/register": "public",
  "POST /api/auth/login": "public",
  "POST /api/auth/token/refresh": "public",
  "GET /api/auth/verify": "authenticated",
  "GET /api/account": "login",
  "POST /api/account/rotate-webhook-secret": "login",
  "GET /api/api-keys": "login",
  "POST /api/api-keys": "login",
  "DELETE /api/api-keys/[id]": "login",
} as const satisfies Record<string, RouteAccess>;

export type RouteKey = keyof typeof routeAccess;
export type AccessOf<K extends RouteKey> = (typeof routeAccess)[K];
