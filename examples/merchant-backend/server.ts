import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { GatewayClient, Order, WebhookEvent } from "../../lib/client";
import { createPaymentOrder, getPaymentOrder, refundPaymentOrder } from "./create-order";
import { verifyWebhook } from "./verify-webhook";

/** The shop's own order states (what a shop shows its customer and its warehouse). */
export type ShopOrderStatus = "awaiting_payment" | "payment_seen" | "paid" | "canceled";

export interface MerchantBackendOptions {
  gateway: GatewayClient;
  /** The webhook endpoint's secret (whsec_…), or the account's for per-order webhook_url deliveries. */
  webhookSecrets: string[];
  port?: number;
  host?: string;
  log?: (line: string) => void;
}

export interface MerchantBackend {
  url: string;
  server: Server;
  /** The shop's orders, by their gateway ORD-… id: created at checkout, moved by verified webhooks. */
  orders: Map<string, ShopOrderStatus>;
  /** Verified webhook events, each delivery (webhook-id) once, in the order they were handled. */
  events: WebhookEvent[];
  /** Resolves when a webhook with this event type (and order, if given) has been handled. */
  waitFor(event: string, orderId?: string, timeoutMs?: number): Promise<WebhookEvent>;
  close(): Promise<void>;
}

const maxBody = 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) request.destroy(new Error("body too large"));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Where the shop's order stands, given where the gateway's order stands. */
function shopStatusOf(status: Order["status"]): ShopOrderStatus {
  switch (status) {
    case "pending":
      return "awaiting_payment";
    case "processing":
      return "payment_seen";
    case "confirmed":
      return "paid";
    case "expired":
    case "failed":
      return "canceled";
  }
}

// A paid or canceled order never goes back: a late or overtaken event must not undo it.
const settled = new Set<ShopOrderStatus>(["paid", "canceled"]);

/**
 * A tiny shop backend on the recipe of /docs/connect-your-shop: POST /checkout creates a payment order
 * (fiat price, Idempotency-Key) and answers where to send the customer; POST /webhooks verifies both
 * signatures on the raw body, acknowledges at once, handles each delivery (webhook-id) once, and moves
 * the shop's order by the gateway's order read back with the API key (not by the event alone);
 * POST /orders/{order_id}/refund refunds through the gateway; GET /orders/{order_id} shows the shop's order.
 */
export async function startMerchantBackend(options: MerchantBackendOptions): Promise<MerchantBackend> {
  const log = options.log ?? ((line: string) => console.log(line));
  const orders = new Map<string, ShopOrderStatus>();
  const events: WebhookEvent[] = [];
  const seen = new Set<string>();
  const waiters: Array<{ match: (e: WebhookEvent) => boolean; resolve: (e: WebhookEvent) => void }> = [];
  let nextOrderNumber = Date.now();

  async function handle(event: WebhookEvent): Promise<void> {
    const orderId = event.data.order_id;
    const current = orders.get(orderId);
    if (current === undefined) {
      log(`webhook ${event.event} for ${orderId}: not an order of this shop, nothing to do`);
    } else if (!settled.has(current)) {
      // The gateway's order as it stands now decides: a retry can overtake a newer event.
      const order = await getPaymentOrder(options.gateway, orderId);
      const next = shopStatusOf(order.status);
      orders.set(orderId, next);
      log(`webhook ${event.event} for ${orderId}: gateway ${order.status}, shop order ${current} → ${next}`);
    }
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  }

  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (request.method === "POST" && url.pathname === "/webhooks") {
        const raw = await readBody(request);
        const verified = options.webhookSecrets.map((secret) => verifyWebhook(raw, request.headers, secret));
        if (!verified.some((v) => v.ok)) {
          log(`webhook rejected: ${verified.map((v) => (v.ok ? "ok" : v.reason)).join("; ")}`);
          return send(401, { error: "invalid signature" });
        }
        const event = JSON.parse(raw) as WebhookEvent;
        // webhook-id is the same on every retry of one delivery: at-least-once delivery, handled once.
        const deliveryId = String(request.headers["webhook-id"] ?? event.id);
        if (seen.has(deliveryId)) return send(200, { duplicate: true });
        seen.add(deliveryId);
        send(200, { received: true }); // acknowledge first, then do the work
        handle(event).catch((error: unknown) => {
          seen.delete(deliveryId); // not handled: a redelivery may try again
          log(`webhook ${event.event} for ${event.data.order_id} failed: ${error instanceof Error ? error.message : String(error)}`);
        });
        return;
      }
      if (request.method === "POST" && url.pathname === "/checkout") {
        const input = JSON.parse((await readBody(request)) || "{}") as {
          price?: string;
          price_currency?: string;
          amount?: string;
          currency?: string;
          blockchain?: string;
          items?: unknown;
          webhook_url?: string;
        };
        const orderNumber = nextOrderNumber++;
        const order = await createPaymentOrder(options.gateway, {
          orderNumber,
          ...(input.amount !== undefined ? { amount: input.amount } : { priceAmount: input.price ?? "10.50", priceCurrency: input.price_currency ?? "USD" }),
          currency: input.currency ?? "USDC",
          blockchain: input.blockchain ?? "base",
          items: input.items ?? [],
          webhookUrl: input.webhook_url,
          idempotencyKey: `checkout-${orderNumber}`,
        });
        orders.set(order.order_id, "awaiting_payment");
        log(`created ${order.order_id}: pay ${order.amount} ${order.currency} at ${order.receiving_address} (${order.payment_url})`);
        return send(201, { order_id: order.order_id, payment_url: order.payment_url, methods: order.accepted_methods, status: "awaiting_payment" });
      }
      const refund = /^\/orders\/(ORD-[A-Za-z0-9]+)\/refund$/.exec(url.pathname);
      if (request.method === "POST" && refund) {
        const orderId = refund[1]!;
        if (orders.get(orderId) !== "paid") return send(409, { error: "only a paid order can be refunded" });
        const input = JSON.parse((await readBody(request)) || "{}") as { amount?: string; reason?: string; refund_id?: string };
        const made = await refundPaymentOrder(options.gateway, orderId, {
          amount: input.amount,
          reason: input.reason,
          // Your refund's own id: a retried request never refunds twice.
          idempotencyKey: `refund-${orderId}-${input.refund_id ?? Date.now()}`,
        });
        log(`refund ${made.id} of ${orderId}: ${made.amount} ${made.currency} to ${made.to_address}; sign its transaction with your wallet`);
        return send(201, { refund_id: made.id, amount: made.amount, currency: made.currency, to_address: made.to_address, transaction: made.transaction });
      }
      const match = /^\/orders\/(ORD-[A-Za-z0-9]+)$/.exec(url.pathname);
      if (request.method === "GET" && match) {
        const status = orders.get(match[1]!);
        return status ? send(200, { order_id: match[1], status }) : send(404, { error: "unknown order" });
      }
      send(404, { error: "not found" });
    } catch (error) {
      log(`error: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) send(500, { error: "internal error" });
    }
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    server,
    orders,
    events,
    waitFor(event, orderId, timeoutMs = 30_000) {
      const match = (e: WebhookEvent) => e.event === event && (orderId === undefined || e.data.order_id === orderId);
      const done = events.find(match);
      if (done) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) {
            waiters.splice(index, 1);
            reject(new Error(`no ${event} webhook within ${timeoutMs} ms`));
          }
        }, timeoutMs).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
