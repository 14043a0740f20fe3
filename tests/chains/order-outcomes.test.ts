/**
 * How transfers that do not complete an order settle it, on the real devnet: one terminal outcome
 * per order with per-order event sequence numbers delivered in order, the right failure reasons,
 * and money that did not complete an order flushed to the merchant all the same.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseAbi, parseEther, type Address, type Hex } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as listEvents } from "@/app/api/events/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { depositFactoryV2Artifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
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
const client = () => chainClient(base());
const tick = (now?: Date) => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true, ...(now ? { now: () => now } : {}) });
const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);

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

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { transaction_hash: string; amount: string };
}

async function eventsOf(merchant: TestMerchant, orderId: string) {
  const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: orderId } });
  return (res.body.results as { event: string; sequence: number; created_at: string }[]).sort((a, b) => a.sequence - b.sequence);
}

async function setup(order: Record<string, unknown>, threshold = 1) {
  const merchant = await createMerchant();
  const wallet = await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  return { merchant, wallet: wallet.wallet_address as Address, order: await createOrder(merchant, { blockchain: "base", ...order }) };
}

/** The later of the wall clock and the devnet's latest block time (earlier tests stamp blocks in the future). */
async function chainNow(): Promise<number> {
  const latest = await client().getBlock({ blockTag: "latest" });
  return Math.max(Date.now(), Number(latest.timestamp) * 1000 + 1000);
}

/** Stamps the next block `seconds` after `at` (a payment made after the deadline). */
async function nextBlockAt(at: Date, seconds: number) {
  await net.testClient().setNextBlockTimestamp({ timestamp: BigInt(Math.floor(at.getTime() / 1000) + seconds) });
}

describe("one terminal outcome per order", () => {
  test("a late payment already on chain when the deadline is judged fails the order once: payment.failed only, no payment.expired", async () => {
    const expiresAt = new Date((await chainNow()) + 60_000);
    const { merchant, order } = await setup({ amount: "4", currency: "USDC", expires_at: expiresAt.toISOString() });
    await tick();
    await nextBlockAt(expiresAt, 60);
    await pay(merchant, order.order_id);
    await tick(new Date(expiresAt.getTime() + 70_000));
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "failed", failure_reason: "late_payment", amount_received: "0", transaction: null });
    expect((await eventsOf(merchant, order.order_id)).map((e) => [e.event, e.sequence])).toEqual([["payment.failed", 1]]);
  });

  test("money seen after an announced expiry is late even in a block stamped with the deadline's second (block times are whole seconds)", async () => {
    const expiresAt = new Date((await chainNow()) + 60_000 + 500);
    const { merchant, order } = await setup({ amount: "4", currency: "USDC", expires_at: expiresAt.toISOString() });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("expired");
    // The block carries the deadline's own second: by its stamp, on time; by what was announced, late.
    await nextBlockAt(expiresAt, 0);
    await pay(merchant, order.order_id);
    await tick(new Date(expiresAt.getTime() + 2_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "failed", failure_reason: "late_payment", amount_received: "0" });
    expect((await eventsOf(merchant, order.order_id)).map((e) => e.event)).toEqual(["payment.expired", "payment.failed"]);
  });

  test("a late payment after an announced expiry: payment.expired (1) then payment.failed (2), later, and nothing after", async () => {
    const expiresAt = new Date((await chainNow()) + 60_000);
    const { merchant, order } = await setup({ amount: "4", currency: "USDC", expires_at: expiresAt.toISOString() });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("expired");
    await nextBlockAt(expiresAt, 120);
    await pay(merchant, order.order_id);
    await tick(new Date(expiresAt.getTime() + 130_000));
    await pay(merchant, order.order_id, { amount: "1" });
    await tick(new Date(expiresAt.getTime() + 140_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "failed", failure_reason: "late_payment" });
    const events = await eventsOf(merchant, order.order_id);
    expect(events.map((e) => [e.event, e.sequence])).toEqual([
      ["payment.expired", 1],
      ["payment.failed", 2],
    ]);
    expect(Date.parse(events[1]!.created_at)).toBeGreaterThan(Date.parse(events[0]!.created_at));
  });

  test("webhooks carry the sequence and one order's events reach a receiver in order", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/ordered") } });
    expect(endpoint.status).toBe(201);
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await createOrder(merchant, { amount: "1", currency: "USDC", blockchain: "base" }));
    for (const order of orders) await pay(merchant, order.order_id);
    await tick(); // every order: pending → processing → confirmed in one pass, two events at the same instant
    const before = receiver.requests.length;
    while ((await deliverDueWebhooks(testDb.db)) > 0);
    const bodies = receiver.requests.slice(before).map((r) => JSON.parse(r.body) as { event: string; sequence: number; data: { order_id: string } });
    expect(bodies).toHaveLength(12);
    for (const order of orders) {
      const mine = bodies.filter((b) => b.data.order_id === order.order_id);
      expect(mine.map((b) => [b.event, b.sequence])).toEqual([
        ["payment.pending", 1],
        ["payment.confirmed", 2],
      ]);
    }
  });
});

