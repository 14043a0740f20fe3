import { describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { PUT as putAccount } from "@/app/api/account/route";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { mockAggregatorArtifact } from "@/lib/chains/contract-artifacts";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

let nonce = 1;
async function create(merchant: TestMerchant, body: Record<string, unknown>) {
  return call(postOrder, "POST", "/api/payment-orders/", {
    token: merchant.access,
    body: { blockchain: "base", order_info: "{}", nonce: nonce++, ...body },
  });
}

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

const tick = () => watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")));

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function mine(merchant: TestMerchant, blocks: number) {
  const res = await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks } });
  expect(res.status).toBe(200);
}

async function merchantWithWallet() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 2 });
  return merchant;
}

describe("fiat-priced orders (POST /api/payment-orders/ with price_amount)", () => {
  test("a USD price paid in USDC converts at the USDC/USD feed (0.9998, not 1.00), rounded up, with its source stored", async () => {
    const merchant = await merchantWithWallet();
    const res = await create(merchant, { price_amount: "10.00", price_currency: "usd", currency: "USDC" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body.data;
    // 10 / 0.9998 = 10.0020004… → rounded up to the token's 6 decimals
    expect(order).toMatchObject({ amount: "10.002001", currency: "USDC", price_amount: "10.00", price_currency: "USD", rate: "0.9998" });
    expect(order.rate_source).toEqual([
      {
        pair: "USDC/USD",
        feed_address: devnetContracts.priceFeeds["USDC/USD"],
        round_id: "1",
        answer: "99980000",
        decimals: 8,
        updated_at: expect.any(String),
      },
    ]);
    // stored, not recomputed: the GET answers the same locked numbers
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ amount: "10.002001", price_amount: "10.00", price_currency: "USD", rate: "0.9998", rate_source: order.rate_source });
  });

  test("a EUR price paid in ETH goes through EUR/USD and ETH/USD; the rate stays locked when the feed moves", async () => {
    const merchant = await merchantWithWallet();
    const res = await create(merchant, { price_amount: "19.9", price_currency: "EUR", currency: "ETH" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body.data;
    // 19.90 × 1.0842 / 3412.57 ETH, rounded up to the wei
    expect(order).toMatchObject({ amount: "0.00632238459577386", price_amount: "19.90", price_currency: "EUR", rate: "3147.54657812" });
    expect(order.rate_source.map((s: { pair: string }) => s.pair)).toEqual(["ETH/USD", "EUR/USD"]);

    // ETH rises 20 % (within a round's allowed move): the existing order keeps its amount, a new order gets the new rate
    const deployer = net.wallet(devnetAccounts[0].privateKey);
    const hash = await deployer.writeContract({
      address: devnetContracts.priceFeeds["ETH/USD"],
      abi: mockAggregatorArtifact.abi,
      functionName: "setAnswer",
      args: [409_508_400_000n],
    });
    await chainClient(net.chain("base")).waitForTransactionReceipt({ hash });
    expect((await fetchOrder(merchant, order.order_id)).amount).toBe("0.00632238459577386");
    const next = await create(merchant, { price_amount: "19.90", price_currency: "EUR", currency: "ETH" });
    expect(next.body.data.amount).toBe("0.00526865382981155");
    expect(next.body.data.rate_source[0].round_id).toBe("2");
  });

  test("a token-priced order has null price fields", async () => {
    const merchant = await merchantWithWallet();
    const order = await createOrder(merchant, { amount: "5", currency: "USDC" });
    expect(order).toMatchObject({ amount: "5", price_amount: null, price_currency: null, rate: null, rate_source: null });
  });

  test("a fiat-priced order paid on the devnet confirms, and the pay page shows the price and rate", async () => {
    const merchant = await merchantWithWallet();
    const res = await create(merchant, { price_amount: "25.00", price_currency: "USD", currency: "USDT" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body.data;
    expect(order.amount).toBe("24.992503"); // 25 / 1.0003, rounded up

    const page = await call(getPublicOrder, "GET", `/api/pay/${order.order_id}/`, { params: { orderId: order.order_id } });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({
      amount: "24.992503",
      currency: "USDT",
      price_amount: "25.00",
      price_currency: "USD",
      rate: "1.0003",
      rate_updated_at: expect.any(String),
    });

    await pay(merchant, order.order_id);
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("processing");
    await mine(merchant, 1);
    await tick();
    const done = await fetchOrder(merchant, order.order_id);
    expect(done).toMatchObject({ status: "confirmed", amount_received: "24.992503", price_amount: "25.00" });
  });

  test("a stale feed is refused with 503 PRICE_FEED_STALE; no order is created", async () => {
    const merchant = await merchantWithWallet();
    const deployer = net.wallet(devnetAccounts[0].privateKey);
    const twoDaysAgo = BigInt(Math.floor(Date.now() / 1000) - 2 * 86_400);
    const hash = await deployer.writeContract({
      address: devnetContracts.priceFeeds["POL/USD"],
      abi: mockAggregatorArtifact.abi,
      functionName: "setRoundData",
      args: [45_000_000n, twoDaysAgo],
    });
    await chainClient(net.chain("base")).waitForTransactionReceipt({ hash });
    const res = await create(merchant, { price_amount: "5.00", price_currency: "USD", currency: "POL", blockchain: "polygon" });
    // polygon has no wallet yet: the feed is read before the wallet check, so staleness answers first
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error.code).toBe("PRICE_FEED_STALE");
    expect(res.body.error.message).toMatch(/POL\/USD price feed on polygon was last updated \d+ s ago/);
  });

  test("price currencies without a feed, and malformed fiat requests, get clear 400s", async () => {
    const merchant = await merchantWithWallet();
    let res = await create(merchant, { price_amount: "5.00", price_currency: "XAU", currency: "USDC" });
    expect([res.status, res.body.error.code]).toEqual([400, "UNSUPPORTED_PRICE_CURRENCY"]);
    res = await create(merchant, { price_amount: "5.00", price_currency: "GBP", currency: "USDC" });
    expect([res.status, res.body.error.code]).toEqual([400, "UNSUPPORTED_PRICE_CURRENCY"]);
    expect(res.body.error.message).toContain("No GBP/USD price feed");
    res = await create(merchant, { amount: "5", price_amount: "5.00", price_currency: "USD", currency: "USDC" });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ amount: ["Give amount or price_amount, not both."] });
    res = await create(merchant, { price_amount: "5.00", currency: "USDC" });
    expect(res.body.error.details).toEqual({ price_currency: ["Required with price_amount."] });
    res = await create(merchant, { price_amount: "5.001", price_currency: "USD", currency: "USDC" });
    expect(res.body.error.details).toEqual({ price_amount: ["USD has 2 decimal places at most."] });
    res = await create(merchant, { price_amount: 5, price_currency: "USD", currency: "USDC" });
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    res = await create(merchant, { currency: "USDC" });
    expect(res.body.error.details).toEqual({ amount: ["This field is required."] });
  });
});

describe("payment tolerance (PUT /api/account/ payment_tolerance_bps)", () => {
  test("an underpayment within the merchant's tolerance confirms; one beyond it, or on an order from before the setting, does not", async () => {
    const merchant = await merchantWithWallet();
    const before = (await create(merchant, { amount: "100", currency: "USDC" })).body.data;

    const put = await call(putAccount, "PUT", "/api/account/", { token: merchant.access, body: { payment_tolerance_bps: 50 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.payment_tolerance_bps).toBe(50);
    const bad = await call(putAccount, "PUT", "/api/account/", { token: merchant.access, body: { payment_tolerance_bps: 5000 } });
    expect(bad.status).toBe(400);

    const within = (await create(merchant, { amount: "100", currency: "USDC" })).body.data;
    const beyond = (await create(merchant, { amount: "100", currency: "USDC" })).body.data;
    await pay(merchant, within.order_id, { amount: "99.5" }); // exactly 0.5 % short
    await pay(merchant, beyond.order_id, { amount: "99.499999" });
    await pay(merchant, before.order_id, { amount: "99.5" });
    await tick();
    await mine(merchant, 1);
    await tick();
    expect(await fetchOrder(merchant, within.order_id)).toMatchObject({ status: "confirmed", amount_received: "99.5" });
    expect((await fetchOrder(merchant, beyond.order_id)).status).toBe("pending");
    expect((await fetchOrder(merchant, before.order_id)).status).toBe("pending");
  });
});
