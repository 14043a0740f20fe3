/**
 * What a reorg or a chain reset takes away, on the real devnet and database: a crash between a
 * transfer's confirmation and its order's (a real database error from a trigger) never confirms
 * the order on a chain where its payment does not exist; a confirmed, swept order whose payment
 * vanished is shown at risk with its transfer reorged and its sweep no longer succeeded; and the
 * merchant hears every such change as a payment.reorged webhook, exactly once.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { custom, http, type PublicClient } from "viem";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { createChainClient } from "@/lib/chains/clients";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { startReceiver, type Receiver } from "../webhooks/support";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
// A fresh client each time: after a devnet restart the cached one would answer for the old chain.
const client = (): PublicClient => createChainClient(base());
const tick = () => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: false });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function fetchTransaction(merchant: TestMerchant, hash: string) {
  const res = await call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: merchant.access, params: { transactionHash: hash } });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function eventsOf(merchant: TestMerchant, orderId: string): Promise<string[]> {
  const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: orderId } });
  return (res.body.results as { event: string; sequence: number }[]).sort((a, b) => a.sequence - b.sequence).map((e) => e.event);
}

async function pay(merchant: TestMerchant, orderId: string) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.transaction_hash as string;
}

/** A merchant with a wallet at `threshold` confirmations, an endpoint on its own receiver path, and a USDC order. */
async function setup(threshold: number, path: string, events: string[] = []) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url(path), events } });
  expect(endpoint.status).toBe(201);
  const order = await createOrder(merchant, { amount: "7", currency: "USDC", blockchain: "base" });
  return { merchant, order };
}

/** Every delivery due, sent; then what reached `path`, as [event, order_id]. */
async function deliveredTo(path: string): Promise<{ event: string; data: any }[]> {
  while ((await deliverDueWebhooks(testDb.db)) > 0);
  return receiver.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body));
}

/** A real database error on the order's UPDATE to `status` (for this order only): the process sees it between two writes. */
async function refuseOrderUpdate(orderId: string, status: string) {
  await testDb.db.execute(
    sql.raw(`create or replace function i23_refuse_order_update() returns trigger language plpgsql as $$
      begin
        if new.order_id = '${orderId}' and new.status = '${status}' and old.status <> new.status then
          raise exception 'injected fault: order update refused';
        end if;
        return new;
      end $$`),
  );
  await testDb.db.execute(
    sql.raw(`create trigger i23_refuse_order_update before update on payment_orders for each row execute function i23_refuse_order_update()`),
  );
}

async function allowOrderUpdates() {
  await testDb.db.execute(sql.raw(`drop trigger if exists i23_refuse_order_update on payment_orders`));
}

/** A client through a counting transport: how many block lookups one tick makes. */
function countingClient() {
  const inner = http(net.rpcUrl)({ chain: undefined, retryCount: 0 });
  const counts = { getBlock: 0 };
  const counted = createChainClient(
    base(),
    custom({
      async request(args) {
        if (args.method === "eth_getBlockByNumber") counts.getBlock++;
        return inner.request(args);
      },
    }),
  );
  return { counted, counts };
}

// First in the file, while the database holds no other transfers.
describe("what the re-check window costs", () => {
  test("an idle tick looks up each distinct block holding a confirmed transfer in the window once, and none once it is past", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    for (let i = 0; i < 3; i++) {
      const order = await createOrder(merchant, { amount: "1", currency: "USDC", blockchain: "base" });
      await pay(merchant, order.order_id); // one block each
    }
    await tick();
    const { counted, counts } = countingClient();
    const idle = () => watchChainTick(testDb.db, base(), counted, { checkInternalDeposits: false });
    await idle();
    const inWindow = counts.getBlock;
    await net.testClient().mine({ blocks: 64 });
    await tick();
    counts.getBlock = 0;
    await idle();
    const pastWindow = counts.getBlock;
    console.log(`[measure] block lookups per idle tick: ${inWindow} with 3 confirmed transfers in the re-check window, ${pastWindow} after it`);
    // The scanner's own two (genesis, cursor) and the chain's `finalized` block either way; the re-check one per block with a transfer.
    expect(pastWindow).toBe(3);
    expect(inWindow).toBe(pastWindow + 3);
  });
});

