/** The sandbox pay and mine tools on the real devnet: paying the remainder, and a chain clock that stays with the wall clock. */
import { describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const tick = () => watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")), { checkInternalDeposits: false });

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  return (await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } })).body.data;
}

function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  return call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
}

async function merchantWithWallet(threshold = 1) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: threshold });
  return merchant;
}

describe("sandbox pay", () => {
  test("without an amount it pays what is still missing, and refuses when nothing is", async () => {
    const merchant = await merchantWithWallet(1);
    const order = await createOrder(merchant, { amount: "0.5", currency: "ETH", blockchain: "base" });
    expect((await pay(merchant, order.order_id, { amount: "0.2" })).status).toBe(201);
    await tick();
    const rest = await pay(merchant, order.order_id);
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ amount: "0.3", currency: "ETH" });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", amount_received: "0.5" });
    const none = await pay(merchant, order.order_id);
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    // an explicit amount can still overpay on purpose
    expect((await pay(merchant, order.order_id, { amount: "0.1" })).status).toBe(201);
  });
});

/** Simulated confirmations one block per call, as fast as they come. */
async function mineOneAtATime(merchant: TestMerchant, count: number) {
  for (let i = 0; i < count; i++) {
    expect((await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 1, blockchain: "base" } })).status).toBe(200);
  }
}

describe("sandbox clock", () => {
  test("mining many blocks, at once or one at a time, does not move chain time ahead of the wall clock", async () => {
    const merchant = await merchantWithWallet();
    const res = await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 120, blockchain: "base" } });
    expect(res.status).toBe(200);
    await mineOneAtATime(merchant, 40);
    const latest = await chainClient(net.chain("base")).getBlock({ blockTag: "latest" });
    expect(Number(latest.timestamp)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 2);
  });

  test("a payment made 10 s before expiry, after confirmations were mined, counts", async () => {
    const merchant = await merchantWithWallet(3);
    const order = await createOrder(merchant, { amount: "5", currency: "USDC", blockchain: "base", expires_at: new Date(Date.now() + 12_000).toISOString() });
    await mineOneAtATime(merchant, 40); // what the pay page's simulate and repeated "mine 1" clicks do
    expect((await pay(merchant, order.order_id)).status).toBe(201);
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "processing", amount_received: "5" });
    expect((await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 2, blockchain: "base" } })).status).toBe(200);
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", failure_reason: null });
  });
});
