/**
 * Issue 26 item 3: a chain's own finality as a floor under the merchant's threshold, on the real
 * devnet behind a proxy that answers `safe` / `finalized` lower than the head (hardhat answers both
 * with its latest block). A payment above `finalized` stays re-checked past the threshold's window,
 * so a deep reorg is still caught; a sweep waits until the payment's block is `safe`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { keccak256, serializeTransaction, type Address, type Hex, type PublicClient } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import type { Blockchain } from "@/lib/chains/catalog";
import { createChainClient } from "@/lib/chains/clients";
import { finalityHead } from "@/lib/chains/finality";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { sweeps, transactions } from "@/lib/db/schema";
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
const tick = (maxBlocksPerTick?: number) => watchChainTick(testDb.db, chain(), client(), { checkInternalDeposits: false, maxBlocksPerTick });

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A confirmed USDC order at threshold 1, and the block its payment is in. */
async function confirmedOrder(threshold = 1) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  const order = await createOrder(merchant, { amount: "3", currency: "USDC", blockchain: "base" });
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
    token: merchant.access,
    params: { orderId: order.order_id },
    body: {},
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const receipt = await client().getTransactionReceipt({ hash: res.body.data.transaction_hash });
  if (threshold > 1) await net.testClient().mine({ blocks: threshold - 1 });
  await tick();
  expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
  return { merchant, order, paymentBlock: receipt.blockNumber, paymentHash: receipt.transactionHash };
}

/** The signed transactions of blocks [from, to] as they were broadcast, to send them again on another branch of the chain. */
async function signedTransactions(from: bigint, to: bigint): Promise<Hex[]> {
  const raw: Hex[] = [];
  for (let blockNumber = from; blockNumber <= to; blockNumber++) {
    const block = await client().getBlock({ blockNumber, includeTransactions: true });
    for (const tx of block.transactions) {
      const signed = serializeTransaction(
        {
          chainId: tx.chainId!,
          type: "eip1559",
          nonce: tx.nonce,
          to: tx.to,
          value: tx.value,
          data: tx.input,
          gas: tx.gas,
          maxFeePerGas: tx.maxFeePerGas!,
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas!,
          accessList: tx.accessList,
        },
        { r: tx.r, s: tx.s, yParity: tx.yParity! },
      );
      expect(keccak256(signed)).toBe(tx.hash);
      raw.push(signed);
    }
  }
  return raw;
}

/** A snapshot of the chain and its head, to fork it there later. */
async function forkHere() {
  const head = await client().getBlockNumber({ cacheTime: 0 });
  return { id: await net.testClient().snapshot(), head };
}

/**
 * The payment's chain is replaced from `fork` on by a longer one (revert, then mine) in which the
 * same signed transactions are mined again `delay` blocks later, after the scanner's cursor reached
 * `depth` blocks past the payment: a reorg deeper than the scanner's 64-block rewind.
 */
async function reincludeDeeperThanRewind(
  fork: { id: Hex; head: bigint },
  paymentBlock: bigint,
  { depth, delay, maxBlocksPerTick }: { depth: number; delay: number; maxBlocksPerTick?: number },
): Promise<bigint> {
  const testClient = net.testClient();
  const raw = await signedTransactions(fork.head + 1n, paymentBlock);
  const cursorBlock = paymentBlock + BigInt(depth);
  await testClient.mine({ blocks: Number(cursorBlock - (await client().getBlockNumber({ cacheTime: 0 }))) });
  expect((await tick()).scan.toBlock).toBe(cursorBlock);
  await testClient.revert({ id: fork.id });
  await testClient.mine({ blocks: delay });
  let last: Hex | undefined;
  for (const tx of raw) last = await client().request({ method: "eth_sendRawTransaction", params: [tx] });
  const reincluded = (await client().waitForTransactionReceipt({ hash: last! })).blockNumber;
  await testClient.mine({ blocks: depth + 20 });
  await tick(maxBlocksPerTick);
  return reincluded;
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

  test("a payment re-included after a reorg deeper than the scanner's rewind, above `finalized`, is recorded at its new block in the same tick: the order stays confirmed, not at risk", async () => {
    const fork = await forkHere();
    const { merchant, order, paymentBlock, paymentHash } = await confirmedOrder();
    proxy.setTag("finalized", fork.head);
    try {
      // Ten blocks a tick: the rescan reaches the old cursor in chunks within the tick, before the re-check runs.
      const reincluded = await reincludeDeeperThanRewind(fork, paymentBlock, { depth: 80, delay: 30, maxBlocksPerTick: 10 });
      expect(reincluded).toBeGreaterThan(paymentBlock);
      expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", at_risk: false, transaction: { transaction_hash: paymentHash } });
      const [row] = await testDb.db.select().from(transactions).where(eq(transactions.txHash, paymentHash));
      expect(row).toMatchObject({ status: "confirmed", blockNumber: reincluded, blockHash: (await client().getBlock({ blockNumber: reincluded })).hash });
    } finally {
      proxy.setTag("finalized", null);
    }
    // The money is there again, and is swept.
    expect((await sweepConfirmedDeposits(testDb.db, chain(), client())).swept).toContain(order.order_id);
  });

  test("on a chain whose `finalized` is its head, a payment still in its re-check window (threshold 40: 80 blocks) re-included after a 70-block reorg is recorded again: the rescan reaches the scanner's rewind below the lowest replaced record", async () => {
    const fork = await forkHere();
    const { merchant, order, paymentBlock, paymentHash } = await confirmedOrder(40);
    const reincluded = await reincludeDeeperThanRewind(fork, paymentBlock, { depth: 70, delay: 3 });
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", at_risk: false, transaction: { transaction_hash: paymentHash } });
    const [row] = await testDb.db.select().from(transactions).where(eq(transactions.txHash, paymentHash));
    expect(row).toMatchObject({ status: "confirmed", blockNumber: reincluded });
    expect((await sweepConfirmedDeposits(testDb.db, chain(), client())).swept).toContain(order.order_id);
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
