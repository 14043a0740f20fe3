import { describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as chooseMethod } from "@/app/api/pay/[orderId]/method/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { POST as faucet } from "@/app/api/sandbox/faucet/route";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

// Issue 27 item 1: an order accepts several (chain, token) methods; the customer chooses on the payment page.
const testDb = setupTestDatabase();
const net = setupTestDevnet();

let nonce = 1;
async function create(merchant: TestMerchant, body: Record<string, unknown>) {
  return call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: { blockchain: "base", order_info: "{}", nonce: nonce++, ...body } });
}

async function createOk(merchant: TestMerchant, body: Record<string, unknown>) {
  const res = await create(merchant, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function publicOrder(orderId: string) {
  const res = await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

const choose = (orderId: string, body: Record<string, unknown>) => call(chooseMethod, "POST", `/api/pay/${orderId}/method/`, { params: { orderId }, body });

const tick = (slug: string) => watchChainTick(testDb.db, net.chain(slug), chainClient(net.chain(slug)));

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { transaction_hash: string };
}

async function sendTo(merchant: TestMerchant, blockchain: string, address: string, currency: string, amount: string) {
  const res = await call(faucet, "POST", "/api/sandbox/faucet/", { token: merchant.access, body: { blockchain, address, currency, amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { transaction_hash: string };
}

async function mine(merchant: TestMerchant, blocks: number) {
  const res = await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks } });
  expect(res.status).toBe(200);
}

/** A merchant with wallets on base (2) and polygon (3), one confirmation each. */
async function merchantOnTwoChains() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
  await createWallet(merchant, { blockchain: 3, confirmation_threshold: 1 });
  return merchant;
}

interface MethodJson {
  blockchain: string;
  currency: string;
  amount: string;
  rate: string | null;
  receiving_address: string;
}

const methodOf = (order: { accepted_methods: MethodJson[] }, blockchain: string, currency: string) =>
  order.accepted_methods.find((m) => m.blockchain === blockchain && m.currency === currency)!;

describe("creating an order with accepted_methods", () => {
  test("an order created as today accepts exactly its own method: one entry, nothing paid by yet", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, { amount: "10", currency: "USDC" });
    expect(order).toMatchObject({ blockchain: "base", currency: "USDC", amount: "10", payment_method: null });
    expect(order.accepted_methods).toEqual([{ blockchain: "base", currency: "USDC", amount: "10", rate: null, receiving_address: order.receiving_address }]);
    const page = await publicOrder(order.order_id);
    expect(page.methods).toEqual([{ blockchain: { slug: "base", name: expect.any(String) }, currency: "USDC", amount: "10", selected: true }]);
    expect(page.method_fixed).toBe(false);
  });

  test("a fiat price locks an amount per method; a chain's tokens share its deposit address, other chains have their own", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, {
      price_amount: "10.00",
      price_currency: "USD",
      currency: "USDC",
      accepted_methods: [
        { blockchain: "base", currency: "ETH" },
        { blockchain: "polygon", currency: "usdc" },
        { blockchain: "base", currency: "USDC" },
      ],
    });
    expect(order.accepted_methods.map((m: { blockchain: string; currency: string }) => `${m.currency}@${m.blockchain}`)).toEqual([
      "USDC@base",
      "ETH@base",
      "USDC@polygon",
    ]);
    const [usdcBase, ethBase, usdcPolygon] = order.accepted_methods;
    expect(usdcBase).toMatchObject({ amount: "10.002001", rate: "0.9998", receiving_address: order.receiving_address });
    // 10 / 3412.57, rounded up to the wei
    expect(ethBase.amount).toMatch(/^0\.00293034/);
    expect(ethBase.receiving_address).toBe(order.receiving_address);
    expect(usdcPolygon.amount).toBe("10.002001");
    expect(usdcPolygon.receiving_address).not.toBe(order.receiving_address);
  });

  test("a token price can be offered in the same token on other chains only, at the same amount", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, { amount: "7.5", currency: "USDC", accepted_methods: [{ blockchain: "polygon", currency: "USDC" }] });
    expect(methodOf(order, "polygon", "USDC").amount).toBe("7.5");
    const res = await create(merchant, { amount: "7.5", currency: "USDC", accepted_methods: [{ blockchain: "base", currency: "ETH" }] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.accepted_methods[0]).toMatch(/price_amount/);
  });

  test("each method needs a known chain, a token the catalog has on it and an active wallet (clear 4xx, nothing created)", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    const cases: [unknown, number, string][] = [
      [[{ blockchain: "dogechain", currency: "USDC" }], 400, "INVALID_BLOCKCHAIN"],
      [[{ blockchain: "polygon", currency: "SHIB" }], 400, "UNSUPPORTED_CURRENCY"],
      [[{ blockchain: "polygon", currency: "USDC" }], 400, "WALLET_NOT_CONFIGURED"],
      [[{ blockchain: "polygon" }], 400, "VALIDATION_ERROR"],
      ["polygon:USDC", 400, "VALIDATION_ERROR"],
    ];
    for (const [methods, status, code] of cases) {
      const res = await create(merchant, { amount: "1", currency: "USDC", accepted_methods: methods });
      expect(res.status, JSON.stringify(methods)).toBe(status);
      expect(res.body.error.code, JSON.stringify(res.body)).toBe(code);
    }
    const messages = await create(merchant, { amount: "1", currency: "USDC", accepted_methods: [{ blockchain: "polygon", currency: "USDC" }] });
    expect(messages.body.error.message).toMatch(/polygon/);
  });
});

