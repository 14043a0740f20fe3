/**
 * The sandbox reorg tool (POST /api/sandbox/reorg/ and the sandbox page's button) on the real
 * devnet: a paid, confirmed order's payment vanishes, the order reads at risk and payment.reorged
 * is recorded; another merchant's payments in the same blocks survive (issue 49 item 7); it is
 * charged to the mined-block budget, refused past what the devnet can go back to, and 404 in live mode.
 */
import { afterEach, describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxReorg } from "@/app/api/sandbox/reorg/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { createChainClient } from "@/lib/chains/clients";
import { loadOrderDetail } from "@/lib/dashboard/order-detail";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "../dashboard/session";
import { inMode } from "../webhooks/support";

const { reorgAction } = await import("@/app/(dashboard)/dashboard/sandbox/actions");

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const tick = () => watchChainTick(testDb.db, base(), createChainClient(base()), { checkInternalDeposits: false });
const head = () => createChainClient(base()).getBlockNumber({ cacheTime: 0 });

const mineBudget = env.SANDBOX_MINE_BLOCKS_PER_HOUR;
afterEach(() => {
  env.SANDBOX_MINE_BLOCKS_PER_HOUR = mineBudget;
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const reorg = (merchant: TestMerchant, body: Record<string, unknown>) => call(sandboxReorg, "POST", "/api/sandbox/reorg/", { token: merchant.access, body });
const mineBlocks = (merchant: TestMerchant, blocks: number) =>
  call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks, blockchain: "base" } });

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  return (await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } })).body.data;
}

/** A USDC order paid and confirmed through the sandbox tools (threshold 2). */
async function confirmedOrder(merchant: TestMerchant) {
  const order = await createOrder(merchant, { amount: "3", currency: "USDC", blockchain: "base" });
  const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
    token: merchant.access,
    params: { orderId: order.order_id },
    body: {},
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  expect((await mineBlocks(merchant, 2)).status).toBe(200);
  await tick();
  expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
  return { order, hash: paid.body.data.transaction_hash as string };
}

