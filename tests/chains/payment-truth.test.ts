/**
 * Payment truth, tried as an attacker would on the real devnet: value in failed calls or
 * rolled-back frames, self-destructed ETH, several payments in one block, re-inclusion after a
 * reorg, lookalike tokens; plus what transfers that do not count mean for their order.
 */
import { describe, expect, test } from "vitest";
import { concat, custom, encodeFunctionData, parseEther, type Address, type Hex, type PublicClient } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient, createChainClient } from "@/lib/chains/clients";
import { internalSenderArtifact, paymentAttackerArtifact, testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = (): PublicClient => chainClient(base());
const tick = (checkInternalDeposits = true) => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits });
const attackerKey = devnetAccounts[6].privateKey;

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

async function setup(order: Record<string, unknown>, threshold = 1) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  return { merchant, order: await createOrder(merchant, { blockchain: "base", ...order }) };
}

async function deploy(abi: typeof paymentAttackerArtifact.abi | typeof internalSenderArtifact.abi, bytecode: Hex): Promise<Address> {
  const hash = await net.wallet(attackerKey).deployContract({ abi, bytecode });
  return (await client().waitForTransactionReceipt({ hash })).contractAddress!;
}

async function attack(functionName: "payThenFailedCall" | "payThenRollBack", to: string, paid: bigint, claimed: bigint, value: bigint): Promise<Hex> {
  const attacker = await deploy(paymentAttackerArtifact.abi, paymentAttackerArtifact.bytecode);
  const hash = await net
    .wallet(attackerKey)
    .writeContract({ address: attacker, abi: paymentAttackerArtifact.abi, functionName, args: [to as Address, paid, claimed], value });
  const receipt = await client().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return hash;
}