describe("choosing and paying", () => {
  test("the customer chooses another chain, pays by it, and the order confirms with the method recorded in the order and the webhook", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, { amount: "4", currency: "USDC", accepted_methods: [{ blockchain: "polygon", currency: "USDC" }] });
    const polygon = methodOf(order, "polygon", "USDC");

    const chosen = await choose(order.order_id, { blockchain: "polygon", currency: "USDC" });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.data).toMatchObject({ blockchain: { slug: "polygon" }, currency: "USDC", amount: "4", receiving_address: polygon.receiving_address });
    expect(chosen.body.data.methods.filter((m: { selected: boolean }) => m.selected).map((m: { blockchain: { slug: string } }) => m.blockchain.slug)).toEqual([
      "polygon",
    ]);
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      blockchain: "polygon",
      receiving_address: polygon.receiving_address,
      payment_method: null,
    });

    await pay(merchant, order.order_id);
    await tick("polygon");
    await mine(merchant, 1);
    await tick("polygon");
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({
      status: "confirmed",
      blockchain: "polygon",
      currency: "USDC",
      amount_received: "4",
      payment_method: { blockchain: "polygon", currency: "USDC" },
    });

    const events = await call(listEvents, "GET", "/api/events/", { token: merchant.access });
    const confirmed = events.body.results.find((e: { type?: string; event?: string }) => (e.type ?? e.event) === "payment.confirmed");
    expect(confirmed.data).toMatchObject({
      blockchain: "polygon",
      receiving_address: polygon.receiving_address,
      payment_method: { blockchain: "polygon", currency: "USDC" },
    });

    // Fixed now: another method is refused, the one paid by still answers.
    const again = await choose(order.order_id, { blockchain: "base", currency: "USDC" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
    expect((await choose(order.order_id, { blockchain: "polygon", currency: "USDC" })).status).toBe(200);
  });

  test("money by an offered method the customer did not choose counts, and fixes the order to it (another token on the chain)", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, {
      price_amount: "10.00",
      price_currency: "USD",
      currency: "USDC",
      accepted_methods: [{ blockchain: "base", currency: "ETH" }],
    });
    const eth = methodOf(order, "base", "ETH");
    await pay(merchant, order.order_id, { currency: "ETH", amount: eth.amount });
    await tick("base");
    await mine(merchant, 1);
    await tick("base");
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({
      status: "confirmed",
      currency: "ETH",
      amount: eth.amount,
      amount_received: eth.amount,
      rate: eth.rate,
      payment_method: { blockchain: "base", currency: "ETH" },
    });
    expect((await publicOrder(order.order_id)).method_fixed).toBe(true);
    expect((await choose(order.order_id, { blockchain: "base", currency: "USDC" })).status).toBe(409);
  });

  test("money by an offered method on another chain counts though the page showed the first one", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, { amount: "3", currency: "USDC", accepted_methods: [{ blockchain: "polygon", currency: "USDC" }] });
    const polygon = methodOf(order, "polygon", "USDC");
    await sendTo(merchant, "polygon", polygon.receiving_address, "USDC", "3");
    await tick("polygon");
    await mine(merchant, 1);
    await tick("polygon");
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({
      status: "confirmed",
      blockchain: "polygon",
      receiving_address: polygon.receiving_address,
      payment_method: { blockchain: "polygon", currency: "USDC" },
    });
    // The base scanner sees nothing of it (its own deposit address got nothing).
    await tick("base");
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
  });

  test("a token the order does not accept does not count (another asset, as today) and does not fix the method", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, { amount: "5", currency: "USDC", accepted_methods: [{ blockchain: "polygon", currency: "USDC" }] });
    const { transaction_hash } = await pay(merchant, order.order_id, { currency: "USDT", amount: "5" });
    await tick("base");
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen).toMatchObject({ status: "pending", amount_received: "0", payment_method: null });
    const tx = await call(getTransaction, "GET", `/api/transactions/${transaction_hash}/`, {
      token: merchant.access,
      params: { transactionHash: transaction_hash },
    });
    expect(tx.body.data).toMatchObject({ currency: "USDT", counted: false, payment_order: { order_id: order.order_id } });
    // Still free to choose.
    expect((await choose(order.order_id, { blockchain: "polygon", currency: "USDC" })).status).toBe(200);
  });

  test("a method the order does not accept cannot be chosen; an unknown order is 404", async () => {
    const merchant = await merchantOnTwoChains();
    const order = await createOk(merchant, { amount: "5", currency: "USDC" });
    const res = await choose(order.order_id, { blockchain: "polygon", currency: "USDC" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect((await choose(order.order_id, { blockchain: "base" })).status).toBe(400);
    expect((await choose("ORD-doesnotexist", { blockchain: "base", currency: "USDC" })).status).toBe(404);
    expect((await fetchOrder(merchant, order.order_id)).blockchain).toBe("base");
  });
});
