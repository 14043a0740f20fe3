/**
 * Issue 26 item 3: a chain's own finality as a floor under the merchant's threshold, on the real
 * devnet behind a proxy that answers `safe` / `finalized` lower than the head (hardhat answers both
 * with its latest block). A payment above `finalized` stays re-checked past the threshold's window,
 * so a deep reorg is still caught; a sweep waits until the payment's block is `safe`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { type Address, type PublicClient } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import type { Blockchain } from "@/lib/chains/catalog";
import { createChainClient } from "@/lib/chains/clients";
import { finalityHead } from "@/lib/chains/finality";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { sweeps } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { startFinalityProxy, type FinalityProxy } from "../helpers/finality-proxy";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

let proxy: FinalityProxy;
beforeAll(async () => {
  proxy = await startFinalityProxy(net.rpcUrl);
});
afterAll(async () => {
  await proxy.close();
});

/** Base on the devnet, read through the proxy. */
const chain = (): Blockchain => ({ ...net.chain("base"), rpcUrl: proxy.url });
const client = (): PublicClient => createChainClient(chain());
const tick = () => watchChainTick(testDb.db, chain(), client(), { checkInternalDeposits: false });

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A confirmed USDC order at threshold 1, and the block its payment is in. */
async function confirmedOrder() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
  const order = await createOrder(merchant, { amount: "3", currency: "USDC", blockchain: "base" });
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, { token: merchant.access, params: { orderId: order.order_id }, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const receipt = await client().getTransactionReceipt({ hash: res.body.data.transaction_hash });
  await tick();
  expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
  return { merchant, order, paymentBlock: receipt.blockNumber };
}

describe("finality tags", () => {
  test("hardhat answers `safe` and `finalized` with its latest block, so the devnet alone never holds anything back", async () => {
    const direct = createChainClient(net.chain("base"));
    await net.testClient().mine({ blocks: 3 });
    const head = await direct.getBlockNumber({ cacheTime: 0 });
    expect((await direct.getBlock({ blockTag: "safe" })).number).toBe(head);
    expect((await direct.getBlock({ blockTag: "finalized" })).number).toBe(head);
  });

  test("a live chain's answer is reused for a while (one call, not one per tick); the devnet is asked every time", async () => {
    const head = await client().getBlockNumber({ cacheTime: 0 });
    const live: Blockchain = { ...chain(), isDevnet: false };
    await finalityHead(client(), live, "finalized", head);
    const asked = proxy.asked.finalized;
    expect(await finalityHead(client(), live, "finalized", head)).toBe(head);
    expect(proxy.asked.finalized).toBe(asked);
    await finalityHead(client(), chain(), "finalized", head);
    await finalityHead(client(), chain(), "finalized", head);
    expect(proxy.asked.finalized).toBe(asked + 2);
  });

  test("a payment above `finalized` is still re-checked past the threshold's window: a reorg 80 blocks deep flags it at risk and re-queues its sweep", async () => {
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const { merchant, order, paymentBlock } = await confirmedOrder();
    const swept = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(swept.swept).toContain(order.order_id);
    proxy.setTag("finalized", paymentBlock - 1n);
    try {
      await testClient.mine({ blocks: 80 }); // past max(2 × 1, 64) blocks
      await tick();
      expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", at_risk: false, sweep: { status: "succeeded" } });

      await testClient.revert({ id: snapshot });
      await testClient.mine({ blocks: 100 });
      await tick();
      const after = await fetchOrder(merchant, order.order_id);
      expect(after).toMatchObject({ status: "confirmed", at_risk: true, at_risk_reason: "payment_reorged", transaction: null });
      expect(after.sweep.status).not.toBe("succeeded");
    } finally {
      proxy.setTag("finalized", null);
    }
  });

  test("once `finalized` is at or above the payment's block, the same deep reorg is past re-checking (the window alone)", async () => {
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const { merchant, order } = await confirmedOrder();
    await testClient.mine({ blocks: 80 });
    await tick();
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 100 });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", at_risk: false });
  });

  test("a sweep waits, without sending or spending an attempt, until the payment's block is `safe`", async () => {
    const { merchant, order, paymentBlock } = await confirmedOrder();
    const sweeperNonce = () => client().getTransactionCount({ address: devnetSweeper.address as Address });
    const nonceBefore = await sweeperNonce();
    proxy.setTag("safe", paymentBlock - 1n);
    try {
      const held = await sweepConfirmedDeposits(testDb.db, chain(), client());
      expect(held.waiting).toContain(order.order_id);
      expect(held.swept).not.toContain(order.order_id);
      expect(await sweeperNonce()).toBe(nonceBefore);
      expect((await fetchOrder(merchant, order.order_id)).sweep).toMatchObject({ status: "pending", transaction_hash: null });
      const [row] = await testDb.db.select().from(sweeps).where(eq(sweeps.paymentOrderId, order.id));
      expect(row!.attempts).toBe(0);

      proxy.setTag("safe", paymentBlock);
      const later = new Date(Date.now() + 5_000);
      const released = await sweepConfirmedDeposits(testDb.db, chain(), client(), later);
      expect(released.swept).toContain(order.order_id);
      expect(await sweeperNonce()).toBe(nonceBefore + 1);
    } finally {
      proxy.setTag("safe", null);
    }
  });
});
