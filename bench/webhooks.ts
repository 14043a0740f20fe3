import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import { merchants, paymentOrders, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { startLocalDriver } from "@/lib/jobs/local/driver";
import { deliverWebhooksTask } from "@/lib/jobs/tasks";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { eventBody, recordOrderEvent } from "@/lib/webhooks/outbox";
import { createBenchDatabase, fmt, percentile } from "./support";

const dueDeliveries = 10_000;
const latencySamples = 200;

/** PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, else in-memory PGlite. */
async function benchDatabase(): Promise<Database & { label: string }> {
  if (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) return { ...(await createBenchDatabase("webhooks")), label: "PostgreSQL" };
  const database = await openDatabase({ pgliteDir: "memory://" });
  setDatabase(database);
  return { ...database, label: "PGlite" };
}

/** A local receiver answering 200 at once, counting what arrives; `onRequest` sees each webhook-id. */
async function startReceiver(onRequest: (webhookId: string) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      onRequest(String(req.headers["webhook-id"]));
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

async function seed(db: Db, url: string) {
  const now = new Date();
  const [merchant] = await db
    .insert(merchants)
    .values({
      username: `bench_${randomBytes(3).toString("hex")}`,
      email: `bench_${randomBytes(3).toString("hex")}@example.com`,
      passwordHash: "not-a-real-hash",
      shopName: "Bench",
      webhookSecret: newId("webhookSecret"),
      inboxToken: newId("inbox"),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({ merchantId: merchant!.id, url, events: [], secret: newId("webhookSecret"), createdAt: now, updatedAt: now })
    .returning();
  const [order] = await db
    .insert(paymentOrders)
    .values({
      orderId: newId("order"),
      merchantId: merchant!.id,
      nonce: 1,
      blockchainId: 2,
      currency: "USDC",
      tokenAddress: null,
      decimals: 6,
      amount: "10500000",
      status: "confirmed",
      receivingAddress: "0x000000000000000000000000000000000000dEaD",
      depositDestination: "0x000000000000000000000000000000000000dEaD",
      depositSalt: "0x" + "00".repeat(32),
      depositFactory: "0x000000000000000000000000000000000000dEaD",
      orderInfo: '{"sku":"A1"}',
      confirmationThreshold: 3,
      expiresAt: new Date(now.getTime() + 30 * 60_000),
      confirmedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { merchant: merchant!, endpoint: endpoint!, order: order! };
}

/** A realistic `data` payload: the order shape webhooks carry (~900 bytes). */
function orderData(orderId: string) {
  return {
    id: 1,
    order_id: orderId,
    amount: "10.5",
    currency: "USDC",
    blockchain: "base",
    status: "confirmed",
    receiving_address: "0x000000000000000000000000000000000000dEaD",
    payment_url: `http://localhost:3000/pay/${orderId}`,
    qr_code_url: `/pay/${orderId}/qr.svg`,
    order_info: '{"sku":"A1"}',
    nonce: 1,
    webhook_url: null,
    redirect_url: null,
    created_at: new Date().toISOString(),
    expires_at: new Date().toISOString(),
    confirmed_at: new Date().toISOString(),
    transaction: { transaction_hash: "0x" + "ab".repeat(32), block_number: 123456, confirmations: 3, status: "confirmed" },
    amount_received: "10.5",
    failure_reason: null,
  };
}

/**
 * `npm run bench -- webhooks`: delivery throughput with 10,000 due deliveries to a local receiver,
 * and the delay from an order's confirmation (the transaction that records its event) to the
 * webhook arriving, with the local driver running as in the app. Targets: ≥ 500 deliveries/s;
 * confirmation-to-webhook under 1 s.
 */
export async function runWebhookBench(): Promise<void> {
  const database = await benchDatabase();
  const arrivals = new Map<string, number>();
  let received = 0;
  const receiver = await startReceiver((id) => {
    received += 1;
    arrivals.set(id, performance.now());
  });
  try {
    const { db } = database;
    const { merchant, endpoint, order } = await seed(db, receiver.url);

    // 1. Throughput: 10,000 deliveries already due.
    const now = new Date();
    const body = eventBody(newId("event"), "payment.confirmed", now, 1, orderData(order.orderId));
    for (let offset = 0; offset < dueDeliveries; offset += 1000) {
      await db.insert(webhookDeliveries).values(
        Array.from({ length: Math.min(1000, dueDeliveries - offset) }, () => ({
          messageId: newId("webhookMessage"),
          merchantId: merchant.id,
          eventId: null,
          endpointId: endpoint.id,
          eventType: "payment.confirmed",
          url: receiver.url,
          body,
          status: "pending",
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }
    const started = performance.now();
    const delivered = await drainDueWebhooks(db, { concurrency: 64, perReceiver: 64 });
    const seconds = (performance.now() - started) / 1000;
    if (received !== dueDeliveries || delivered !== dueDeliveries) throw new Error(`expected ${dueDeliveries} deliveries, claimed ${delivered}, received ${received}`);

    // 2. Confirmation → webhook, one order event at a time, with the driver running.
    const driver = startLocalDriver([deliverWebhooksTask], { db });
    const delays: number[] = [];
    try {
      for (let i = 0; i < latencySamples; i++) {
        const confirmedAt = performance.now();
        const { deliveries } = await db.transaction((tx) =>
          recordOrderEvent(tx, { merchantId: merchant.id, paymentOrderId: order.id, type: "payment.confirmed", data: orderData(order.orderId), webhookUrl: null }),
        );
        driver.kick(deliverWebhooksTask.name); // what notifyDeliveriesDue() does after the commit
        const id = deliveries[0]!.messageId;
        const deadline = Date.now() + 10_000;
        while (!arrivals.has(id)) {
          if (Date.now() > deadline) throw new Error("a webhook did not arrive within 10 s");
          await new Promise((resolve) => setImmediate(resolve));
        }
        delays.push(arrivals.get(id)! - confirmedAt);
      }
    } finally {
      await driver.stop();
    }
    delays.sort((a, b) => a - b);

    console.log(`\n## Webhook delivery (local receiver, ${database.label})`);
    console.log(`throughput: ${dueDeliveries} due deliveries in ${fmt(seconds)} s = ${fmt(dueDeliveries / seconds, 0)} deliveries/s (target ≥ 500)`);
    console.log(
      `confirmation → webhook (${latencySamples} orders): median ${fmt(percentile(delays, 50))} ms  p99 ${fmt(percentile(delays, 99))} ms (target < 1000 ms)`,
    );
  } finally {
    receiver.server.closeAllConnections();
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    await database.close();
  }
}
