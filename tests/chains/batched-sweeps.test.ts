/** Issue 30 item 2: DepositFactoryV2 orders are swept in batches; first-factory orders still one by one. */
import { describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { custom, decodeFunctionData, erc20Abi, getAddress, http, type Address, type Hex, type PublicClient } from "viem";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient, createChainClient } from "@/lib/chains/clients";
import { depositFactoryArtifact, depositFactoryV2Artifact } from "@/lib/chains/contract-artifacts";
import { computeDepositAddress } from "@/lib/chains/deposit-address";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { monthOf, sweepGasByOrder, sweepGasTotals } from "@/lib/chains/sweep-cost-queries";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { paymentOrders, sweeps } from "@/lib/db/schema";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const chain = () => net.chain("base");
const client = (): PublicClient => createChainClient(chain());
const tick = () => watchChainTick(testDb.db, chain(), client(), { checkInternalDeposits: false });

async function merchantWithWallet(): Promise<{ merchant: TestMerchant; wallet: Address }> {
  const merchant = await createMerchant();
  const wallet = getAddress(randomAddress());
  await createWallet(merchant, { blockchain: 2, wallet_address: wallet, confirmation_threshold: 1 });
  return { merchant, wallet };
}

async function pay(merchant: TestMerchant, orderId: string) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function paidOrder(merchant: TestMerchant, currency: "USDC" | "ETH", amount: string) {
  const order = await createOrder(merchant, { amount, currency, blockchain: "base" });
  await pay(merchant, order.order_id);
  return order as { id: number; order_id: string };
}

/** Ticks until every listed order is confirmed (each tick mines nothing: the devnet automines). */
async function confirmAll(ids: number[]) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await net.testClient().mine({ blocks: 1 });
    await tick();
    const rows = await testDb.db.select({ id: paymentOrders.id, status: paymentOrders.status }).from(paymentOrders);
    if (ids.every((id) => rows.find((r) => r.id === id)?.status === "confirmed")) return;
    if (Date.now() > deadline) throw new Error("orders not confirmed in time");
  }
}