describe("native credit is bounded by what arrived", () => {
  test("1 wei paid, then a 5 ETH call that fails: the order stays pending with 1 wei received", async () => {
    const { merchant, order } = await setup({ amount: "5", currency: "ETH" });
    const hash = await attack("payThenFailedCall", order.receiving_address, 1n, parseEther("5"), 1n);
    expect(await client().getBalance({ address: order.receiving_address })).toBe(1n);
    await tick();
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "pending", amount_received: "0.000000000000000001" });
    expect((await fetchTransaction(merchant, hash)).amount).toBe("0.000000000000000001");
  });

  test("2 ETH sent inside a frame that is rolled back: only the 1 wei that stayed is credited", async () => {
    const { merchant, order } = await setup({ amount: "2", currency: "ETH" });
    await attack("payThenRollBack", order.receiving_address, 1n, parseEther("2"), parseEther("2") + 1n);
    expect(await client().getBalance({ address: order.receiving_address })).toBe(1n);
    await tick();
    await net.testClient().mine({ blocks: 3 });
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "pending", amount_received: "0.000000000000000001" });
  });

  test("ETH sent by SELFDESTRUCT (no call at all) is credited, exactly", async () => {
    const { merchant, order } = await setup({ amount: "1.5", currency: "ETH" });
    // init code: PUSH20 <deposit address> SELFDESTRUCT — a constructor that pays the address and vanishes
    const initCode = concat(["0x73", order.receiving_address as Hex, "0xff"]);
    const hash = await net.wallet(attackerKey).sendTransaction({ data: initCode, value: parseEther("1.5"), to: null });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await client().getBalance({ address: order.receiving_address })).toBe(parseEther("1.5"));
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "confirmed", amount_received: "1.5" });
    expect(seen.transaction.transaction_hash).toBe(hash);
  });

  test("several contract-sent payments in one block, to one address and to two orders in one transaction, are all credited", async () => {
    const one = await setup({ amount: "1.2", currency: "ETH" });
    const two = await setup({ amount: "0.3", currency: "ETH" });
    const three = await setup({ amount: "0.4", currency: "ETH" });
    const sender = await deploy(internalSenderArtifact.abi, internalSenderArtifact.bytecode);
    const attacker = await deploy(paymentAttackerArtifact.abi, paymentAttackerArtifact.bytecode);
    const payers = [devnetAccounts[7].privateKey, devnetAccounts[8].privateKey, devnetAccounts[9].privateKey].map((key) => net.wallet(key));
    await net.testClient().setAutomine(false);
    let hashes: Hex[];
    try {
      hashes = [
        await payers[0]!.writeContract({
          address: sender,
          abi: internalSenderArtifact.abi,
          functionName: "send",
          args: [one.order.receiving_address],
          value: parseEther("0.5"),
          gas: 100_000n,
        }),
        await payers[1]!.writeContract({
          address: sender,
          abi: internalSenderArtifact.abi,
          functionName: "send",
          args: [one.order.receiving_address],
          value: parseEther("0.7"),
          gas: 100_000n,
        }),
        await payers[2]!.writeContract({
          address: attacker,
          abi: paymentAttackerArtifact.abi,
          functionName: "payMany",
          args: [
            [two.order.receiving_address, three.order.receiving_address],
            [parseEther("0.3"), parseEther("0.4")],
          ],
          value: parseEther("0.7"),
          gas: 200_000n,
        }),
      ];
      await net.testClient().mine({ blocks: 1 });
    } finally {
      await net.testClient().setAutomine(true);
    }
    const receipts = await Promise.all(hashes.map((hash) => client().waitForTransactionReceipt({ hash })));
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    await tick();
    expect(await fetchOrder(one.merchant, one.order.order_id)).toMatchObject({ status: "confirmed", amount_received: "1.2" });
    expect(await fetchOrder(two.merchant, two.order.order_id)).toMatchObject({ status: "confirmed", amount_received: "0.3" });
    expect(await fetchOrder(three.merchant, three.order.order_id)).toMatchObject({ status: "confirmed", amount_received: "0.4" });
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: one.merchant.access })).body.count).toBe(2);
  });

  test("a transaction re-included after a reorg is judged by what it did the second time", async () => {
    const { merchant, order } = await setup({ amount: "1", currency: "ETH" }, 3);
    const attacker = await deploy(paymentAttackerArtifact.abi, paymentAttackerArtifact.bytecode);
    const payer = net.wallet(devnetAccounts[5].privateKey);
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const request = await payer.prepareTransactionRequest({
      to: attacker,
      data: encodeFunctionData({ abi: paymentAttackerArtifact.abi, functionName: "forwardUnlessPaused", args: [order.receiving_address] }),
      value: parseEther("1"),
      gas: 100_000n,
    });
    const signed = await payer.signTransaction(request);
    const hash = await client().sendRawTransaction({ serializedTransaction: signed });
    await client().waitForTransactionReceipt({ hash });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "processing", amount_received: "1" });

    // The reorg: the other branch pauses the contract first, then includes the very same transaction.
    await testClient.revert({ id: snapshot });
    const pause = await net
      .wallet(devnetAccounts[4].privateKey)
      .writeContract({ address: attacker, abi: paymentAttackerArtifact.abi, functionName: "setPaused", args: [true] });
    await client().waitForTransactionReceipt({ hash: pause });
    await testClient.mine({ blocks: 2 });
    expect(await client().sendRawTransaction({ serializedTransaction: signed })).toBe(hash);
    const reincluded = await client().waitForTransactionReceipt({ hash });
    expect(reincluded.status).toBe("success");
    await testClient.mine({ blocks: 5 });
    await tick();
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "pending", amount_received: "0" });
    expect(await fetchTransaction(merchant, hash)).toMatchObject({ status: "failed", counted: false, not_counted_reason: "reorged" });
  });

  test("the same transaction re-included unchanged still counts, at its new block", async () => {
    const { merchant, order } = await setup({ amount: "1", currency: "ETH" }, 2);
    const sender = await deploy(internalSenderArtifact.abi, internalSenderArtifact.bytecode);
    const payer = net.wallet(devnetAccounts[3].privateKey);
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const request = await payer.prepareTransactionRequest({
      to: sender,
      data: encodeFunctionData({ abi: internalSenderArtifact.abi, functionName: "send", args: [order.receiving_address] }),
      value: parseEther("1"),
      gas: 100_000n,
    });
    const signed = await payer.signTransaction(request);
    const hash = await client().sendRawTransaction({ serializedTransaction: signed });
    const first = await client().waitForTransactionReceipt({ hash });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 3 });
    await client().sendRawTransaction({ serializedTransaction: signed });
    const second = await client().waitForTransactionReceipt({ hash });
    expect(second.blockNumber).toBeGreaterThan(first.blockNumber);
    await testClient.mine({ blocks: 1 });
    await tick();
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "confirmed", amount_received: "1" });
    expect(seen.transaction).toMatchObject({ transaction_hash: hash, block_number: Number(second.blockNumber) });
  });

  test("a lookalike token (same name, symbol and decimals, another contract) is never recorded or credited", async () => {
    const { merchant, order } = await setup({ amount: "10", currency: "USDC" });
    const wallet = net.wallet(attackerKey);
    const deployHash = await wallet.deployContract({ abi: testTokenArtifact.abi, bytecode: testTokenArtifact.bytecode, args: ["USD Coin", "USDC", 6] });
    const fake = (await client().waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
    expect(fake).not.toBe(devnetContracts.USDC);
    const mint = await wallet.writeContract({ address: fake, abi: testTokenArtifact.abi, functionName: "mint", args: [order.receiving_address, 10_000_000n] });
    await client().waitForTransactionReceipt({ hash: mint });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "pending", amount_received: "0", transaction: null });
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access })).body.count).toBe(0);
  });
});

