import { describe, expect, test } from "vitest";
import type { Hex } from "viem";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import type { OrderEvent, PaymentOrder, Transaction } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { buildOrderTimeline, type TimelineEntry } from "@/lib/dashboard/order-timeline";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const { loadOrderDetail } = await import("@/lib/dashboard/order-detail");

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = () => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true });
const merchantKey = devnetAccounts[7];

const describeEntry = (e: TimelineEntry) => (e.kind === "event" ? e.event.type : e.kind === "transfer" ? `transfer ${e.amount}` : e.kind);

async function pay(merchant: TestMerchant, orderId: string, amount: string) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body: { amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe("the order timeline (dashboard order page)", () => {
  test("a partly paid, then paid, swept and refunded order shows every transfer, the sweep and the refund in causal order", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });

    await pay(merchant, order.order_id, "4");
    await tick();
    const partial = (await loadOrderDetail(testDb.db, merchant.id, order.order_id))!;
    // Before: a partly paid order showed only "Created".
    expect(partial.timeline.map(describeEntry)).toEqual(["created", "transfer 4"]);

    await pay(merchant, order.order_id, "7");
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();
    expect((await sweepConfirmedDeposits(testDb.db, base(), client())).swept).toContain(order.order_id);
    const refund = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { overpaid_only: true, to_address: randomAddress() },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const tx = refund.body.data.transaction;
    const refundHash = await net.wallet(merchantKey.privateKey as Hex).sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();

    const detail = (await loadOrderDetail(testDb.db, merchant.id, order.order_id))!;
    const kinds = detail.timeline.map(describeEntry);
    expect(kinds.slice(0, 3)).toEqual(["created", "transfer 4", "transfer 7"]);
    expect(kinds).toEqual(expect.arrayContaining(["payment.pending", "payment.confirmed", "sweep", "refund.created", "refund.confirmed"]));
    expect(kinds.indexOf("transfer 7")).toBeLessThan(kinds.indexOf("payment.confirmed"));
    expect(kinds.indexOf("payment.confirmed")).toBeLessThan(kinds.indexOf("sweep"));
    expect(kinds.indexOf("sweep")).toBeLessThan(kinds.indexOf("refund.created"));
    expect(kinds.indexOf("refund.created")).toBeLessThan(kinds.indexOf("refund.confirmed"));
    const events = detail.timeline.filter((e) => e.kind === "event");
    expect(events.map((e) => e.event.sequence)).toEqual([...events.map((e) => e.event.sequence)].sort((a, b) => a - b));
    const confirmedRefund = events.find((e) => e.event.type === "refund.confirmed")!;
    expect(confirmedRefund.refund).toMatchObject({ amount: "1", currency: "USDC", status: "confirmed", transaction_hash: refundHash });
    expect(events.find((e) => e.event.type === "refund.created")!.refund).toMatchObject({ amount: "1", status: "requested" });
  });
});

describe("buildOrderTimeline", () => {
  const at = new Date("2026-01-01T10:00:00.000Z");
  const later = new Date("2026-01-01T10:00:00.400Z");
  const order = { createdAt: new Date("2026-01-01T09:00:00Z"), decimals: 6, depositDestination: "0xdest" } as PaymentOrder;
  const event = (id: string, sequence: number, type: string, createdAt: Date, data: object = {}) => ({ id, sequence, type, createdAt, data }) as OrderEvent;
  const transfer = (id: number, txHash: string, createdAt: Date) =>
    ({ id, txHash, createdAt, blockchainId: 2, currency: "USDC", amount: "1000000", fromAddress: "0xfrom", status: "confirmed", counted: true }) as Transaction;

  test("same-second events keep their sequence whatever their ids; a transfer comes before the event that names it, even when recorded a moment later", () => {
    const events = [
      event("evt_a", 3, "refund.created", at, {
        refunds: [{ id: 1, status: "requested", amount: "1", currency: "USDC", to_address: "0xc", transaction_hash: null }],
      }),
      event("evt_z", 1, "payment.pending", at, { transaction: { transaction_hash: "0xpay", confirmations: 0, block_number: 1 } }),
      event("evt_m", 2, "payment.confirmed", at, { transaction: { transaction_hash: "0xpay", confirmations: 1, block_number: 1 } }),
    ];
    const timeline = buildOrderTimeline(order, events, [transfer(1, "0xpay", later)], null);
    expect(timeline.map(describeEntry)).toEqual(["created", "transfer 1", "payment.pending", "payment.confirmed", "refund.created"]);
  });

  test("at the same instant: transfer, then event, then sweep", () => {
    const timeline = buildOrderTimeline(order, [event("evt_1", 1, "payment.confirmed", at)], [transfer(1, "0xother", at)], {
      id: 1,
      status: "succeeded",
      txHash: "0xsweep",
      updatedAt: at,
    } as never);
    expect(timeline.map(describeEntry)).toEqual(["created", "transfer 1", "payment.confirmed", "sweep"]);
  });
});
