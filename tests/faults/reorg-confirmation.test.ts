/**
 * Issue 23 as a fault scenario, on the real devnet and database: six paid orders in three states
 * (two whose confirmation crashed between the transfer's write and the order's, a real database
 * error from a trigger; two confirmed and swept; two still processing), then a reorg that takes
 * every payment away. Nothing may confirm on the new chain without a payment, every order the
 * reorg touched is announced once by payment.reorged, and paying again still confirms each once.
 * Summary: lost (a touched order never announced, or a new payment never confirmed), duplicated
 * (an event delivered twice), false-confirmed, 5xx, recovery seconds.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
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
import { printSummary, waitFor } from "./support";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const tick = () => watchChainTick(testDb.db, base(), createChainClient(base()), { checkInternalDeposits: false });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

let serverErrors = 0;
async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  if (res.status >= 500) serverErrors++;
  expect(res.status).toBe(200);
  return res.body.data;
}

async function pay(merchant: TestMerchant, orderId: string) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body: {} });
  if (res.status >= 500) serverErrors++;
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** What reached the receiver, per order: the events in arrival order. */
async function delivered(): Promise<Map<string, string[]>> {
  while ((await deliverDueWebhooks(testDb.db)) > 0);
  const byOrder = new Map<string, string[]>();
  for (const request of receiver.requests.filter((r) => r.path === "/faults-reorg")) {
    const body = JSON.parse(request.body) as { event: string; data: { order_id: string } };
    byOrder.set(body.data.order_id, [...(byOrder.get(body.data.order_id) ?? []), body.event]);
  }
  return byOrder;
}

