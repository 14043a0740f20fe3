import { describe, expect, test } from "vitest";
import { createPublicClient, erc20Abi, http } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { POST as postPlan } from "@/app/api/subscription-plans/route";
import { POST as postSubscription } from "@/app/api/subscriptions/route";
import { GET as getSubscription } from "@/app/api/subscriptions/[id]/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { devnetContracts, devnetFeeds } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { mockAggregatorArtifact, testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { DEVNET_DEPLOYER_PRIVATE_KEY, devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { chargeDueSubscriptions } from "@/lib/subscriptions/charge";
import { recordTransferPrices } from "@/lib/transactions/record-prices";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { csvObjects } from "../helpers/csv";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "../dashboard/session";

const { GET: exportMovements } = await import("@/app/(dashboard)/dashboard/transactions/export/route");

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const client = () => createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl), pollingInterval: 50 });
const run = () => chargeDueSubscriptions(testDb.db, base());
const tick = () => watchChainTick(testDb.db, base(), chainClient(base()), { checkInternalDeposits: false });
const dayMs = 86_400_000;
const day = (fromMs: number, offsetDays: number) => new Date(fromMs + offsetDays * dayMs).toISOString().slice(0, 10);

async function setFeed(pair: (typeof devnetFeeds)[number]["pair"], answer: bigint) {
  const owner = net.wallet(DEVNET_DEPLOYER_PRIVATE_KEY);
  const address = base().priceFeeds[pair]!.address;
  await client().waitForTransactionReceipt({
    hash: await owner.writeContract({ address, abi: mockAggregatorArtifact.abi, functionName: "setAnswer", args: [answer] }),
  });
}
const feedAnswer = (pair: string) => devnetFeeds.find((f) => f.pair === pair)!.answer;

/** A merchant with a wallet on base, a 30-day plan, and a customer with USDC who approved the subscription's pull contract. */
async function subscribed(plan: Record<string, unknown>, threshold = 2) {
  const merchant: TestMerchant = await createMerchant();
  const merchantWallet = randomAddress();
  await createWallet(merchant, { wallet_address: merchantWallet, confirmation_threshold: threshold });
  const planRes = await call(postPlan, "POST", "/api/subscription-plans/", {
    token: merchant.access,
    body: { name: "Pro", blockchain: "base", currency: "USDC", interval_days: 30, ...plan },
  });
  expect(planRes.status, JSON.stringify(planRes.body)).toBe(201);
  const customer = net.wallet(generatePrivateKey());
  const faucet = net.wallet(devnetAccounts[1].privateKey);
  await client().waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
  await client().waitForTransactionReceipt({
    hash: await faucet.writeContract({
      address: devnetContracts.USDC,
      abi: testTokenArtifact.abi,
      functionName: "mint",
      args: [customer.account.address, 100_000_000n],
    }),
  });
  const subRes = await call(postSubscription, "POST", "/api/subscriptions/", {
    token: merchant.access,
    body: { plan: planRes.body.data.id, customer_address: customer.account.address },
  });
  expect(subRes.status, JSON.stringify(subRes.body)).toBe(201);
  const sub = subRes.body.data;
  await client().waitForTransactionReceipt({
    hash: await customer.writeContract({
      address: devnetContracts.USDC,
      abi: erc20Abi,
      functionName: "approve",
      args: [sub.pull_address, BigInt(sub.authorization.value)],
    }),
  });
  const start = BigInt(Date.parse(sub.starts_at) / 1000);
  if ((await client().getBlock()).timestamp < start) {
    await net.testClient().setNextBlockTimestamp({ timestamp: start });
    await net.testClient().mine({ blocks: 1 });
  }
  const view = async () => (await call(getSubscription, "GET", `/api/subscriptions/${sub.id}/`, { token: merchant.access, params: { id: sub.id } })).body.data;
  return { merchant, merchantWallet, customer, sub, view };
}

const transaction = (merchant: TestMerchant, hash: string) =>
  call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: merchant.access, params: { transactionHash: hash } });

async function movements(merchant: TestMerchant) {
  signInAs(merchant);
  const url = new URL("http://localhost:3000/dashboard/transactions/export");
  // Around the chain's clock (time travel elsewhere may have moved it from the wall clock's).
  const now = Number((await client().getBlock()).timestamp) * 1000;
  url.searchParams.set("from", day(now, -150));
  url.searchParams.set("to", day(now, 150));
  const response = await exportMovements(new Request(url), undefined);
  expect(response.status).toBe(200);
  return csvObjects(await response.text()).rows;
}

