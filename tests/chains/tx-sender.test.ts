/**
 * Issue 26 item 4, on the real hardhat devnet with its mining held (automine off, blocks mined by
 * the test): the gateway's own transactions pay EIP-1559 fees within the chain's ceiling, a stuck
 * one is replaced (same nonce, higher fee) and lands exactly once, a restart with a transaction in
 * flight neither reuses its nonce nor sends it twice (even when the node forgot it), and a fee above
 * the ceiling waits, saying so, instead of overpaying. Then the sweeper, the caller, the same way.
 */
import { afterEach, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { formatGwei, parseEther, parseGwei, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { findSentFor } from "@/lib/chains/sent-transaction-queries";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { FeeAboveCeilingError, sendManaged, TransactionStillPendingError, type TxRequest } from "@/lib/chains/tx-sender";
import { sweeps } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { metrics } from "@/lib/metrics/registry";
import { captureOutput } from "../helpers/capture-output";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

/** Base on the devnet, sent to the way of a live network, with a ceiling of `ceilingGwei`. */
const liveLike = (ceilingGwei = "50"): Blockchain => ({ ...net.chain("base"), maxFeePerGas: parseGwei(ceilingGwei) });
const client = () => chainClient(net.chain("base"));

afterEach(async () => {
  await net.testClient().setAutomine(true);
});

/** A fresh funded key, so each test starts at nonce 0. */
async function fundedKey(): Promise<{ key: Hex; address: Address }> {
  const key = generatePrivateKey();
  const address = privateKeyToAddress(key);
  await net.testClient().setBalance({ address, value: parseEther("10") });
  return { key, address };
}

/** A 1-wei transfer to `to`: how many landed is the recipient's balance. */
const oneWei = (to: Address) => async (): Promise<TxRequest> => ({ to, data: "0x", gas: 21_000n, value: 1n });

/**
 * Mines a block every 100 ms until `work` settles, at most 20 s. With `baseFee`, each block gets the
 * base fee it answers, and none is mined while it answers null (nothing sent yet to hold back).
 */
async function mineUntil<T>(work: Promise<T>, baseFee?: () => Promise<bigint | null>): Promise<T> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  for (let i = 0; i < 200 && !settled; i++) {
    const fee = baseFee ? await baseFee() : undefined;
    if (fee) await net.testClient().setNextBlockBaseFeePerGas({ baseFeePerGas: fee });
    if (fee !== null) await net.testClient().mine({ blocks: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done;
}

const sentCount = (event: string) =>
  metrics()
    .sentTransactions.get()
    .then((m) => m.values.filter((v) => v.labels.event === event).reduce((sum, v) => sum + v.value, 0));

describe("sending the gateway's own transactions", () => {
  test("a transaction stuck under a rising base fee is replaced with the same nonce and a higher fee within the ceiling, and lands exactly once", async () => {
    const { key, address } = await fundedKey();
    const recipient = randomAddress() as Address;
    const chain = liveLike("50");
    await net.testClient().setAutomine(false);
    const replacedBefore = await sentCount("replaced");

    const sending = sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 1 }, oneWei(recipient), {
      replaceAfterMs: 300,
      waitMs: 20_000,
      pollMs: 100,
    });
    // Every block's base fee sits just above the first transaction's max fee: it cannot be included, a 12.5% bump can.
    const result = await mineUntil(sending, async () => {
      const [first] = await findSentFor(testDb.db, "test", 1);
      return first ? (BigInt(first.maxFeePerGas) * 105n) / 100n : null;
    });

    const rows = await findSentFor(testDb.db, "test", 1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(new Set(rows.map((r) => r.nonce))).toEqual(new Set([0n]));
    expect(rows.filter((r) => r.status === "mined").map((r) => r.hash)).toEqual([result.hash]);
    expect(rows.filter((r) => r.status !== "mined").every((r) => r.status === "replaced")).toBe(true);
    expect(result.hash).not.toBe(rows[0]!.hash);
    for (let i = 1; i < rows.length; i++) expect(BigInt(rows[i]!.maxFeePerGas)).toBeGreaterThan((BigInt(rows[i - 1]!.maxFeePerGas) * 110n) / 100n);
    expect(rows.every((r) => BigInt(r.maxFeePerGas) <= chain.maxFeePerGas)).toBe(true);
    expect(await client().getTransactionCount({ address })).toBe(1);
    expect(await client().getBalance({ address: recipient })).toBe(1n);
    expect(await sentCount("replaced")).toBeGreaterThan(replacedBefore);
    console.log(
      `[measure] stuck transfer: ${rows.length} sends at max fees ${rows.map((r) => formatGwei(BigInt(r.maxFeePerGas))).join(" → ")} gwei (ceiling ${formatGwei(chain.maxFeePerGas)})`,
    );
  });

  test("a restart with a transaction in flight: the next send takes the next nonce (the node forgot the in-flight one: broadcast again), the in-flight one is resumed, never sent twice", async () => {
    const { key, address } = await fundedKey();
    const recipient = randomAddress() as Address;
    const chain = liveLike("50");
    await net.testClient().setAutomine(false);
    const options = { replaceAfterMs: 60_000, waitMs: 300, pollMs: 100 };

    await expect(sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 11 }, oneWei(recipient), options)).rejects.toBeInstanceOf(
      TransactionStillPendingError,
    );
    const [inFlight] = await findSentFor(testDb.db, "test", 11);
    expect(inFlight).toMatchObject({ nonce: 0n, status: "in_flight" });
    // The node loses it (a restart of the node, an evicted mempool entry): its pending count goes back to 0.
    await net.testClient().dropTransaction({ hash: inFlight!.hash as Hex });
    expect(await client().getTransactionCount({ address, blockTag: "pending" })).toBe(0);

    // GET /api/metrics shows it in flight, and for how long.
    const scraped = await (await metricsRoute(new Request("http://localhost/api/metrics"), { params: Promise.resolve({}) })).text();
    const gauge = (name: string) => Number(scraped.match(new RegExp(`^${name}\\{chain_id="31337"\\} (\\S+)$`, "m"))?.[1]);
    expect(gauge("gateway_sent_transactions_in_flight")).toBeGreaterThanOrEqual(1);
    expect(gauge("gateway_sent_transactions_oldest_in_flight_age_seconds")).toBeGreaterThanOrEqual(0);

    // A new process: nothing but the database remembers nonce 0.
    await expect(sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 12 }, oneWei(recipient), options)).rejects.toBeInstanceOf(
      TransactionStillPendingError,
    );
    const [second] = await findSentFor(testDb.db, "test", 12);
    expect(second!.nonce).toBe(1n);
    // Before sending nonce 1 it broadcast the forgotten nonce 0 again: nothing waits behind a gap.
    expect(await client().getTransactionCount({ address, blockTag: "pending" })).toBe(2);

    // Both are mined while no call watches; the first call after settles both nonces, and each
    // purpose's own call is answered with its transaction, never a new one.
    await net.testClient().mine({ blocks: 1 });
    let rebuilt = 0;
    const resumed = await sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 11 }, async () => (rebuilt++, oneWei(recipient)()), {
      ...options,
      waitMs: 20_000,
    });
    expect(rebuilt).toBe(0);
    expect(resumed.hash).toBe(inFlight!.hash);
    const other = await sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 12 }, async () => (rebuilt++, oneWei(recipient)()), {
      ...options,
      waitMs: 20_000,
    });
    expect(rebuilt).toBe(0);
    expect(other.hash).toBe(second!.hash);

    expect((await findSentFor(testDb.db, "test", 11)).map((r) => r.status)).toEqual(["mined"]);
    expect((await findSentFor(testDb.db, "test", 12)).map((r) => r.status)).toEqual(["mined"]);
    expect(await client().getTransactionCount({ address })).toBe(2);
    expect(await client().getBalance({ address: recipient })).toBe(2n);
  });

  test("a stuck transaction whose replacement would pass the ceiling waits as it is (logged, counted), and lands once the base fee falls back", async () => {
    const { key, address } = await fundedKey();
    const recipient = randomAddress() as Address;
    // A quiet market: base fee 0.01 gwei (+ hardhat's 1 gwei tip) fits under a ceiling of 1.05 gwei.
    await net.testClient().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("0.01") });
    await net.testClient().mine({ blocks: 1 });
    await net.testClient().setAutomine(false);
    const waitingBefore = await sentCount("fee_waiting");
    const chain = liveLike("1.05");
    const options = { replaceAfterMs: 200, waitMs: 1_500, pollMs: 100 };
    const { result, lines } = await captureOutput(() =>
      mineUntil(
        sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 31 }, oneWei(recipient), options).then(
          () => null,
          (error: unknown) => error,
        ),
        // Once it is sent: above its max fee, under the ceiling; a 12.5% bump is not.
        async () => ((await findSentFor(testDb.db, "test", 31)).length > 0 ? parseGwei("1.04") : null),
      ),
    );
    expect(result).toBeInstanceOf(TransactionStillPendingError);
    expect(lines.some((l) => l.msg === "stuck transaction waits: a replacement would exceed the fee ceiling")).toBe(true);
    expect(await sentCount("fee_waiting")).toBe(waitingBefore + 1);
    const rows = await findSentFor(testDb.db, "test", 31);
    expect(rows.map((r) => r.status)).toEqual(["in_flight"]);
    expect(BigInt(rows[0]!.maxFeePerGas)).toBeLessThanOrEqual(chain.maxFeePerGas);

    const landed = await mineUntil(
      sendManaged(testDb.db, chain, client(), key, { purpose: "test", purposeId: 31 }, oneWei(recipient), { ...options, waitMs: 20_000 }),
      async () => parseGwei("0.5"),
    );
    expect(landed.hash).toBe(rows[0]!.hash);
    expect(await client().getTransactionCount({ address })).toBe(1);
    expect(await client().getBalance({ address: recipient })).toBe(1n);
  });

  test("a fee above the chain's ceiling: nothing is sent, the wait is logged and counted", async () => {
    const { key, address } = await fundedKey();
    const recipient = randomAddress() as Address;
    const waitingBefore = await sentCount("fee_waiting");
    await net.testClient().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("80") });
    await net.testClient().mine({ blocks: 1 });

    const { result, lines } = await captureOutput(() =>
      sendManaged(testDb.db, liveLike("50"), client(), key, { purpose: "test", purposeId: 21 }, oneWei(recipient), { replaceAfterMs: 300, waitMs: 5_000 }).then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(result).toBeInstanceOf(FeeAboveCeilingError);
    expect((result as Error).message).toMatch(/above the ceiling of 50 gwei/);
    expect(lines.some((l) => l.msg === "transaction waits: fee above ceiling")).toBe(true);
    expect(await sentCount("fee_waiting")).toBe(waitingBefore + 1);
    expect(await findSentFor(testDb.db, "test", 21)).toEqual([]);
    expect(await client().getTransactionCount({ address, blockTag: "pending" })).toBe(0);
    // Let the base fee fall back for the tests after.
    await net.testClient().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("1") });
    await net.testClient().mine({ blocks: 1 });
  });
});

