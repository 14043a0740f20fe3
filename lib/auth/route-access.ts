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
  "PUT /api/account": "login",
  "POST /api/account/rotate-webhook-secret": "login",
  "GET /api/api-keys": "login",
  "POST /api/api-keys": "login",
  "DELETE /api/api-keys/[id]": "login",
  "GET /api/blockchains": "read",
  "GET /api/merchant-wallets": "read",
  "POST /api/merchant-wallets": "manage_wallets",
  "PUT /api/merchant-wallets/[id]": "manage_wallets",
  "GET /api/payment-links": "read",
  "POST /api/payment-links": "create_payments",
  "GET /api/payment-links/[id]": "read",
  "PUT /api/payment-links/[id]": "create_payments",
  "DELETE /api/payment-links/[id]": "create_payments",
  "GET /api/links/[linkId]": "public",
  "POST /api/links/[linkId]/orders": "public",
  "GET /api/payment-orders": "read",
  "POST /api/payment-orders": "create_payments",
  "GET /api/payment-orders/[orderId]": "read",
  "GET /api/payment-orders/[orderId]/refunds": "read",
  "POST /api/payment-orders/[orderId]/refunds": "create_payments",
  "POST /api/sandbox/payment-orders/[orderId]/pay": "create_payments",
  "POST /api/sandbox/mine": "create_payments",
  "POST /api/sandbox/faucet": "create_payments",
  "GET /api/transactions": "read",
  "GET /api/transactions/[transactionHash]": "read",
  "GET /api/webhook-endpoints": "manage_webhooks",
  "POST /api/webhook-endpoints": "manage_webhooks",
  "GET /api/webhook-endpoints/[id]": "manage_webhooks",
  "PUT /api/webhook-endpoints/[id]": "manage_webhooks",
  "DELETE /api/webhook-endpoints/[id]": "manage_webhooks",
  "POST /api/webhook-endpoints/[id]/rotate-secret": "manage_webhooks",
  "POST /api/webhook-endpoints/[id]/test": "manage_webhooks",
  "GET /api/webhook-endpoints/[id]/deliveries": "manage_webhooks",
  "POST /api/webhook-deliveries/[id]/redeliver": "manage_webhooks",
  "GET /api/events": "read",
  "GET /api/sandbox/inbox": "read",
  "GET /api/openapi.json": "public",
  // The hosted payment page (customers have no credential): ORD-… ids only, customer-safe fields only.
  "GET /api/pay/[orderId]": "public",
  "POST /api/pay/[orderId]/simulate": "public",
  "POST /api/pay/[orderId]/refund-address": "public",
} as const satisfies Record<string, RouteAccess>;

export type RouteKey = keyof typeof routeAccess;
export type AccessOf<K extends RouteKey> = (typeof routeAccess)[K];
