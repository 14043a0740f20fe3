/**
 * Issue 50 item 3: a provider that invents a Transfer log cannot pay an order. The lie is a real
 * misbehaving JSON-RPC proxy in front of the devnet that adds a log to eth_getLogs (and, when told,
 * to the transaction's receipt as well) carrying a real block hash and a real transaction hash of
 * that block: a real payment to another order. Alone, a provider whose logs its own receipts do not
 * hold is caught; one consistent in its lie is caught by a second provider's receipt; while the two
 * disagree nothing of that range is recorded, and once the lie stops the real payment counts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { pad, toHex, type Hex } from "viem";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { createChainClient } from "@/lib/chains/clients";
import { createProviderPool } from "@/lib/chains/provider-pool";
import { paymentOrders, transactions } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { startRpcProxy, type RpcCall, type RpcProxy } from "../helpers/rpc-proxy";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

let liar: RpcProxy;
let honest: RpcProxy;
beforeAll(async () => {
  liar = await startRpcProxy(net.rpcUrl);
  honest = await startRpcProxy(net.rpcUrl);
});
afterAll(async () => {
  await liar.close();
  await honest.close();
});
afterEach(() => {
  for (const proxy of [liar, honest]) {
    proxy.rewrite(null);
    proxy.behave(() => "forward");
    proxy.resetCounts();
  }
});

async function pay(merchant: TestMerchant, orderId: string): Promise<Hex> {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.transaction_hash as Hex;
}

async function orderState(orderId: string) {
  const [order] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, orderId));
  const recorded = await testDb.db.select().from(transactions).where(eq(transactions.paymentOrderId, order!.id));
  return { status: order!.status, amountReceived: order!.amountReceived, transfers: recorded.length };
}

/**
 * Two orders of 5 USDC: `paid` is paid for real; `victim` is the one the lie pays, with a log of
 * the real payment's transaction and block. Returns the lie as a rewrite of eth_getLogs (and of
 * the real transaction's receipt when `inReceipts`).
 */
async function setUpLie(inReceipts: boolean) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
  const paid = await createOrder(merchant, { blockchain: "base", amount: "5", currency: "USDC" });
  const victim = await createOrder(merchant, { blockchain: "base", amount: "5", currency: "USDC" });
  // The cursor at the head first, so the next tick scans the payment's block.
  await watchChainTick(testDb.db, base(), createChainClient(base()), { checkInternalDeposits: false });
  const hash = await pay(merchant, paid.order_id);
  const receipt = await createChainClient(base()).getTransactionReceipt({ hash });
  const usdc = base().tokens.find((t) => t.symbol === "USDC")!.address!;
  const fake = {
    address: usdc.toLowerCase(),
    topics: [transferTopic, pad(receipt.from), pad(victim.receiving_address as Hex)],
    data: pad(toHex(5_000_000n)),
    blockNumber: toHex(receipt.blockNumber),
    blockHash: receipt.blockHash,
    transactionHash: hash,
    transactionIndex: toHex(receipt.transactionIndex),
    logIndex: toHex(receipt.logs.length + 5),
    removed: false,
  };
  const lie = (rpc: RpcCall, result: unknown) => {
    if (rpc.method === "eth_getLogs") {
      const filter = rpc.params[0] as { fromBlock: Hex; toBlock: Hex };
      if (BigInt(filter.fromBlock) <= receipt.blockNumber && receipt.blockNumber <= BigInt(filter.toBlock)) return [...(result as unknown[]), fake];
    }
    if (inReceipts && rpc.method === "eth_getTransactionReceipt" && rpc.params[0] === hash) {
      const real = result as { logs: unknown[] };
      return { ...real, logs: [...real.logs, fake] };
    }
    return result;
  };
  return { paid: paid.order_id as string, victim: victim.order_id as string, hash, lie };
}

const receiptCalls = (proxy: RpcProxy, hash: Hex) => proxy.calls.filter((c) => c.method === "eth_getTransactionReceipt" && c.params[0] === hash).length;

describe("a lying provider", () => {
  test("alone, a log its own receipt does not hold is never recorded or credited; the real payment still is", async () => {
    const { paid, victim, lie } = await setUpLie(false);
    liar.rewrite(lie);
    const client = createChainClient(base(), createProviderPool([liar.url]).transport);
    await watchChainTick(testDb.db, base(), client, { checkInternalDeposits: false });
    expect(await orderState(victim)).toEqual({ status: "pending", amountReceived: "0", transfers: 0 });
    expect(await orderState(paid)).toMatchObject({ status: "confirmed", amountReceived: "5000000", transfers: 1 });
  });

  test("consistent in its lie (log and receipt), it is caught by a second provider's receipt: nothing of the range counts while they disagree", async () => {
    const { paid, victim, hash, lie } = await setUpLie(true);
    liar.rewrite(lie);
    // Every eth_getLogs goes to the liar (the other refuses them), so every scan reads the lie.
    honest.behave((rpc) => (rpc.method === "eth_getLogs" ? { httpStatus: 503 } : "forward"));
    const client = createChainClient(base(), createProviderPool([liar.url, honest.url], { cooldownMs: 50, maxCooldownMs: 100 }).transport);
    for (let i = 0; i < 3; i++) await watchChainTick(testDb.db, base(), client, { checkInternalDeposits: false }).catch(() => null);
    expect(await orderState(victim)).toEqual({ status: "pending", amountReceived: "0", transfers: 0 });
    // The range holding the dispute is not recorded: the real payment in it waits too.
    expect(await orderState(paid)).toMatchObject({ status: "pending", transfers: 0 });
    // Both were asked for the receipt: the one the lie came with and a second opinion.
    expect(receiptCalls(liar, hash) + receiptCalls(honest, hash)).toBeGreaterThanOrEqual(2);
    expect(receiptCalls(honest, hash)).toBeGreaterThanOrEqual(1);

    // The lie stops: the range is scanned, the real payment counts (confirmed on both), the invented one never existed.
    liar.rewrite(null);
    liar.resetCounts();
    honest.resetCounts();
    await watchChainTick(testDb.db, base(), client, { checkInternalDeposits: false });
    expect(await orderState(paid)).toMatchObject({ status: "confirmed", amountReceived: "5000000", transfers: 1 });
    expect(await orderState(victim)).toEqual({ status: "pending", amountReceived: "0", transfers: 0 });
    expect(receiptCalls(liar, hash)).toBe(1);
    expect(receiptCalls(honest, hash)).toBe(1);
  });

  test("a single provider consistent in its lie is believed: what one provider is trusted with (docs/design/chain-engine.md)", async () => {
    const { victim, lie } = await setUpLie(true);
    liar.rewrite(lie);
    const client = createChainClient(base(), createProviderPool([liar.url]).transport);
    await watchChainTick(testDb.db, base(), client, { checkInternalDeposits: false });
    // Nothing to compare with: the documented limit of one provider, shown so it cannot change unnoticed.
    expect((await orderState(victim)).transfers).toBe(1);
  });
});