describe("subscription charges are booked like payments", () => {
  test("a charge is a transaction of the merchant's (listed, with its subscription, status and confirmations) and a priced row of the accounting export", async () => {
    const s = await subscribed({ amount: "9.99" });
    expect((await run()).charged).toContain(s.sub.id);
    const hash = (await s.view()).charges[0].transaction_hash as string;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

    const list = await call(listTransactions, "GET", "/api/transactions/", { token: s.merchant.access });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.results).toEqual([
      { transaction_hash: hash, blockchain: "base", status: "pending", amount: "9.99", currency: "USDC", created_at: expect.any(String) },
    ]);

    await tick();
    let detail = await transaction(s.merchant, hash);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      transaction_hash: hash,
      payment_order: null,
      subscription: { id: s.sub.id, period: (await s.view()).charges[0].period },
      status: "pending",
      confirmations: 1,
      from_address: s.customer.account.address.toLowerCase(),
      to_address: s.merchantWallet.toLowerCase(),
      amount: "9.99",
      currency: "USDC",
      counted: true,
      not_counted_reason: null,
    });
    expect(detail.body.data.gas_used).toBeGreaterThan(0);

    // Deep enough for the merchant wallet's threshold: the charge and its transaction are confirmed.
    await net.testClient().mine({ blocks: 2 });
    expect((await run()).confirmed.length).toBe(1);
    await tick();
    detail = await transaction(s.merchant, hash);
    expect(detail.body.data).toMatchObject({ status: "confirmed", confirmations: 3 });
    expect((await call(listTransactions, "GET", "/api/transactions/", { token: s.merchant.access, query: { status: "confirmed" } })).body.count).toBe(1);

    // Priced at detection like any transfer: USDC/USD from the chain's feed, the feed's round and time beside it.
    await setFeed("USDC/USD", feedAnswer("USDC/USD"));
    await setFeed("ETH/USD", feedAnswer("ETH/USD"));
    await recordTransferPrices(testDb.db, base(), chainClient(base()), new Date());
    const rows = await movements(s.merchant);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      type: "payment",
      direction: "in",
      status: "confirmed",
      blockchain: "base",
      currency: "USDC",
      amount: "9.99",
      fiat_currency: "USD",
      rate_basis: "detected_price",
      tx_hash: hash,
      to_address: s.merchantWallet.toLowerCase(),
      order_id: "",
      gas_currency: "ETH",
    });
    expect(JSON.parse(row!.order_info!)).toEqual({ subscription: s.sub.id, period: detail.body.data.subscription.period });
    expect(Number(row!.fiat_amount)).toBeCloseTo((9.99 * Number(feedAnswer("USDC/USD"))) / 1e8, 2);
    expect(row!.rate_feeds).toMatch(/^USDC\/USD round \d+ at 0x/);
    expect(row!.rate_time).not.toBe("");
    expect(Number(row!.gas_fee)).toBeGreaterThan(0);
  });

  test("a fiat plan's charge is valued at the rate locked for its period; a charge reorged away reads failed (reorged) and leaves the export", async () => {
    await setFeed("USDC/USD", feedAnswer("USDC/USD"));
    await setFeed("EUR/USD", feedAnswer("EUR/USD"));
    const s = await subscribed({ price_amount: "10.00", price_currency: "EUR", max_amount: "12" }, 3);
    const snapshot = await net.testClient().snapshot();
    expect((await run()).charged).toContain(s.sub.id);
    const charge = (await s.view()).charges[0];
    const rows = await movements(s.merchant);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tx_hash: charge.transaction_hash,
      fiat_currency: "EUR",
      rate: charge.rate,
      rate_basis: "subscription_locked_rate",
      order_price: "10.00 EUR",
    });
    expect(Number(rows[0]!.fiat_amount)).toBeCloseTo(10, 2);
    expect(rows[0]!.rate_feeds).toContain("EUR/USD round");

    // The block holding the charge leaves the chain (another transaction of the gateway's key takes its place).
    await net.testClient().revert({ id: snapshot });
    const sweeper = net.wallet(devnetSweeper.privateKey);
    await client().waitForTransactionReceipt({ hash: await sweeper.sendTransaction({ to: sweeper.account.address, value: 0n }) });
    await net.testClient().mine({ blocks: 2 });
    const result = await run();
    expect(result.reorged).toContain(`${s.sub.id}#${charge.period}`);
    const detail = await transaction(s.merchant, charge.transaction_hash);
    expect(detail.body.data).toMatchObject({
      status: "failed",
      counted: false,
      not_counted_reason: "reorged",
      confirmations: 0,
      subscription: { id: s.sub.id },
    });
    // The period was charged again: that transfer is the one the export books.
    const again = (await s.view()).charges.find((c: { status: string }) => c.status !== "reorged");
    expect(again.transaction_hash).not.toBe(charge.transaction_hash);
    const after = await movements(s.merchant);
    expect(after.map((r) => r.tx_hash)).toEqual([again.transaction_hash]);
    const failed = await call(listTransactions, "GET", "/api/transactions/", { token: s.merchant.access, query: { status: "failed" } });
    expect(failed.body.results.map((r: { transaction_hash: string }) => r.transaction_hash)).toEqual([charge.transaction_hash]);
  });

  test("a charge reorged away whose very transaction is mined again is booked once, as the period's new charge", async () => {
    const s = await subscribed({ amount: "9.99" });
    // The first period deploys the pull contract and charges; the second is the one a reorg takes.
    expect((await run()).charged).toContain(s.sub.id);
    await net.testClient().increaseTime({ seconds: 31 * 86_400 });
    await net.testClient().mine({ blocks: 1 });
    const snapshot = await net.testClient().snapshot();
    expect((await run()).charged).toContain(s.sub.id);
    const first = (await s.view()).charges.find((c: { period: number }) => c.period === 1);
    // The charge's block leaves the chain and nothing takes its nonce: the gateway's record of the transaction
    // sends it again, so the same hash is mined in another block.
    await net.testClient().revert({ id: snapshot });
    await net.testClient().mine({ blocks: 2 });
    for (let i = 0; i < 5; i++) {
      await run();
      await net.testClient().mine({ blocks: 1 });
    }
    const charges = (await s.view()).charges as Array<{ period: number; status: string; transaction_hash: string }>;
    const live = charges.filter((c) => c.period === 1 && c.status !== "reorged");
    expect(live).toHaveLength(1);
    const booked = await movements(s.merchant);
    expect(booked.map((r) => r.tx_hash)).toContain(live[0]!.transaction_hash);
    expect(booked).toHaveLength(2);
    const detail = await transaction(s.merchant, live[0]!.transaction_hash);
    expect(detail.body.data.status).not.toBe("failed");
    expect(detail.body.data.subscription).toMatchObject({ id: s.sub.id });
    if (live[0]!.transaction_hash === first.transaction_hash) expect(charges.some((c) => c.status === "reorged")).toBe(true);
  });
});
