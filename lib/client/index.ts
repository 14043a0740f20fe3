import createClient, { type Client } from "openapi-fetch";
import type { components, paths, webhooks } from "./schema";

/**
 * A typed client of the gateway API: `openapi-fetch` over the types `npm run client:generate`
 * derives from the OpenAPI document, so paths, bodies, query parameters and responses are
 * checked at compile time. No server-only imports: usable from any Node or browser code.
 */

export type { components, operations, paths, webhooks } from "./schema";
export type GatewayClient = Client<paths>;

export type Schemas = components["schemas"];
export type Order = Schemas["Order"];
export type OrderListItem = Schemas["OrderListItem"];
export type Wallet = Schemas["Wallet"];
export type Transaction = Schemas["Transaction"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type ApiError = Schemas["Error"];
export type ErrorCode = Schemas["ErrorCode"];
/** The body of every webhook delivery. */
export type WebhookEvent = Schemas["WebhookEvent"];
export type WebhookEventType = keyof webhooks;

export interface GatewayClientOptions {
  /** Where the gateway runs, e.g. http://localhost:3000 (npm run dev). */
  baseUrl: string;
  /** An API key (sk_live_… / sk_test_…); or give `accessToken`. */
  apiKey?: string;
  /** A JWT access token from POST /api/auth/login. */
  accessToken?: string;
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const credential = options.apiKey ?? options.accessToken;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: options.fetch,
    headers: { ...options.headers, ...(credential ? { authorization: `Bearer ${credential}` } : {}) },
  });
}

/** A failed call's error envelope as an exception: keeps the code, status and request id for logs. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string[]> | undefined,
    readonly requestId: string | null,
  ) {
    super(`${code}: ${message}`);
    this.name = "GatewayError";
  }
}

/** The data of a successful call, or a GatewayError with the envelope's code (or the bare status if the body was not an envelope). */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  const envelope = result.error as Partial<ApiError> | undefined;
  throw new GatewayError(
    result.response.status,
    envelope?.error?.code ?? `HTTP_${result.response.status}`,
    envelope?.error?.message ?? result.response.statusText,
    envelope?.error?.details,
    result.response.headers.get("x-request-id"),
  );
}