describe("POST /api/sandbox/reorg/", () => {
  test("bad input is 400 on its field; deeper than the devnet can go back is 409 CONFLICT", async () => {
    const merchant = await createMerchant();
    for (const [body, field] of [
      [{ depth: 0 }, "depth"],
      [{ depth: 65 }, "depth"],
      [{ depth: "3" }, "depth"],
      [{}, "depth"],
    ] as const) {
      const res = await reorg(merchant, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details).toHaveProperty(field);
    }
    expect((await reorg(merchant, { depth: 1, blockchain: "nope" })).body.error.code).toBe("INVALID_BLOCKCHAIN");
    // Fewer blocks than that exist since the devnet began.
    const deep = await reorg(merchant, { depth: 64, blockchain: "base" });
    expect(deep.status, JSON.stringify(deep.body)).toBe(409);
    expect(deep.body.error.code).toBe("CONFLICT");
  });

  test("takes a confirmed payment away: transfer reorged, order at risk, payment.reorged; the longer branch is mined", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 2 });
    const { order, hash } = await confirmedOrder(merchant);
    const before = await head();

    const res = await reorg(merchant, { depth: 3, blockchain: "base" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Back to the newest state the devnet holds at least 3 blocks down (the one before the payment's mint and transfer).
    const { depth } = res.body.data;
    expect(depth).toBeGreaterThanOrEqual(3);
    expect(res.body.data).toMatchObject({ from_block: Number(before) - depth + 1, block_number: Number(before) + 1, blockchain: "base" });
    expect(await head()).toBe(before + 1n);

    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      status: "confirmed",
      at_risk: true,
      at_risk_reason: "payment_reorged",
      amount_received: "0",
      transaction: null,
    });
    const transfer = await call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: merchant.access, params: { transactionHash: hash } });
    expect(transfer.body.data).toMatchObject({ status: "failed", not_counted_reason: "reorged" });
    const events = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: order.order_id, event: "payment.reorged" } });
    expect(events.body.count).toBe(1);
  });

  test("the devnet is shared: one merchant's reorg takes only its own payment away; the other merchant's confirmed payments, before and after it in the replaced blocks, are mined again and stay confirmed", async () => {
    const asking = await createMerchant();
    const other = await createMerchant();
    await createWallet(asking, { blockchain: 2, confirmation_threshold: 2 });
    await createWallet(other, { blockchain: 2, confirmation_threshold: 2 });
    const before = await head();
    // The other merchant's payment, the asking one's, the other's again: all in the blocks the reorg replaces.
    const payOf = async (merchant: TestMerchant) => {
      const order = await createOrder(merchant, { amount: "3", currency: "USDC", blockchain: "base" });
      const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
        token: merchant.access,
        params: { orderId: order.order_id },
        body: {},
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      return { order, hash: paid.body.data.transaction_hash as string };
    };
    const first = await payOf(other);
    const mine = await payOf(asking);
    const second = await payOf(other);
    expect((await mineBlocks(asking, 2)).status).toBe(200);
    await tick();
    for (const [merchant, { order }] of [
      [other, first],
      [asking, mine],
      [other, second],
    ] as const)
      expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");

    const client = createChainClient(base());
    const paidAt = async (hash: string) =>
      (await client.getBlock({ blockNumber: (await client.getTransactionReceipt({ hash: hash as `0x${string}` })).blockNumber })).timestamp;
    const times = { first: await paidAt(first.hash), second: await paidAt(second.hash) };

    // Back to before the other merchant's first payment.
    const res = await reorg(asking, { depth: Number((await head()) - before), blockchain: "base" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.from_block).toBe(Number(before) + 1);
    expect(res.body.data.removed_transactions).toEqual([mine.hash]);
    // Three faucet mints and the other merchant's two transfers.
    expect(res.body.data.kept_transactions).toBe(5);
    await tick();
    await tick();

    // Included again at new blocks, with the time they were paid at.
    expect({ first: await paidAt(first.hash), second: await paidAt(second.hash) }).toEqual(times);
    for (const { order, hash } of [first, second]) {
      expect(await fetchOrder(other, order.order_id)).toMatchObject({ status: "confirmed", at_risk: false, amount_received: "3" });
      const receipt = await client.getTransactionReceipt({ hash: hash as `0x${string}` });
      expect(receipt.blockNumber).toBeGreaterThan(before);
      const transfer = await call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: other.access, params: { transactionHash: hash } });
      expect(transfer.body.data, JSON.stringify(transfer.body)).toMatchObject({ status: "confirmed", block_number: Number(receipt.blockNumber) });
    }
    const otherEvents = await call(listEvents, "GET", "/api/events/", { token: other.access, query: { event: "payment.reorged" } });
    expect(otherEvents.body.count).toBe(0);

    // The asking merchant's payment is handled as before.
    expect(await fetchOrder(asking, mine.order.order_id)).toMatchObject({ status: "confirmed", at_risk: true, at_risk_reason: "payment_reorged" });
    await expect(client.getTransactionReceipt({ hash: mine.hash as `0x${string}` })).rejects.toThrow();
    const transfer = await call(getTransaction, "GET", `/api/transactions/${mine.hash}/`, { token: asking.access, params: { transactionHash: mine.hash } });
    expect(transfer.body.data).toMatchObject({ status: "failed", not_counted_reason: "reorged" });
    const events = await call(listEvents, "GET", "/api/events/", { token: asking.access, query: { order_id: mine.order.order_id, event: "payment.reorged" } });
    expect(events.body.count).toBe(1);
  });

  test("charged to the mined-block budget (depth + 1): over it is 429, and nothing is reorganised", async () => {
    const merchant = await createMerchant();
    env.SANDBOX_MINE_BLOCKS_PER_HOUR = 6;
    expect((await mineBlocks(merchant, 2)).status).toBe(200); // 2 of 6
    expect((await reorg(merchant, { depth: 1, blockchain: "base" })).status).toBe(200); // + 2 = 4
    const before = await head();
    const over = await reorg(merchant, { depth: 2, blockchain: "base" }); // + 3 = 7 > 6
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: { code: "RATE_LIMITED" }, retry_after: expect.any(Number) });
    expect(await head()).toBe(before);
  });

  test("404 in live mode, like the other sandbox tools", async () => {
    const merchant = await createMerchant();
    const before = await head();
    const res = await inMode("live", () => reorg(merchant, { depth: 1, blockchain: "base" }));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    expect(await head()).toBe(before);
  });
});

describe("the sandbox page's reorg button (server action)", () => {
  test("the same use-case: reorganises, charges the same budget, and is refused in live mode", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 2 });
    signInAs(merchant);
    const { order } = await confirmedOrder(merchant);

    const done = await reorgAction(form({ depth: "3", blockchain: "base" }));
    expect(done).toMatchObject({ ok: true, data: { depth: expect.any(Number), blockchain: "base" } });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", at_risk: true });
    // What the dashboard's order page shows its at-risk banner from.
    expect((await loadOrderDetail(testDb.db, merchant.id, order.order_id))?.order).toMatchObject({
      status: "confirmed",
      atRiskReason: "payment_reorged",
      atRiskAt: expect.any(Date),
    });

    env.SANDBOX_MINE_BLOCKS_PER_HOUR = 2 + 4 + 2; // the mine of confirmedOrder (2), that reorg (3 + 1), 2 to spare: a depth 2 (3) is over
    const over = await reorgAction(form({ depth: "2", blockchain: "base" }));
    expect(over).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });

    expect(await reorgAction(form({ depth: "0", blockchain: "base" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { depth: expect.any(Array) } },
    });
    const live = await inMode("live", () => reorgAction(form({ depth: "1", blockchain: "base" })));
    expect(live).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });
});
