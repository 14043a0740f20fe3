import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { GatewayClient, Order, WebhookEvent } from "../../lib/client";
import { createPaymentOrder } from "./create-order";
import { verifyWebhook } from "./verify-webhook";

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
  /** The latest known status of each order, by ORD-… id, as webhooks reported it. */
  orders: Map<string, Order["status"]>;
  /** Webhook events processed (each id once). */
  events: WebhookEvent[];
  /** Resolves when a webhook with this event type (and order, if given) has been processed. */
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

// A shipped order never goes back: late or duplicate events must not undo a confirmation.
const finalStatuses = new Set(["confirmed", "failed", "expired"]);

/**
 * A tiny merchant backend: POST /checkout creates a payment order through the gateway, POST /webhooks
 * receives the gateway's webhooks (verifies both signatures on the raw body, de-duplicates on the
 * event id, acknowledges with 200), GET /orders/{order_id} shows what the webhooks said.
 */
export async function startMerchantBackend(options: MerchantBackendOptions): Promise<MerchantBackend> {
  const log = options.log ?? ((line: string) => console.log(line));
  const orders = new Map<string, Order["status"]>();
  const events: WebhookEvent[] = [];
  const seen = new Set<string>();
  const waiters: Array<{ match: (e: WebhookEvent) => boolean; resolve: (e: WebhookEvent) => void }> = [];
  let nextOrderNumber = Date.now();

  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (request.method === "POST" && url.pathname === "/webhooks") {
        const raw = await readBody(request);
        const verified = options.webhookSecrets.map((secret) => verifyWebhook(raw, request.headers, secret));
        const good = verified.find((v) => v.ok);
        if (!good) {
          log(`webhook rejected: ${verified.map((v) => (v.ok ? "ok" : v.reason)).join("; ")}`);
          return send(401, { error: "invalid signature" });
        }
        const event = JSON.parse(raw) as WebhookEvent;
        if (seen.has(event.id)) return send(200, { duplicate: true }); // at-least-once delivery: already handled
        seen.add(event.id);
        const current = orders.get(event.data.order_id);
        if (!current || !finalStatuses.has(current)) orders.set(event.data.order_id, event.data.status);
        events.push(event);
        log(`webhook ${event.event} for ${event.data.order_id}: status ${event.data.status}`);
        for (const waiter of [...waiters]) {
          if (waiter.match(event)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(event);
          }
        }
        return send(200, { received: true });
      }
      if (request.method === "POST" && url.pathname === "/checkout") {
        const input = JSON.parse((await readBody(request)) || "{}") as { amount?: string; currency?: string; blockchain?: string; items?: unknown };
        const order = await createPaymentOrder(options.gateway, {
          orderNumber: nextOrderNumber++,
          amount: input.amount ?? "10.50",
          currency: input.currency ?? "USDC",
          blockchain: input.blockchain ?? "base",
          items: input.items ?? [],
        });
        orders.set(order.order_id, order.status);
        log(`created ${order.order_id}: pay ${order.amount} ${order.currency} at ${order.receiving_address} (${order.payment_url})`);
        return send(201, { order_id: order.order_id, payment_url: order.payment_url, receiving_address: order.receiving_address });
      }
      const match = /^\/orders\/(ORD-[A-Za-z0-9]+)$/.exec(url.pathname);
      if (request.method === "GET" && match) {
        const status = orders.get(match[1]!);
        return status ? send(200, { order_id: match[1], status }) : send(404, { error: "unknown order" });
      }
      send(404, { error: "not found" });
    } catch (error) {
      log(`error: ${error instanceof Error ? error.message : String(error)}`);
      send(500, { error: "internal error" });
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
