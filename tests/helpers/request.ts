/** Calls a Next route handler in-process with a real Request, like the server would. */

export type Handler = (request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is (for malformed-JSON tests). */
  rawBody?: string;
  params?: Record<string, string | undefined>;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** The client's address (the TCP peer the server would see). */
  ip?: string;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(handler: Handler | undefined, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  if (!handler) throw new Error(`no ${method} handler for ${path}`);
  const url = new URL(path, "http://localhost:3000");
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  // The socket's address, as the server stamps it (lib/http/client-address.ts).
  headers.set("x-gateway-peer-address", options.ip ?? "203.0.113.7");
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers.set("content-type", "application/json");
  const response = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}
