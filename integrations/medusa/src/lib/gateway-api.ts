import { createHash } from "node:crypto";

/**
 * The few gateway API calls the plugin makes, over fetch (no dependencies). Writes carry an
 * Idempotency-Key, so a call retried after a timeout or a 5xx gets the first answer back instead of
 * doing the thing twice.
 */

export type GatewayOrderStatus = "pending" | "processing" | "confirmed" | "expired" | "failed";

export interface GatewayMethod {
  blockchain: string | null;
  currency: string;
  amount: string;
  rate: string | null;
  receiving_address: string;
}

export interface GatewayRefund {
  id: number;
  order_id: string;
  amount: string;
  currency: string;
  to_address: string;
  status: "requested" | "pending" | "confirmed" | "failed";
  transaction_hash: string | null;
  transaction: { from: string; to: string; data: string; value: string; chainId: number };
}

export interface GatewayOrder {
  id: number;
  order_id: string;
  amount: string;
  currency: string;
  blockchain: string | null;
  status: GatewayOrderStatus;
  receiving_address: string;
  payment_url: string;
  qr_code_url: string;
  order_info: string;
  nonce: number;
  expires_at: string;
  confirmed_at: string | null;
  transaction: { transaction_hash: string; block_number: number; confirmations: number; status: string } | null;
  amount_received: string;
  failure_reason: "underpaid" | "late_payment" | "reverted" | null;
  price_amount: string | null;
  price_currency: string | null;
  rate: string | null;
  refund_address: string | null;
  refunds: GatewayRefund[];
  at_risk: boolean;
  accepted_methods: GatewayMethod[];
}

export interface CreateOrderBody {
  price_amount: string;
  price_currency: string;
  currency: string;
  blockchain: string;
  order_info: string;
  nonce: number;
  expires_at?: string;
  redirect_url?: string;
  accepted_methods?: Array<{ blockchain: string; currency: string }>;
}

export interface CreateRefundBody {
  amount?: string;
  to_address: string;
  reason?: string;
}

/** A gateway answer other than 2xx, with the error envelope's code. */
export class GatewayApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(`${code}: ${message}`);
    this.name = "GatewayApiError";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Worth another try with the same Idempotency-Key: the network, a 5xx, a 429, or the first try still running. */
function retryable(error: unknown): boolean {
  if (!(error instanceof GatewayApiError)) return true;
  return error.status >= 500 || error.status === 429 || error.code === "IDEMPOTENCY_REQUEST_IN_PROGRESS";
}

export interface GatewayApiOptions {
  baseUrl: string;
  apiKey: string;
  /** Tries per call (default 3), with 0.5 s, 1 s… between them. */
  attempts?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class GatewayApi {
  private readonly baseUrl: string;
  private readonly attempts: number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: GatewayApiOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.attempts = options.attempts ?? 3;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.fetchImpl = options.fetch ?? fetch;
  }

  private async once<T>(method: string, path: string, body: unknown, idempotencyKey: string | undefined): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const response = await this.fetchImpl(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const envelope = (json as { error?: { code?: string; message?: string; details?: Record<string, string[]> } } | undefined)?.error;
      const details = envelope?.details
        ? ` ${Object.entries(envelope.details)
            .map(([field, problems]) => `${field}: ${problems.join(" ")}`)
            .join("; ")}`
        : "";
      throw new GatewayApiError(
        response.status,
        envelope?.code ?? `HTTP_${response.status}`,
        `${envelope?.message ?? response.statusText}${details}`,
        response.headers.get("x-request-id"),
      );
    }
    return json as T;
  }

  private async call<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once<T>(method, path, body, idempotencyKey);
      } catch (error) {
        // Only reads and keyed writes are repeated: a write without a key could happen twice.
        const repeatable = method === "GET" || idempotencyKey !== undefined;
        if (!repeatable || !retryable(error) || attempt >= this.attempts) throw error;
        await sleep(500 * 2 ** (attempt - 1));
      }
    }
  }

  createOrder(body: CreateOrderBody, idempotencyKey: string): Promise<{ data: GatewayOrder }> {
    return this.call("POST", "/api/payment-orders/", body, idempotencyKey);
  }

  getOrder(orderId: string): Promise<{ data: GatewayOrder }> {
    return this.call("GET", `/api/payment-orders/${encodeURIComponent(orderId)}/`);
  }

  /** The order made with this nonce, if any (what a create answered with DUPLICATE_NONCE). */
  async findOrderByNonce(nonce: number): Promise<GatewayOrder | null> {
    const page = await this.call<{ results: Array<{ order_id: string }> }>("GET", `/api/payment-orders/?nonce=${nonce}`);
    const found = page.results[0];
    return found ? (await this.getOrder(found.order_id)).data : null;
  }

  /** The payment page's view of the order: carries the token's decimals. */
  getPublicOrder(orderId: string): Promise<{ data: { token: { symbol: string; decimals: number } } }> {
    return this.call("GET", `/api/pay/${encodeURIComponent(orderId)}/`);
  }

  getTransaction(hash: string): Promise<{ data: { from_address: string } }> {
    return this.call("GET", `/api/transactions/${encodeURIComponent(hash)}/`);
  }

  createRefund(orderId: string, body: CreateRefundBody, idempotencyKey: string): Promise<{ data: GatewayRefund }> {
    return this.call("POST", `/api/payment-orders/${encodeURIComponent(orderId)}/refunds/`, body, idempotencyKey);
  }
}

/**
 * The gateway wants a nonce (an integer unique per merchant) on every order. Derived from the
 * payment session's idempotency key, so a retried create sends the same body; `probe` moves past
 * a nonce another order already took (53 bits make that rare).
 */
export function nonceFor(key: string, probe = 0): number {
  const digest = createHash("sha256").update(key).digest();
  // 53 bits: exact as a JSON number in every client.
  const high = digest.readUInt32BE(0) & 0x1fffff;
  const low = digest.readUInt32BE(4);
  return (high * 2 ** 32 + low + probe) % Number.MAX_SAFE_INTEGER;
}
