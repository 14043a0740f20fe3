/**
 * Issue 49 item 6, on the real devnet: the gasless relay cannot be drained. An order not worth
 * relaying (one base unit; more gas than its share) is neither offered nor relayed; the global
 * hourly gas budget holds under 100 parallel relays for 20 merchants; a relayer at its balance
 * floor refuses while sweeps go on; relay spend and budget use show in the metrics.
 */
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getAddress, parseEther, toHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as relayGasless } from "@/app/api/pay/[orderId]/gasless/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { findToken } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { devnetRelayer, devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { gaslessRelays, paymentOrders } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { relayerFloorWei, relayerKey } from "@/lib/gasless/policy";
import { transferAuthorizationTypedData } from "@/lib/gasless/typed-data";
import { metrics } from "@/lib/metrics/registry";
import { sendFromFaucet } from "@/lib/sandbox/devnet-tools";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const chain = () => net.chain("base");
const usdc = () => findToken(chain(), "USDC")!;
const client = () => chainClient(chain());
const tick = () => watchChainTick(testDb.db, chain(), client());

const saved = {
  total: env.GASLESS_GAS_PER_HOUR,
  perMerchant: env.GASLESS_GAS_PER_MERCHANT_PER_HOUR,
  minimum: env.GASLESS_MIN_ORDER_USD,
  share: env.GASLESS_MAX_COST_SHARE,
  sweeperKey: env.SWEEPER_PRIVATE_KEY,
  relayerKey: env.GASLESS_RELAYER_PRIVATE_KEY,
};
afterEach(async () => {
  Object.assign(env, {
    GASLESS_GAS_PER_HOUR: saved.total,
    GASLESS_GAS_PER_MERCHANT_PER_HOUR: saved.perMerchant,
    GASLESS_MIN_ORDER_USD: saved.minimum,
    GASLESS_MAX_COST_SHARE: saved.share,
    SWEEPER_PRIVATE_KEY: saved.sweeperKey,
    GASLESS_RELAYER_PRIVATE_KEY: saved.relayerKey,
  });
  await net.testClient().setBalance({ address: devnetRelayer.address, value: parseEther("10000") });
});

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant({ shop_name: "Gasless Limits Shop" });
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
});