describe("a crash between a transfer's confirmation and its order's", () => {
  test("then a devnet reset: the order never confirms and payment.confirmed is never sent; it falls back to pending, with payment.reorged", async () => {
    const { merchant, order } = await setup(3, "/crash-reset");
    const hash = await pay(merchant, order.order_id);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");

    await refuseOrderUpdate(order.order_id, "confirmed");
    try {
      await net.testClient().mine({ blocks: 3 });
      // The transfer is confirmed, then the order's UPDATE fails: a real error between the two writes.
      await expect(tick()).rejects.toThrow();
      expect((await fetchTransaction(merchant, hash)).status).toBe("confirmed");
      expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    } finally {
      await allowOrderUpdates();
    }

    await net.restart();
    expect((await tick()).scan.reset).toBe(true);
    // The new chain grows well past the old transfer's block and the threshold.
    await net.testClient().mine({ blocks: 40 });
    await tick();
    await tick();

    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "pending", amount_received: "0", transaction: null, at_risk: false });
    expect(await fetchTransaction(merchant, hash)).toMatchObject({ status: "failed", not_counted_reason: "reorged" });
    expect(await eventsOf(merchant, order.order_id)).toEqual(["payment.pending", "payment.reorged"]);
    const delivered = await deliveredTo("/crash-reset");
    expect(delivered.map((d) => d.event)).toEqual(["payment.pending", "payment.reorged"]);
    expect(delivered[1]!.data).toMatchObject({ order_id: order.order_id, status: "pending" });
  });

  test("then a reorg that takes the payment away: the same, on a chain that kept its genesis", async () => {
    const { merchant, order } = await setup(3, "/crash-reorg");
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const hash = await pay(merchant, order.order_id);
    await tick();
    await refuseOrderUpdate(order.order_id, "confirmed");
    try {
      await testClient.mine({ blocks: 3 });
      await expect(tick()).rejects.toThrow();
      expect((await fetchTransaction(merchant, hash)).status).toBe("confirmed");
    } finally {
      await allowOrderUpdates();
    }

    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 10 }); // longer than the old branch, without the payment
    await tick();
    await testClient.mine({ blocks: 10 });
    await tick();

    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "pending", amount_received: "0" });
    expect(await fetchTransaction(merchant, hash)).toMatchObject({ status: "failed", not_counted_reason: "reorged" });
    expect(await eventsOf(merchant, order.order_id)).toEqual(["payment.pending", "payment.reorged"]);
  });
});

describe("a reorg after confirmation is said, not hidden", () => {
  test("past the threshold of a confirmed, swept order: transfer reorged, sweep no longer succeeded, order at risk, payment.reorged delivered once", async () => {
    const { merchant, order } = await setup(2, "/deep", ["payment.reorged"]);
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const hash = await pay(merchant, order.order_id);
    await testClient.mine({ blocks: 2 });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
    const swept = await sweepConfirmedDeposits(testDb.db, base(), client());
    expect(swept.swept).toContain(order.order_id);
    await testClient.mine({ blocks: 30 }); // 35 confirmations, well past the threshold
    await tick();
    const before = await fetchOrder(merchant, order.order_id);
    expect(before).toMatchObject({ status: "confirmed", at_risk: false, sweep: { status: "succeeded" } });
    expect(before.transaction.confirmations).toBeGreaterThanOrEqual(30);

    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 40 });
    await tick();
    await tick(); // a second pass changes nothing more

    const after = await fetchOrder(merchant, order.order_id);
    // What the order says it received follows the transfers that still count (issue 50: it showed the vanished payment's amount).
    expect(after).toMatchObject({ status: "confirmed", at_risk: true, at_risk_reason: "payment_reorged", transaction: null, amount_received: "0" });
    expect(after.at_risk_since).toEqual(expect.any(String));
    expect(after.sweep.status).not.toBe("succeeded");
    expect(after.sweep.transaction_hash).toBeNull();
    expect(await fetchTransaction(merchant, hash)).toMatchObject({ status: "failed", counted: false, not_counted_reason: "reorged" });
    expect(await eventsOf(merchant, order.order_id)).toEqual(["payment.pending", "payment.confirmed", "payment.reorged"]);
    // The endpoint subscribed to payment.reorged only: that one event, once.
    const reorged = await deliveredTo("/deep");
    expect(reorged.map((d) => d.event)).toEqual(["payment.reorged"]);
    expect(reorged[0]!.data).toMatchObject({
      order_id: order.order_id,
      status: "confirmed",
      at_risk: true,
      at_risk_reason: "payment_reorged",
      amount_received: "0",
      transaction: null,
    });
  });

  test("a shallow reorg sends a processing order back to pending and says so: payment.reorged is delivered", async () => {
    const { merchant, order } = await setup(5, "/shallow");
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    await pay(merchant, order.order_id);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");

    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 3 });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "pending", at_risk: false });
    const delivered = await deliveredTo("/shallow");
    expect(delivered.map((d) => d.event)).toEqual(["payment.pending", "payment.reorged"]);
    expect(delivered[1]!.data).toMatchObject({ order_id: order.order_id, status: "pending", amount_received: "0", transaction: null });
  });
});