describe("failure reasons", () => {
  test("another asset does not count: the order stays pending until it expires, then expires (not late_payment)", async () => {
    const expiresAt = new Date((await chainNow()) + 30_000);
    const { merchant, order } = await setup({ amount: "10", currency: "USDC", expires_at: expiresAt.toISOString() });
    await pay(merchant, order.order_id, { currency: "USDT", amount: "10" });
    await pay(merchant, order.order_id, { currency: "ETH", amount: "0.01" });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "pending", amount_received: "0", transaction: null });
    await tick(new Date(expiresAt.getTime() + 1_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "expired", failure_reason: null });
  });

  test("another asset after expiry leaves an expired order expired", async () => {
    const expiresAt = new Date((await chainNow()) + 60_000);
    const { merchant, order } = await setup({ amount: "10", currency: "USDC", expires_at: expiresAt.toISOString() });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    await nextBlockAt(expiresAt, 200);
    const { transaction_hash } = await pay(merchant, order.order_id, { currency: "USDT", amount: "10" });
    await tick(new Date(expiresAt.getTime() + 210_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "expired", failure_reason: null });
    const tx = await call(getTransaction, "GET", `/api/transactions/${transaction_hash}/`, {
      token: merchant.access,
      params: { transactionHash: transaction_hash },
    });
    expect(tx.body.data).toMatchObject({ counted: false, not_counted_reason: "wrong_asset" });
  });

  test("a reverted native transfer moves nothing and is not recorded (the scanner reads balances, not whole blocks): the order stays pending, then expires", async () => {
    const expiresAt = new Date((await chainNow()) + 30_000);
    const { merchant, order, wallet } = await setup({ amount: "0.5", currency: "ETH", expires_at: expiresAt.toISOString() });
    const griefer = net.wallet(devnetAccounts[6].privateKey);
    // deploy the forwarder (permissionless), then call it with data it has no function for: the transaction reverts
    const deployed = await griefer.writeContract({
      address: devnetContracts.factoryV2,
      abi: depositFactoryV2Artifact.abi,
      functionName: "flush",
      args: [wallet, await saltOf(order.order_id), []],
    });
    await client().waitForTransactionReceipt({ hash: deployed });
    // (hardhat answers a reverting transaction with an error when it mines it at once: queue it, then mine)
    await net.testClient().setAutomine(false);
    let hash: Hex;
    try {
      hash = await griefer.sendTransaction({ to: order.receiving_address, value: parseEther("0.5"), data: "0xdeadbeef", gas: 100_000n });
      await net.testClient().mine({ blocks: 1 });
    } finally {
      await net.testClient().setAutomine(true);
    }
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("reverted");
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "pending", amount_received: "0", transaction: null });
    // As a reverted token transfer, which leaves no log: no money moved, so there is nothing to record.
    const tx = await call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: merchant.access, params: { transactionHash: hash } });
    expect(tx.status).toBe(404);
    await tick(new Date(expiresAt.getTime() + 1_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "expired", failure_reason: null });
  });
});

describe("money that did not complete an order reaches the merchant", () => {
  test("underpaid: the order fails, the sweeper flushes what arrived, and the order shows where it went", async () => {
    const expiresAt = new Date((await chainNow()) + 30_000);
    const { merchant, order, wallet } = await setup({ amount: "5", currency: "USDC", expires_at: expiresAt.toISOString() });
    await pay(merchant, order.order_id, { amount: "2" });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      status: "failed",
      failure_reason: "underpaid",
      amount_received: "2",
      sweep: { status: "pending", destination: wallet },
    });
    const result = await sweepConfirmedDeposits(testDb.db, base(), client(), new Date(expiresAt.getTime() + 2_000));
    expect(result.swept).toContain(order.order_id);
    expect(await client().readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [wallet] })).toBe(2_000_000n);
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.sweep).toEqual({ status: "succeeded", destination: wallet, transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  });

  test("a late payment and another asset after expiry are flushed too, every token the address holds", async () => {
    const expiresAt = new Date((await chainNow()) + 60_000);
    const { merchant, order, wallet } = await setup({ amount: "3", currency: "USDC", expires_at: expiresAt.toISOString() });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    await nextBlockAt(expiresAt, 300);
    await pay(merchant, order.order_id, { currency: "USDT", amount: "7" });
    await tick(new Date(expiresAt.getTime() + 310_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "expired", sweep: { status: "pending" } });
    await sweepConfirmedDeposits(testDb.db, base(), client(), new Date(expiresAt.getTime() + 311_000));
    expect(await client().readContract({ address: devnetContracts.USDT, abi: erc20, functionName: "balanceOf", args: [wallet] })).toBe(7_000_000n);

    // more money after the sweep: queued again
    await pay(merchant, order.order_id, { amount: "3" });
    await tick(new Date(expiresAt.getTime() + 320_000));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "failed", failure_reason: "late_payment", sweep: { status: "pending" } });
    await sweepConfirmedDeposits(testDb.db, base(), client(), new Date(expiresAt.getTime() + 321_000));
    expect(await client().readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [wallet] })).toBe(3_000_000n);
    expect((await fetchOrder(merchant, order.order_id)).sweep.status).toBe("succeeded");
  });
});

async function saltOf(orderId: string): Promise<Hex> {
  const { paymentOrders } = await import("@/lib/db/schema");
  const { eq } = await import("drizzle-orm");
  const [row] = await testDb.db.select({ salt: paymentOrders.depositSalt }).from(paymentOrders).where(eq(paymentOrders.orderId, orderId));
  return row!.salt as Hex;
}