describe("the sweeper, sending the live way", () => {
  async function confirmedNativeOrder() {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { amount: "0.5", currency: "ETH", blockchain: "base" });
    const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await watchChainTick(testDb.db, net.chain("base"), client());
    const seen = await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } });
    expect(seen.body.data.status).toBe("confirmed");
    return order;
  }

  const sweepRow = async (orderId: number) => (await testDb.db.select().from(sweeps).where(eq(sweeps.paymentOrderId, orderId)))[0]!;

  test("above the ceiling a sweep waits without spending an attempt; under it, it is sent once, recorded, and succeeds", async () => {
    const order = await confirmedNativeOrder();
    await net.testClient().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("80") });
    await net.testClient().mine({ blocks: 1 });

    const held = await sweepConfirmedDeposits(testDb.db, liveLike("50"), client(), new Date(), { sending: "managed" });
    expect(held.waiting).toContain(order.order_id);
    const waiting = await sweepRow(order.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 0, txHash: null });
    expect(waiting.lastError).toMatch(/^Waiting: base fee .* above the ceiling of 50 gwei/);
    expect(await findSentFor(testDb.db, "sweep", waiting.id)).toEqual([]);

    await net.testClient().setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("1") });
    await net.testClient().mine({ blocks: 1 });
    const swept = await sweepConfirmedDeposits(testDb.db, liveLike("50"), client(), new Date(Date.now() + 5_000), { sending: "managed" });
    expect(swept.swept).toContain(order.order_id);
    const done = await sweepRow(order.id);
    expect(done).toMatchObject({ status: "succeeded", attempts: 1 });
    const sent = await findSentFor(testDb.db, "sweep", done.id);
    expect(sent.map((r) => ({ hash: r.hash, status: r.status }))).toEqual([{ hash: done.txHash, status: "mined" }]);
    expect(await client().getBalance({ address: order.receiving_address as Address })).toBe(0n);
  });

  test("a sweep whose transaction is still in flight gives its attempt back; the next run (a restart) watches that transaction instead of sending another", async () => {
    const order = await confirmedNativeOrder();
    const sweeperNonce = () => client().getTransactionCount({ address: devnetSweeper.address as Address });
    const nonceBefore = await sweeperNonce();
    await net.testClient().setAutomine(false);

    const first = await sweepConfirmedDeposits(testDb.db, liveLike("50"), client(), new Date(), { sending: "managed", waitMs: 300 });
    expect(first.waiting).toContain(order.order_id);
    const pending = await sweepRow(order.id);
    expect(pending).toMatchObject({ status: "pending", attempts: 0, txHash: null });
    expect(pending.lastError).toMatch(/not mined yet; it stays in flight/);
    const [inFlight] = await findSentFor(testDb.db, "sweep", pending.id);
    expect(inFlight).toMatchObject({ status: "in_flight", nonce: BigInt(nonceBefore) });

    const second = await mineUntil(
      sweepConfirmedDeposits(testDb.db, liveLike("50"), client(), new Date(Date.now() + 5_000), { sending: "managed", waitMs: 20_000 }),
    );
    expect(second.swept).toContain(order.order_id);
    expect(await sweepRow(order.id)).toMatchObject({ status: "succeeded", txHash: inFlight!.hash });
    expect((await findSentFor(testDb.db, "sweep", pending.id)).map((r) => r.status)).toEqual(["mined"]);
    expect(await sweeperNonce()).toBe(nonceBefore + 1);
    expect(await client().getBalance({ address: order.receiving_address as Address })).toBe(0n);
  });
});
