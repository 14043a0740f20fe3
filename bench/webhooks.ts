import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import { merchants, paymentOrders, webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { startLocalDriver } from "@/lib/jobs/local/driver";
import { deliverWebhooksTask } from "@/lib/engine/upkeep-tasks";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { eventBody, recordOrderEvent } from "@/lib/webhooks/outbox";
import { startReceiverProcess } from "../tests/faults/receiver-process";
import { createBenchDatabase, fmt, percentile } from "./support";

const dueDeliveries = 10_000;
const latencySamples = 200;
/** Events per phase of the neighbour comparison, one every `neighbourSpacingMs`, each for a new order. */
const neighbourSamples = 100;
const neighbourSpacingMs = 50;

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
  const order = await insertOrder(db, merchant!.id, 1);
  return { merchant: merchant!, endpoint: endpoint!, order };
}

/** A confirmed order of `merchantId` (the events' `order_id`; one order's events to one receiver go one at a time). */
async function insertOrder(db: Db, merchantId: number, nonce: number) {
  const now = new Date();
  const [order] = await db
    .insert(paymentOrders)
    .values({
      orderId: newId("order"),
      merchantId,
      nonce,
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
  return order!;
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
 * A healthy endpoint's event-to-receipt latency alone, then with a neighbour endpoint (same
 * merchant, same events) that never answers: the attempt timeout (10 s) cuts each of its
 * attempts. The local driver runs as in the app; the receivers live in a child process so their
 * timing does not depend on this one. Returns the sorted latencies of each phase.
 */
async function healthyBesideHanging(db: Db, merchantId: number, nonceFrom: number): Promise<{ alone: number[]; hanging: number[] }> {
  const receivers = await startReceiverProcess({ healthy: {}, hang: { hang: true } });
  const now = new Date();
  const endpoint = (url: string, isActive: boolean) =>
    db
      .insert(webhookEndpoints)
      .values({ merchantId, url, events: [], isActive, secret: newId("webhookSecret"), createdAt: now, updatedAt: now })
      .returning()
      .then((rows) => rows[0]!);
  const healthy = await endpoint(receivers.url("healthy"), true);
  const hang = await endpoint(receivers.url("hang"), false);
  const driver = startLocalDriver([deliverWebhooksTask], { db });
  let nonce = nonceFrom;
  const phase = async (): Promise<number[]> => {
    const recordedAt = new Map<string, number>();
    for (let i = 0; i < neighbourSamples; i++) {
      const order = await insertOrder(db, merchantId, nonce++);
      const at = Date.now();
      const { deliveries } = await db.transaction((tx) =>
        recordOrderEvent(tx, { merchantId, paymentOrderId: order.id, type: "payment.confirmed", data: orderData(order.orderId), webhookUrl: null }),
      );
      for (const d of deliveries) if (d.endpointId === healthy.id) recordedAt.set(d.messageId, at);
      driver.kick(deliverWebhooksTask.name);
      await new Promise((resolve) => setTimeout(resolve, neighbourSpacingMs));
    }
    const deadline = Date.now() + 120_000;
    for (;;) {
      await receivers.refresh();
      const arrived = new Map(receivers.requests("healthy").map((r) => [r.id, r.at]));
      if ([...recordedAt.keys()].every((id) => arrived.has(id))) return [...recordedAt].map(([id, at]) => arrived.get(id)! - at).sort((a, b) => a - b);
      if (Date.now() > deadline) throw new Error("the healthy endpoint's webhooks did not all arrive within 2 minutes");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    const alone = await phase();
    await db.update(webhookEndpoints).set({ isActive: true }).where(eq(webhookEndpoints.id, hang.id));
    const hanging = await phase();
    return { alone, hanging };
  } finally {
    await driver.stop();
    await receivers.close();
  }
}

/**
 * `npm run bench -- webhooks`: delivery throughput with 10,000 due deliveries to a local receiver,
 * and the delay from an order's confirmation (the transaction that records its event) to the
 * webhook arriving, with the local driver running as in the app; then a healthy endpoint's
 * latency alone and beside a hanging endpoint. Targets: ≥ 500 deliveries/s; confirmation-to-webhook
 * under 1 s, also beside a hanging endpoint.
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
    if (received !== dueDeliveries || delivered !== dueDeliveries)
      throw new Error(`expected ${dueDeliveries} deliveries, claimed ${delivered}, received ${received}`);

    // 2. Confirmation → webhook, one order event at a time, with the driver running.
    const driver = startLocalDriver([deliverWebhooksTask], { db });
    const delays: number[] = [];
    try {
      for (let i = 0; i < latencySamples; i++) {
        const confirmedAt = performance.now();
        const { deliveries } = await db.transaction((tx) =>
          recordOrderEvent(tx, {
            merchantId: merchant.id,
            paymentOrderId: order.id,
            type: "payment.confirmed",
            data: orderData(order.orderId),
            webhookUrl: null,
          }),
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

    // 3. A healthy endpoint beside a hanging one.
    const { alone, hanging } = await healthyBesideHanging(db, merchant.id, 1000);

    console.log(`\n## Webhook delivery (local receiver, ${database.label})`);
    console.log(`throughput: ${dueDeliveries} due deliveries in ${fmt(seconds)} s = ${fmt(dueDeliveries / seconds, 0)} deliveries/s (target ≥ 500)`);
    console.log(
      `confirmation → webhook (${latencySamples} orders): median ${fmt(percentile(delays, 50))} ms  p99 ${fmt(percentile(delays, 99))} ms (target < 1000 ms)`,
    );
    console.log(
      `healthy endpoint, event → receipt (${neighbourSamples} orders, receivers in a child process): alone median ${fmt(percentile(alone, 50))} ms  p99 ${fmt(percentile(alone, 99))} ms; ` +
        `beside a hanging endpoint median ${fmt(percentile(hanging, 50))} ms  p99 ${fmt(percentile(hanging, 99))} ms; ` +
        `p99 ratio ${fmt(percentile(hanging, 99) / percentile(alone, 99))}× (target: p99 < 1000 ms beside the hang)`,
    );
  } finally {
    receiver.server.closeAllConnections();
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    await database.close();
  }
}
