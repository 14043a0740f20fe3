import { describe, expect, test } from "vitest";
import { parseEther, type Address, type PublicClient } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { chainClient, createChainClient } from "@/lib/chains/clients";
import { internalSenderArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { custom } from "viem";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const tick = (client?: PublicClient, checkInternalDeposits = false) =>
  watchChainTick(testDb.db, base(), client ?? chainClient(base()), { checkInternalDeposits });

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  return (await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } })).body.data;
}

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { transaction_hash: string };
}

async function setup(threshold: number, order: Record<string, unknown> = {}) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  return { merchant, order: await createOrder(merchant, { amount: "7", currency: "USDC", ...order }) };
}

describe("reorgs", () => {
  test("a payment reorged out before the threshold never confirms, and its order falls back to pending", async () => {
    const { merchant, order } = await setup(3);
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    await pay(merchant, order.order_id);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");

    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 5 }); // a different, longer chain without the payment
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("pending");
    expect(seen.amount_received).toBe("0");
    await testClient.mine({ blocks: 5 });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("pending");
    const txs = await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access });
    expect(txs.body.results.map((t: any) => t.status)).toEqual(["failed"]);
  });
});

describe("devnet restart", () => {
  test("a restarted devnet is noticed: cursor reset, vanished transfers dropped, orders fall back; new payments still work", async () => {
    const { merchant, order } = await setup(5);
    await pay(merchant, order.order_id);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");

    await net.restart();
    const result = await tick(createChainClient(base()));
    expect(result.scan.reset).toBe(true);
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("pending");

    await pay(merchant, order.order_id);
    await tick(createChainClient(base()));
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
  });
});

describe("crashes and concurrency", () => {
  test("a scan that dies midway commits nothing; the next one records each transfer exactly once", async () => {
    const { merchant, order } = await setup(1);
    await pay(merchant, order.order_id, { amount: "3" });
    await pay(merchant, order.order_id, { amount: "4" });
    const real = chainClient(base());
    // the process "dies" when it asks for receipts, after reading logs and blocks
    const dying = createChainClient(
      base(),
      custom({
        async request({ method, params }) {
          if (method === "eth_getTransactionReceipt") throw new Error("killed");
          return real.request({ method, params } as never);
        },
      }),
    );
    await expect(tick(dying)).rejects.toThrow();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("pending");
    await tick();
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("confirmed");
    expect(seen.amount_received).toBe("7");
    const txs = await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access });
    expect(txs.body.count).toBe(2);
  });

  test("two scanner instances at once record every transfer once and move the order once", async () => {
    const { merchant, order } = await setup(1);
    await pay(merchant, order.order_id);
    const results = await Promise.allSettled([tick(createChainClient(base())), tick(createChainClient(base()))]);
    expect(results.some((r) => r.status === "fulfilled")).toBe(true);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access })).body.count).toBe(1);
  });
});

describe("internal transfers", () => {
  test("native coin sent by a contract is caught by the balance check and confirms the order", async () => {
    const { merchant, order } = await setup(1, { amount: "1.5", currency: "ETH" });
    const payer = net.wallet(devnetAccounts[5].privateKey);
    const client = chainClient(base());
    const deploy = await payer.deployContract({ abi: internalSenderArtifact.abi, bytecode: internalSenderArtifact.bytecode });
    const sender = (await client.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    const hash = await payer.writeContract({
      address: sender,
      abi: internalSenderArtifact.abi,
      functionName: "send",
      args: [order.receiving_address as Address],
      value: parseEther("1.5"),
    });
    await client.waitForTransactionReceipt({ hash });

    await tick(undefined, false);
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("pending");
    const result = await tick(undefined, true);
    expect(result.internalDeposits).toBe(1);
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("confirmed");
    expect(seen.transaction.transaction_hash).toBe(hash);
    await tick(undefined, true);
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access })).body.count).toBe(1);
  });
});

describe("late payment", () => {
  test("money arriving after expiry fails the expired order with late_payment and does not count", async () => {
    const expiresAt = new Date(Date.now() + 5_000);
    const { merchant, order } = await setup(1, { expires_at: expiresAt.toISOString() });
    await tick();
    await watchChainTick(testDb.db, base(), chainClient(base()), { now: () => new Date(expiresAt.getTime() + 1000) });
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("expired");
    await net.testClient().setNextBlockTimestamp({ timestamp: BigInt(Math.floor(expiresAt.getTime() / 1000) + 60) });
    await pay(merchant, order.order_id);
    await watchChainTick(testDb.db, base(), chainClient(base()), { now: () => new Date(expiresAt.getTime() + 70_000) });
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "failed", failure_reason: "late_payment", amount_received: "0" });
  });
});
