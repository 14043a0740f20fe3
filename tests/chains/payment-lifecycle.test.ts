import { describe, expect, test } from "vitest";
import { createPublicClient, http, parseAbi, type Address } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { GET as listEvents } from "@/app/api/events/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { devnetChain } from "@/lib/chains/devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { chainClient } from "@/lib/chains/clients";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);

async function tick(now?: Date) {
  return watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")), now ? { now: () => now } : {});
}

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { transaction_hash: string };
}

async function mine(merchant: TestMerchant, blocks: number) {
  const res = await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks } });
  expect(res.status).toBe(200);
}

async function merchantWithWallet(threshold = 3) {
  const merchant = await createMerchant();
  const wallet = await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  return { merchant, wallet: wallet.wallet_address as Address };
}

describe("ERC-20 payment: detection, confirmations, sweep", () => {
  test("pending → processing → confirmed exactly at the threshold, funds swept to the merchant", async () => {
    const { merchant, wallet } = await merchantWithWallet(3);
    const order = await createOrder(merchant, { amount: "25", currency: "USDC", blockchain: "base" });
    expect(order.transaction).toBeNull();

    const { transaction_hash } = await pay(merchant, order.order_id);
    await tick();
    let seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("processing");
    expect(seen.amount_received).toBe("25");
    expect(seen.transaction).toEqual({ transaction_hash, block_number: expect.any(Number), confirmations: 1, status: "pending" });

    await mine(merchant, 1); // 2 confirmations: one short
    await tick();
    seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("processing");
    expect(seen.transaction.confirmations).toBe(2);

    await mine(merchant, 1); // exactly 3
    await tick();
    seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("confirmed");
    expect(seen.confirmed_at).toEqual(expect.any(String));
    expect(seen.transaction).toMatchObject({ transaction_hash, confirmations: 3, status: "confirmed" });

    const client = createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl) });
    expect(await client.readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [wallet] })).toBe(0n);
    const sweep = await sweepConfirmedDeposits(testDb.db, net.chain("base"), chainClient(net.chain("base")));
    expect(sweep.swept).toEqual([order.order_id]);
    expect(await client.readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [wallet] })).toBe(25_000_000n);
    expect(await client.readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [order.receiving_address] })).toBe(0n);

    const events = await call(listEvents, "GET", "/api/events/", { token: merchant.access });
    expect(events.body.results.map((e: any) => e.event ?? e.type).sort()).toEqual(["payment.confirmed", "payment.pending"]);
  });

  test("running the tick twice, or two at once, changes nothing more", async () => {
    const { merchant } = await merchantWithWallet(1);
    const order = await createOrder(merchant, { amount: "5", currency: "USDC" });
    await pay(merchant, order.order_id);
    await Promise.all([tick(), tick()]);
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("confirmed");
    const txs = await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access });
    expect(txs.body.count).toBe(1);
    const events = await call(listEvents, "GET", "/api/events/", { token: merchant.access });
    expect(events.body.count).toBe(2);
  });
});

describe("native coin and multiple transfers", () => {
  test("native ETH payment in two transfers confirms once both are deep enough; overpayment shows in amount_received", async () => {
    const { merchant } = await merchantWithWallet(2);
    const order = await createOrder(merchant, { amount: "0.5", currency: "ETH" });
    await pay(merchant, order.order_id, { amount: "0.2" });
    await tick();
    let seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("pending");
    expect(seen.amount_received).toBe("0.2");
    await pay(merchant, order.order_id, { amount: "0.4" });
    await tick();
    seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("processing");
    expect(seen.amount_received).toBe("0.6");
    await mine(merchant, 1);
    await tick();
    seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("confirmed");
    expect(seen.amount_received).toBe("0.6");
  });

  test("a transfer of another token is recorded and does not count", async () => {
    const { merchant } = await merchantWithWallet(1);
    const order = await createOrder(merchant, { amount: "10", currency: "USDC" });
    const { transaction_hash } = await pay(merchant, order.order_id, { currency: "USDT", amount: "10" });
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("pending");
    expect(seen.amount_received).toBe("0");
    const tx = await call(getTransaction, "GET", `/api/transactions/${transaction_hash}/`, {
      token: merchant.access,
      params: { transactionHash: transaction_hash },
    });
    expect(tx.status).toBe(200);
    expect(tx.body.data).toMatchObject({ currency: "USDT", amount: "10", counted: false, payment_order: { order_id: order.order_id } });
  });
});

describe("expiry", () => {
  test("nothing received by expires_at → expired", async () => {
    const { merchant } = await merchantWithWallet(1);
    const order = await createOrder(merchant, { amount: "3", currency: "USDC", expires_at: new Date(Date.now() + 60_000).toISOString() });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("pending");
    await tick(new Date(Date.now() + 61_000));
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.status).toBe("expired");
    expect(seen.failure_reason).toBeNull();
  });

  test("part of the amount by expires_at → failed, underpaid", async () => {
    const { merchant } = await merchantWithWallet(1);
    const order = await createOrder(merchant, { amount: "3", currency: "USDC", expires_at: new Date(Date.now() + 60_000).toISOString() });
    await pay(merchant, order.order_id, { amount: "1.25" });
    await tick();
    await tick(new Date(Date.now() + 61_000));
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "failed", failure_reason: "underpaid", amount_received: "1.25" });
  });
});

describe("transactions API", () => {
  test("lists and shows the merchant's transfers only, with fees and confirmations", async () => {
    const { merchant } = await merchantWithWallet(1);
    const other = await createMerchant();
    const order = await createOrder(merchant, { amount: "2", currency: "USDC" });
    const { transaction_hash } = await pay(merchant, order.order_id);
    await tick();
    const list = await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access, query: { blockchain: "base", status: "confirmed" } });
    expect(list.body.count).toBe(1);
    expect(list.body.results[0]).toEqual({
      transaction_hash,
      blockchain: "base",
      status: "confirmed",
      amount: "2",
      currency: "USDC",
      created_at: expect.any(String),
    });
    const one = await call(getTransaction, "GET", `/api/transactions/${transaction_hash}/`, {
      token: merchant.access,
      params: { transactionHash: transaction_hash },
    });
    expect(one.body.data).toMatchObject({
      transaction_hash,
      blockchain: "base",
      status: "confirmed",
      confirmations: 1,
      to_address: order.receiving_address,
      gas_used: expect.any(Number),
      gas_price: expect.stringMatching(/^\d+$/),
      transaction_fee: expect.stringMatching(/^\d+(\.\d+)?$/),
      payment_order: { id: order.id, order_id: order.order_id, amount: "2", currency: "USDC" },
    });
    const hidden = await call(getTransaction, "GET", `/api/transactions/${transaction_hash}/`, {
      token: other.access,
      params: { transactionHash: transaction_hash },
    });
    expect(hidden.status).toBe(404);
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: other.access })).body.count).toBe(0);
    const bad = await call(listTransactions, "GET", "/api/transactions/", { token: merchant.access, query: { status: "weird" } });
    expect(bad.status).toBe(400);
  });
});