const sweepOf = async (orderId: number) => (await testDb.db.select().from(sweeps).where(eq(sweeps.paymentOrderId, orderId)))[0]!;
const usdcBalance = (owner: Address) =>
  chainClient(chain()).readContract({ address: devnetContracts.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
const ethBalance = (owner: Address) => chainClient(chain()).getBalance({ address: owner });

/** The deposits a flushBatch transaction held, as receiving addresses. */
async function batchDeposits(hash: Hex): Promise<Address[]> {
  const tx = await chainClient(chain()).getTransaction({ hash });
  const { functionName, args } = decodeFunctionData({ abi: depositFactoryV2Artifact.abi, data: tx.input });
  expect(functionName).toBe("flushBatch");
  return (args![0] as ReadonlyArray<{ destination: Address; salt: Hex }>).map((d) =>
    computeDepositAddress({ factory: devnetContracts.factoryV2, implementation: devnetContracts.implementationV2, destination: d.destination, salt: d.salt }),
  );
}

describe("batched sweeps", () => {
  test("one transaction per asset sweeps several merchants' orders, each to its own wallet; a first-factory order is swept alone; nothing is swept twice", async () => {
    const a = await merchantWithWallet();
    const b = await merchantWithWallet();
    const usdcA = await paidOrder(a.merchant, "USDC", "3");
    const usdcB = await paidOrder(b.merchant, "USDC", "4");
    const usdcA2 = await paidOrder(a.merchant, "USDC", "5");
    const ethA = await paidOrder(a.merchant, "ETH", "0.2");
    const ethB = await paidOrder(b.merchant, "ETH", "0.3");

    // An order made with the first factory (as before this change): its deposit address is that factory's.
    const old = await createOrder(b.merchant, { amount: "6", currency: "USDC", blockchain: "base" });
    const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, old.order_id));
    const oldAddress = computeDepositAddress({
      factory: devnetContracts.factory,
      implementation: devnetContracts.implementation,
      destination: row!.depositDestination as Address,
      salt: row!.depositSalt as Hex,
    });
    await testDb.db
      .update(paymentOrders)
      .set({ depositFactory: devnetContracts.factory, depositFactoryVersion: 1, receivingAddress: oldAddress })
      .where(eq(paymentOrders.id, row!.id));
    await pay(b.merchant, old.order_id);
    expect(row!.depositFactoryVersion).toBe(2);

    await confirmAll([usdcA.id, usdcB.id, usdcA2.id, ethA.id, ethB.id, row!.id]);
    const result = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(result.failed).toEqual([]);
    expect(result.swept.sort()).toEqual([usdcA, usdcB, usdcA2, ethA, ethB, old].map((o) => o.order_id).sort());

    expect(await usdcBalance(a.wallet)).toBe(8_000_000n);
    expect(await usdcBalance(b.wallet)).toBe(10_000_000n);
    expect(await ethBalance(a.wallet)).toBe(200_000_000_000_000_000n);
    expect(await ethBalance(b.wallet)).toBe(300_000_000_000_000_000n);

    const usdcSweeps = await Promise.all([usdcA, usdcB, usdcA2].map((o) => sweepOf(o.id)));
    const ethSweeps = await Promise.all([ethA, ethB].map((o) => sweepOf(o.id)));
    // One transaction per asset, holding exactly that asset's orders.
    expect(new Set(usdcSweeps.map((s) => s.txHash)).size).toBe(1);
    expect(new Set(ethSweeps.map((s) => s.txHash)).size).toBe(1);
    expect(usdcSweeps[0]!.txHash).not.toBe(ethSweeps[0]!.txHash);
    const usdcOrderRows = await testDb.db.select().from(paymentOrders);
    const addressOf = (id: number) => getAddress(usdcOrderRows.find((o) => o.id === id)!.receivingAddress);
    expect((await batchDeposits(usdcSweeps[0]!.txHash as Hex)).sort()).toEqual([usdcA, usdcB, usdcA2].map((o) => addressOf(o.id)).sort());

    // The gas share of a batch is the transaction's gas over its deposits, recorded per order.
    const receipt = await chainClient(chain()).getTransactionReceipt({ hash: usdcSweeps[0]!.txHash as Hex });
    for (const sweep of usdcSweeps) {
      expect(sweep.gasUsed).toBe(receipt.gasUsed / 3n);
      expect(BigInt(sweep.gasCostWei)).toBe((receipt.gasUsed * receipt.effectiveGasPrice) / 3n);
    }
    // The first-factory order went alone through deployAndFlush, and paid the whole of its gas.
    const oldSweep = await sweepOf(row!.id);
    const oldTx = await chainClient(chain()).getTransaction({ hash: oldSweep.txHash as Hex });
    expect(getAddress(oldTx.to!)).toBe(devnetContracts.factory);
    expect(decodeFunctionData({ abi: depositFactoryArtifact.abi, data: oldTx.input }).functionName).toBe("deployAndFlush");
    expect(oldSweep.gasUsed).toBe((await chainClient(chain()).getTransactionReceipt({ hash: oldSweep.txHash as Hex })).gasUsed);

    const byOrder = await sweepGasByOrder(testDb.db, a.merchant.id);
    expect(byOrder.map((r) => r.orderId).sort()).toEqual([usdcA, usdcA2, ethA].map((o) => o.order_id).sort());
    const sharesOfA = await Promise.all([usdcA, usdcA2, ethA].map((o) => sweepOf(o.id)));
    const month = monthOf(new Date());
    expect(await sweepGasTotals(testDb.db, a.merchant.id, month.from, month.to)).toEqual([
      {
        blockchainId: 2,
        orders: 3,
        gasUsed: sharesOfA.reduce((n, s) => n + s.gasUsed, 0n),
        gasCostWei: sharesOfA.reduce((n, s) => n + BigInt(s.gasCostWei), 0n),
      },
    ]);
    // Scoped to its merchant: b's figures are b's alone.
    expect((await sweepGasByOrder(testDb.db, b.merchant.id)).map((r) => r.orderId).sort()).toEqual([usdcB, ethB, old].map((o) => o.order_id).sort());

    // A second run finds nothing due and sends nothing.
    const nonce = await chainClient(chain()).getTransactionCount({
      address: (await chainClient(chain()).getTransaction({ hash: usdcSweeps[0]!.txHash as Hex })).from,
    });
    const again = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(again.swept).toEqual([]);
    expect(
      await chainClient(chain()).getTransactionCount({ address: (await chainClient(chain()).getTransaction({ hash: usdcSweeps[0]!.txHash as Hex })).from }),
    ).toBe(nonce);

    // A new payment goes in the next batch alone: what was swept is not flushed again.
    const usdcB2 = await paidOrder(b.merchant, "USDC", "2");
    await confirmAll([usdcB2.id]);
    const next = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(next.swept).toEqual([usdcB2.order_id]);
    const b2Row = (await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.id, usdcB2.id)))[0]!;
    expect(await batchDeposits((await sweepOf(usdcB2.id)).txHash as Hex)).toEqual([getAddress(b2Row.receivingAddress)]);
    expect(await usdcBalance(b.wallet)).toBe(12_000_000n);
  });

  test("a batch where one flush reverts sweeps the others; the failed one is retried and swept", async () => {
    const good = await merchantWithWallet();
    const bad = await merchantWithWallet();
    const first = await paidOrder(good.merchant, "ETH", "0.1");
    const refused = await paidOrder(bad.merchant, "ETH", "0.2");
    const second = await paidOrder(good.merchant, "ETH", "0.3");
    await confirmAll([first.id, refused.id, second.id]);

    // Every deposit is planned (estimated) alone first, so the refusing wallet is made to revert just
    // before the batch transaction is broadcast: its flush fails inside the batch.
    const inner = http(net.rpcUrl)({ chain: undefined, retryCount: 0 });
    let armed = true;
    const refusing = createChainClient(
      chain(),
      custom({
        async request(args: { method: string; params?: unknown }) {
          if (armed && args.method === "eth_sendRawTransaction") {
            armed = false;
            await net.testClient().setCode({ address: bad.wallet, bytecode: "0x5f5ffd" }); // PUSH0 PUSH0 REVERT
          }
          return inner.request(args);
        },
      }),
    );
    const result = await sweepConfirmedDeposits(testDb.db, chain(), refusing, new Date(), { sending: "managed" });
    expect(armed).toBe(false);
    expect(result.swept.sort()).toEqual([first.order_id, second.order_id].sort());
    expect(result.failed).toEqual([refused.order_id]);
    expect(await ethBalance(good.wallet)).toBe(400_000_000_000_000_000n);
    expect(await ethBalance(bad.wallet)).toBe(0n);
    const failed = await sweepOf(refused.id);
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed.lastError).toMatch(/inside batch transaction/);
    expect(failed.gasUsed).toBeGreaterThan(0n); // its share of the batch was spent on it

    // The wallet accepts coin again; the retry (due after its backoff) sweeps it alone.
    await net.testClient().setCode({ address: bad.wallet, bytecode: "0x" });
    const later = new Date(Date.now() + 60_000);
    await testDb.db.update(sweeps).set({ nextAttemptAt: new Date() }).where(eq(sweeps.id, failed.id));
    const retry = await sweepConfirmedDeposits(testDb.db, chain(), client(), later);
    expect(retry.swept).toEqual([refused.order_id]);
    expect(await ethBalance(bad.wallet)).toBe(200_000_000_000_000_000n);
    expect(await batchDeposits((await sweepOf(refused.id)).txHash as Hex)).toHaveLength(1);
  });

  test("a reorged batch is queued again, its gas share taken back, and swept again", async () => {
    const { merchant, wallet } = await merchantWithWallet();
    const one = await paidOrder(merchant, "USDC", "1");
    const two = await paidOrder(merchant, "USDC", "2");
    await confirmAll([one.id, two.id]);
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const swept = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(swept.swept.sort()).toEqual([one.order_id, two.order_id].sort());
    const firstBlock = (await sweepOf(one.id)).blockHash;
    expect(await usdcBalance(wallet)).toBe(3_000_000n);

    // The batch's block is taken away; the payments' blocks stay.
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 40 });
    await tick();
    await tick();
    for (const order of [one, two]) {
      const sweep = await sweepOf(order.id);
      expect(sweep).toMatchObject({ status: "pending", txHash: null, gasUsed: 0n, lastGasUsed: null });
      expect(BigInt(sweep.gasCostWei)).toBe(0n);
    }
    expect(await usdcBalance(wallet)).toBe(0n);

    const again = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(again.swept.sort()).toEqual([one.order_id, two.order_id].sort());
    expect(await usdcBalance(wallet)).toBe(3_000_000n);
    const resent = await sweepOf(one.id);
    expect(resent.txHash).not.toBeNull();
    // The same transaction may be sent again (same nonce, fees and input): what counts is that it is on the new chain.
    expect(resent.blockHash).not.toBe(firstBlock);
    expect(resent.gasUsed).toBe((await chainClient(chain()).getTransactionReceipt({ hash: resent.txHash as Hex })).gasUsed / 2n);
  });

  test("a batch below its size waits up to the max wait, then goes as it is; above the gas-price ceiling nothing is sent", async () => {
    const { merchant, wallet } = await merchantWithWallet();
    const one = await paidOrder(merchant, "USDC", "1");
    const two = await paidOrder(merchant, "USDC", "2");
    await confirmAll([one.id, two.id]);
    const sender = (await chainClient(chain()).getTransactionCount({ address: devnetSweeper.address as Address })) as number;
    const live = { maxGas: 400_000n, minValueGasMultiple: 0, minTokenUnits: 0, perMerchantPerHour: 0, batchSize: 5, batchMaxWaitMs: 60_000, maxGasPrice: null };

    const now = new Date();
    const waited = await sweepConfirmedDeposits(testDb.db, chain(), client(), now, { policy: live });
    expect(waited.waiting.sort()).toEqual([one.order_id, two.order_id].sort());
    const due = await sweepOf(one.id);
    expect(due).toMatchObject({ status: "pending", attempts: 0 });
    expect(due.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime());

    // Above the ceiling: waiting again, no attempt spent, no transaction.
    const later = new Date(due.nextAttemptAt.getTime() + 1_000);
    const expensive = await sweepConfirmedDeposits(testDb.db, chain(), client(), later, { policy: { ...live, maxGasPrice: 1n } });
    expect(expensive.waiting.sort()).toEqual([one.order_id, two.order_id].sort());
    expect(await chainClient(chain()).getTransactionCount({ address: devnetSweeper.address as Address })).toBe(sender);
    expect((await sweepOf(one.id)).attempts).toBe(0);

    // Past the max wait (and the ceiling's short wait) the two go together, though the batch holds five.
    const sent = await sweepConfirmedDeposits(testDb.db, chain(), client(), new Date(later.getTime() + 5_000), { policy: live });
    expect(sent.swept.sort()).toEqual([one.order_id, two.order_id].sort());
    expect((await sweepOf(one.id)).txHash).toBe((await sweepOf(two.id)).txHash);
    expect(await usdcBalance(wallet)).toBe(3_000_000n);
  });
});