async function publicOrder(orderId: string) {
  const res = await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Polls the public order until `done` (the offer reuses the chain conditions it read for up to a second on the devnet). */
async function publicOrderUntil(orderId: string, done: (order: any) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const order = await publicOrder(orderId);
    if (done(order) || Date.now() > deadline) return order;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Customer = ReturnType<typeof privateKeyToAccount>;

async function customerWithUsdc(units: bigint): Promise<Customer> {
  const account = privateKeyToAccount(generatePrivateKey());
  await sendFromFaucet(chain(), usdc(), account.address, units);
  return account;
}

/**
 * What a wallet signs for the order: the whole amount due to its deposit address over the order's
 * whole life (the window the page would get in `gasless`), whether the order is offered or not.
 */
async function signFor(customer: Customer, order: { order_id: string; receiving_address: string; amount: string; created_at: string; expires_at: string }) {
  const message = {
    from: customer.address,
    to: getAddress(order.receiving_address),
    value: BigInt(Math.round(Number(order.amount) * 1_000_000)),
    validAfter: BigInt(Math.floor(Date.parse(order.created_at) / 1000) - 600),
    validBefore: BigInt(Math.floor(Date.parse(order.expires_at) / 1000)),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const domain = { name: "USD Coin", version: "2", chainId: chain().chainId, verifyingContract: usdc().address! };
  const signature = await customer.signTypedData(transferAuthorizationTypedData(domain, message));
  return {
    from: message.from,
    to: message.to as string,
    value: message.value.toString(),
    valid_after: Number(message.validAfter),
    valid_before: Number(message.validBefore),
    nonce: message.nonce,
    signature,
  };
}

const relay = (orderId: string, body: unknown, ip = "198.51.100.40") =>
  call(relayGasless, "POST", `/api/pay/${orderId}/gasless/`, { params: { orderId }, body, ip });

async function relaysOf(orderIds: string[]) {
  const ids = (await testDb.db.select({ id: paymentOrders.id }).from(paymentOrders).where(inArray(paymentOrders.orderId, orderIds))).map((row) => row.id);
  return ids.length === 0 ? [] : testDb.db.select().from(gaslessRelays).where(inArray(gaslessRelays.paymentOrderId, ids));
}

const counter = async (name: "gaslessRelays" | "gaslessGasUsed" | "gaslessCostWei", labels: Record<string, string>) =>
  (await metrics()[name].get()).values
    .filter((v) => Object.entries(labels).every(([k, value]) => (v.labels as Record<string, unknown>)[k] === value))
    .reduce((sum, v) => sum + v.value, 0);

async function scrape(): Promise<string> {
  const response = await metricsRoute(new Request("http://localhost/api/metrics"), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  return response.text();
}

const gauge = (text: string, name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);

describe("what is worth relaying", () => {
  test("a one-base-unit order is not offered and the relay refuses it (400 RELAY_NOT_WORTHWHILE); nothing is sent", async () => {
    const refusedBefore = await counter("gaslessRelays", { chain: "base", outcome: "refused_not_worthwhile" });
    const order = await createOrder(merchant, { amount: "0.000001", currency: "USDC" });
    expect((await publicOrder(order.order_id)).gasless).toBeNull();
    const customer = await customerWithUsdc(1_000_000n);
    const relayerBefore = await client().getBalance({ address: devnetRelayer.address });

    const res = await relay(order.order_id, await signFor(customer, order));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("RELAY_NOT_WORTHWHILE");
    expect(res.body.error.message).toMatch(/worth less than \$0\.01, below the \$1\.00/);
    expect(await relaysOf([order.order_id])).toEqual([]);
    expect(await client().getBalance({ address: devnetRelayer.address })).toBe(relayerBefore);
    expect((await publicOrder(order.order_id)).amount_received).toBe("0");
    expect(await counter("gaslessRelays", { chain: "base", outcome: "refused_not_worthwhile" })).toBe(refusedBefore + 1);
  });

  test("below the minimum order value, even where gas is no object", async () => {
    env.GASLESS_MAX_COST_SHARE = 1;
    const order = await createOrder(merchant, { amount: "0.5", currency: "USDC" });
    expect((await publicOrder(order.order_id)).gasless).toBeNull();
    const res = await relay(order.order_id, await signFor(await customerWithUsdc(1_000_000n), order));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("RELAY_NOT_WORTHWHILE");
    env.GASLESS_MIN_ORDER_USD = 0.25;
    expect((await publicOrder(order.order_id)).gasless).not.toBeNull();
  });

  test("relay gas above its share of the order's value (at the devnet's 1 gwei and $3,412 ETH) is not offered; a larger share is, and the relay goes", async () => {
    const order = await createOrder(merchant, { amount: "5", currency: "USDC" });
    const customer = await customerWithUsdc(5_000_000n);
    const signed = await signFor(customer, order);
    env.GASLESS_MAX_COST_SHARE = 0.01; // $0.05 of $5
    expect((await publicOrder(order.order_id)).gasless).toBeNull();
    const refused = await relay(order.order_id, signed);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: "RELAY_NOT_WORTHWHILE",
      message: expect.stringMatching(/would cost about \$0\.\d\d in gas now, more than 1% of the \$5\.00 due/),
    });

    env.GASLESS_MAX_COST_SHARE = 0.5;
    expect((await publicOrder(order.order_id)).gasless).toMatchObject({ name: "USD Coin" });
    const sent = await relay(order.order_id, signed);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  });
});

describe("the global hourly relay budget", () => {
  test("holds under 100 parallel relays for 20 merchants: what the relays count together never passes it, the rest are 429", async () => {
    const budget = 350_000;
    env.GASLESS_GAS_PER_HOUR = budget;
    const merchants = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const m = await createMerchant({ shop_name: `Budget Shop ${i}`, ip: `192.0.2.${i + 1}` });
        await createWallet(m, { blockchain: 2 });
        return m;
      }),
    );
    const orders = [];
    for (const m of merchants) for (let i = 0; i < 5; i++) orders.push(await createOrder(m, { amount: "20", currency: "USDC" }));
    const customer = await customerWithUsdc(2_000_000_000n);
    const bodies = await Promise.all(orders.map((order) => signFor(customer, order)));
    const budgetRefusedBefore = await counter("gaslessRelays", { chain: "base", outcome: "refused_budget" });

    const answers = await Promise.all(orders.map((order, i) => relay(order.order_id, bodies[i], `203.0.113.${i + 1}`)));

    const statuses = answers.map((a) => a.status);
    expect(new Set(statuses), JSON.stringify(answers.find((a) => a.status !== 201 && a.status !== 429)?.body)).toEqual(new Set([201, 429]));
    const sent = answers.filter((a) => a.status === 201);
    for (const refused of answers.filter((a) => a.status === 429))
      expect(refused.body).toMatchObject({
        error: { code: "RELAY_BUDGET_EXHAUSTED", message: expect.stringMatching(/^Gasless payments are paused/) },
        retry_after: expect.any(Number),
      });
    const rows = await relaysOf(orders.map((o) => o.order_id));
    expect(rows).toHaveLength(sent.length);
    expect(rows.every((row) => row.status === "mined")).toBe(true);
    const counted = rows.reduce((sum, row) => sum + (row.gasUsed ?? row.gasLimit), 0n);
    expect(counted).toBeLessThanOrEqual(BigInt(budget));
    // Each relay's gas limit is ~100k: three fit, the fourth would pass the budget.
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(4);
    expect(await counter("gaslessRelays", { chain: "base", outcome: "refused_budget" })).toBe(budgetRefusedBefore + answers.length - sent.length);
    console.log(
      `[measure] 100 parallel relays, global budget ${budget} gas: ${sent.length} sent (${counted} gas counted), ${answers.length - sent.length} refused`,
    );
  });
});

