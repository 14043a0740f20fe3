/**
 * A transient RPC failure is never taken for a reorg: a pending refund whose block lookup fails
 * (a JSON-RPC error, a 503, a node that never answers) stays pending, through a real misbehaving
 * JSON-RPC proxy in front of the devnet; reopening it would invite the merchant to pay it twice.
 * Once the node answers again, the refund confirms.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { http, numberToHex, type Address, type Hex } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { createChainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { startRpcProxy, type RpcBehaviour, type RpcProxy } from "../helpers/rpc-proxy";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const merchantKey = devnetAccounts[7];

let proxy: RpcProxy;
beforeAll(async () => {
  proxy = await startRpcProxy(net.rpcUrl);
});
afterAll(async () => {
  await proxy.close();
});

/**
 * A tick through the proxy, with no retries and a timeout short enough that a hang fails within
 * the test, long enough that a forwarded call on a loaded machine does not (1 s failed a
 * forwarded eth_getBlockByNumber at load 13).
 */
const tickViaProxy = () =>
  watchChainTick(testDb.db, base(), createChainClient(base(), http(proxy.url, { timeout: 5_000, retryCount: 0 })), { checkInternalDeposits: false });

async function refundsOf(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data.refunds as { status: string; transaction_hash: string | null }[];
}

describe("a refund's block lookup fails", () => {
  test("a JSON-RPC error, a 503 or a hang leaves the pending refund pending (never reopened); it confirms once the node answers", async () => {
    proxy.behave(() => "forward");
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 3 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "0.5", currency: "ETH" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(paid.status).toBe(201);
    await net.testClient().mine({ blocks: 3 });
    await tickViaProxy();

    const created = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { amount: "0.1", to_address: randomAddress() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const tx = created.body.data.transaction;
    const wallet = net.wallet(merchantKey.privateKey as Hex);
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data, value: BigInt(tx.value) });
    const receipt = await createChainClient(base()).waitForTransactionReceipt({ hash });
    await tickViaProxy();
    expect((await refundsOf(merchant, order.order_id))[0]).toMatchObject({ status: "pending", transaction_hash: hash });
    // One block more (2 of 3 confirmations): the scanner's cursor moves past the refund's block, so
    // only the refund pass asks for that block again.
    await net.testClient().mine({ blocks: 1 });
    await tickViaProxy();
    expect((await refundsOf(merchant, order.order_id))[0]).toMatchObject({ status: "pending" });

    const refundBlock = numberToHex(receipt.blockNumber);
    const faults: RpcBehaviour[] = [{ rpcError: { code: -32603, message: "internal error: upstream busy" } }, { httpStatus: 503 }, "hang"];
    for (const fault of faults) {
      proxy.behave((rpc) => (rpc.method === "eth_getBlockByNumber" && rpc.params[0] === refundBlock ? fault : "forward"));
      const before = proxy.faults.length;
      await expect(tickViaProxy()).rejects.toThrow();
      // The failed call was the refund's block, and only that one.
      expect(proxy.faults.slice(before), JSON.stringify(fault)).toEqual([{ method: "eth_getBlockByNumber", params: [refundBlock, false] }]);
      expect((await refundsOf(merchant, order.order_id))[0], JSON.stringify(fault)).toMatchObject({ status: "pending", transaction_hash: hash });
    }

    proxy.behave(() => "forward");
    await net.testClient().mine({ blocks: 3 });
    await tickViaProxy();
    expect((await refundsOf(merchant, order.order_id))[0]).toMatchObject({ status: "confirmed", transaction_hash: hash });
  });
});