describe("a reorg after crashed, confirmed and processing payments", () => {
  test("nothing false-confirmed, every touched order announced once, new payments confirm once", async () => {
    // Merchant A (threshold 3): the swept orders. C (threshold 6): the crashed ones, both
    // processing before they reach it. B (threshold 20): the processing ones, which stay so.
    const merchantA = await createMerchant();
    const merchantB = await createMerchant();
    const merchantC = await createMerchant();
    await createWallet(merchantA, { blockchain: 2, confirmation_threshold: 3 });
    await createWallet(merchantB, { blockchain: 2, confirmation_threshold: 20 });
    await createWallet(merchantC, { blockchain: 2, confirmation_threshold: 6 });
    for (const merchant of [merchantA, merchantB, merchantC]) {
      expect(
        (await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/faults-reorg") } })).status,
      ).toBe(201);
    }
    const orderOf = async (merchant: TestMerchant) => (await createOrder(merchant, { amount: "2", currency: "USDC", blockchain: "base" })).order_id as string;
    const [sweptA, sweptB, crashedA, crashedB] = [await orderOf(merchantA), await orderOf(merchantA), await orderOf(merchantC), await orderOf(merchantC)];
    const [processingA, processingB] = [await orderOf(merchantB), await orderOf(merchantB)];
    const owner = new Map<string, TestMerchant>([
      [sweptA, merchantA],
      [sweptB, merchantA],
      [crashedA, merchantC],
      [crashedB, merchantC],
      [processingA, merchantB],
      [processingB, merchantB],
    ]);
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();

    // Confirmed and swept.
    await pay(merchantA, sweptA);
    await pay(merchantA, sweptB);
    await testClient.mine({ blocks: 3 });
    await tick();
    await sweepConfirmedDeposits(testDb.db, base(), createChainClient(base()));
    // Processing (threshold 20).
    await pay(merchantB, processingA);
    await pay(merchantB, processingB);
    await tick();
    // Crashed between the two writes: both processing, then, once deep enough, their transfers are
    // confirmed and their orders' UPDATE fails (a real database error; the pass stops there).
    await pay(merchantC, crashedA);
    await pay(merchantC, crashedB);
    await tick();
    await testDb.db.execute(
      sql.raw(`create or replace function faults_refuse_confirm() returns trigger language plpgsql as $$
        begin
          if new.order_id in ('${crashedA}', '${crashedB}') and new.status = 'confirmed' and old.status <> 'confirmed' then
            raise exception 'injected fault: order update refused';
          end if;
          return new;
        end $$`),
    );
    await testDb.db.execute(
      sql.raw(`create trigger faults_refuse_confirm before update on payment_orders for each row execute function faults_refuse_confirm()`),
    );
    await testClient.mine({ blocks: 6 });
    await expect(tick()).rejects.toThrow();
    const before = new Map<string, any>();
    for (const [id, merchant] of owner) before.set(id, await fetchOrder(merchant, id));
    expect([...before.values()].map((o) => o.status)).toEqual(["confirmed", "confirmed", "processing", "processing", "processing", "processing"]);

    const reorgAt = Date.now();
    await testClient.revert({ id: snapshot });
    // The process "comes back" on the new chain: the database refuses nothing any more.
    await testDb.db.execute(sql.raw(`drop trigger faults_refuse_confirm on payment_orders`));
    await testClient.mine({ blocks: 30 });
    const expected = (id: string) => (id === sweptA || id === sweptB ? { status: "confirmed", at_risk: true } : { status: "pending", at_risk: false });
    await waitFor(
      "every order to show what the reorg took",
      async () => {
        await tick();
        await testClient.mine({ blocks: 1 });
        for (const [id, merchant] of owner) {
          const now = await fetchOrder(merchant, id);
          if (now.status !== expected(id).status || now.at_risk !== expected(id).at_risk) return false;
        }
        return true;
      },
      60_000,
      0,
    );
    const recoverySeconds = (Date.now() - reorgAt) / 1000;
    for (let i = 0; i < 3; i++) {
      await testClient.mine({ blocks: 5 });
      await tick();
    }
    const afterReorg = await delivered();

    // Paying again on the new chain confirms each pending order once.
    const reopened = [crashedA, crashedB, processingA, processingB];
    for (const id of reopened) await pay(owner.get(id)!, id);
    await waitFor(
      "the orders paid again to confirm",
      async () => {
        await testClient.mine({ blocks: 5 });
        await tick();
        for (const id of reopened) if ((await fetchOrder(owner.get(id)!, id)).status !== "confirmed") return false;
        return true;
      },
      60_000,
      0,
    );
    const final = await delivered();

    const falseConfirmed = reopened.filter((id) => (afterReorg.get(id) ?? []).includes("payment.confirmed")).length;
    const announced = [...before.keys()].filter((id) => (afterReorg.get(id) ?? []).filter((e) => e === "payment.reorged").length === 1).length;
    const duplicated = [...final.values()].reduce((sum, events) => sum + events.length - new Set(events).size, 0) - reopened.length; // paid again: a second payment.pending each is expected
    const confirmedOnce = reopened.filter((id) => final.get(id)!.filter((e) => e === "payment.confirmed").length === 1).length;
    printSummary("reorg after crashed, confirmed and processing payments", {
      acknowledged: owner.size,
      found: announced,
      lost: owner.size - announced + (reopened.length - confirmedOnce),
      duplicated,
      "false-confirmed": falseConfirmed,
      "5xx": serverErrors,
      recovery_s: Math.round(recoverySeconds * 10) / 10,
    });
    expect(falseConfirmed).toBe(0);
    expect(announced).toBe(owner.size);
    expect(confirmedOnce).toBe(reopened.length);
    expect(duplicated).toBe(0);
    expect(serverErrors).toBe(0);
    for (const id of reopened) expect(final.get(id)).toEqual(["payment.pending", "payment.reorged", "payment.pending", "payment.confirmed"]);
    for (const id of [sweptA, sweptB]) expect(final.get(id)).toEqual(["payment.pending", "payment.confirmed", "payment.reorged"]);
  }, 180_000);
});