describe("the relayer", () => {
  test("its own key, never the sweeper's: without GASLESS_RELAYER_PRIVATE_KEY a live chain has no gasless payments", () => {
    const live = { ...chain(), isDevnet: false };
    env.SWEEPER_PRIVATE_KEY = devnetSweeper.privateKey;
    env.GASLESS_RELAYER_PRIVATE_KEY = undefined;
    expect(relayerKey(live)).toBeNull();
    env.GASLESS_RELAYER_PRIVATE_KEY = devnetRelayer.privateKey;
    expect(relayerKey(live)).toBe(devnetRelayer.privateKey);
    // The sandbox devnet's relayer is an account of its own.
    expect(relayerKey(chain())).toBe(devnetRelayer.privateKey);
    expect(devnetRelayer.address).not.toBe(devnetSweeper.address);
  });

  test("at its balance floor it is not offered and refuses (503), while sweeps go on; funded again, it relays, and the spend shows in the metrics", async () => {
    const order = await createOrder(merchant, { amount: "25", currency: "USDC" });
    const customer = await customerWithUsdc(25_000_000n);
    const signed = await signFor(customer, order);
    expect((await publicOrder(order.order_id)).gasless).not.toBeNull();

    // Just under what one relay at the ceiling would leave above the floor.
    const floor = relayerFloorWei(chain());
    await net.testClient().setBalance({ address: devnetRelayer.address, value: floor + 100_000n * chain().maxFeePerGas });
    expect((await publicOrderUntil(order.order_id, (o) => o.gasless === null)).gasless).toBeNull();
    const refused = await relay(order.order_id, signed);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringMatching(/relayer's balance is at its floor/) });
    expect(await relaysOf([order.order_id])).toEqual([]);
    expect(await client().getBalance({ address: devnetRelayer.address })).toBe(floor + 100_000n * chain().maxFeePerGas);
    const scraped = await scrape();
    // The balance gauge shows it under the floor plus what one relay may cost.
    expect(gauge(scraped, "gateway_gasless_relayer_balance_wei")).toBeLessThan(
      gauge(scraped, "gateway_gasless_relayer_min_balance_wei") + Number(120_000n * chain().maxFeePerGas),
    );

    // Meanwhile another order is paid, confirmed and swept as ever.
    const paid = await createOrder(merchant, { amount: "3", currency: "USDC" });
    const pay = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${paid.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: paid.order_id },
      body: {},
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    await net.testClient().mine({ blocks: 1 });
    await tick();
    expect((await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, paid.order_id)))[0]!.status).toBe("confirmed");
    const swept = await sweepConfirmedDeposits(testDb.db, chain(), client());
    expect(swept.swept).toContain(paid.order_id);

    // Funded again: offered and relayed; the gas and its cost are counted.
    const spentBefore = {
      gas: await counter("gaslessGasUsed", { chain: "base" }),
      wei: await counter("gaslessCostWei", { chain: "base" }),
      mined: await counter("gaslessRelays", { chain: "base", outcome: "mined" }),
    };
    await net.testClient().setBalance({ address: devnetRelayer.address, value: parseEther("1") });
    expect((await publicOrderUntil(order.order_id, (o) => o.gasless !== null)).gasless).not.toBeNull();
    const sent = await relay(order.order_id, signed);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const receipt = await client().getTransactionReceipt({ hash: sent.body.data.transaction_hash as Hex });
    expect(receipt.from).toBe(devnetRelayer.address.toLowerCase());
    expect(await counter("gaslessGasUsed", { chain: "base" })).toBe(spentBefore.gas + Number(receipt.gasUsed));
    expect(await counter("gaslessCostWei", { chain: "base" })).toBe(spentBefore.wei + Number(receipt.gasUsed * receipt.effectiveGasPrice));
    expect(await counter("gaslessRelays", { chain: "base", outcome: "mined" })).toBe(spentBefore.mined + 1);
    const after = await scrape();
    expect(after).toMatch(new RegExp(`^gateway_gasless_relay_gas_used_total\\{chain="base"\\} \\d+`, "m"));
    expect(gauge(after, "gateway_gasless_gas_last_hour")).toBeGreaterThanOrEqual(Number(receipt.gasUsed));
    expect(gauge(after, "gateway_gasless_budget_used_ratio")).toBeCloseTo(gauge(after, "gateway_gasless_gas_last_hour") / env.GASLESS_GAS_PER_HOUR, 6);
  });
});