describe("a flaky RPC never drops a real payment", () => {
  test("a block lookup that fails while re-checking leaves the transfer alone; the next pass confirms it", async () => {
    const { merchant, order } = await setup({ amount: "1", currency: "ETH" }, 4);
    const sender = await deploy(internalSenderArtifact.abi, internalSenderArtifact.bytecode);
    const hash = await net
      .wallet(devnetAccounts[3].privateKey)
      .writeContract({ address: sender, abi: internalSenderArtifact.abi, functionName: "send", args: [order.receiving_address], value: parseEther("1") });
    const receipt = await client().waitForTransactionReceipt({ hash });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    await net.testClient().mine({ blocks: 1 });
    await tick(); // the scanner's cursor moves past the payment's block
    const real = client();
    // a node behind a load balancer: it cannot serve the payment's block for a moment
    const flaky = createChainClient(
      base(),
      custom({
        async request({ method, params }) {
          // by number only: the re-check also asks for the `finalized` tag
          const block = (params as [string])[0];
          if (method === "eth_getBlockByNumber" && block.startsWith("0x") && BigInt(block) === receipt.blockNumber) throw new Error("upstream timeout");
          return real.request({ method, params } as never);
        },
      }),
    );
    await expect(watchChainTick(testDb.db, base(), flaky, { checkInternalDeposits: false })).rejects.toThrow();
    expect(await fetchTransaction(merchant, hash)).toMatchObject({ status: "pending", counted: true });
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    await net.testClient().mine({ blocks: 2 });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", amount_received: "1" });
  });
});

describe("transfers that do not count", () => {
  async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
    const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { transaction_hash: string };
  }

  test("a wrong asset reaches confirmed as a transaction, stays out of the order's transaction field, and the order stays pending", async () => {
    const { merchant, order } = await setup({ amount: "10", currency: "USDC" }, 2);
    const { transaction_hash } = await pay(merchant, order.order_id, { currency: "USDT", amount: "10" });
    await tick();
    await net.testClient().mine({ blocks: 2 });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "pending", amount_received: "0", transaction: null });
    expect(await fetchTransaction(merchant, transaction_hash)).toMatchObject({
      status: "confirmed",
      counted: false,
      not_counted_reason: "wrong_asset",
      confirmations: 3,
    });
    const pendingOnes = await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access, query: { status: "pending" } });
    expect(pendingOnes.body.count).toBe(0);
  });
});
