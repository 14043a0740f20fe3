import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { asc, eq } from "drizzle-orm";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { webhookDeliveries } from "@/lib/db/schema";
import { createPublicClient, erc20Abi, http, type Address } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { POST as postPlan } from "@/app/api/subscription-plans/route";
import { POST as postSubscription } from "@/app/api/subscriptions/route";
import { GET as getSubscription } from "@/app/api/subscriptions/[id]/route";
import { POST as cancelSubscription } from "@/app/api/subscriptions/[id]/cancel/route";
import { POST as authorizeSubscription } from "@/app/api/subscriptions/[id]/authorize/route";
import { permitTypedData } from "@/lib/chains/subscription-pull";
import { devnetContracts, devnetFeeds } from "@/lib/chains/catalog";
import { mockAggregatorArtifact, subscriptionPullArtifact, testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { DEVNET_DEPLOYER_PRIVATE_KEY, devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { fiatToTokenUnits } from "@/lib/pricing/convert";
import { chargeDueSubscriptions } from "@/lib/subscriptions/charge";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { startReceiver, type Receiver } from "../webhooks/support";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const DAY = 86_400;
const cap = 9_990_000n;

const client = () => createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl), pollingInterval: 50 });
const usdcBalance = (address: string) =>
  client().readContract({ address: devnetContracts.USDC, abi: erc20Abi, functionName: "balanceOf", args: [address as Address] });

async function advance(seconds: number) {
  await net.testClient().increaseTime({ seconds });
  await net.testClient().mine({ blocks: 1 });
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

/** The webhooks queued for the merchant, oldest first: type and sequence. */
async function queuedWebhooks(merchant: TestMerchant) {
  const rows = await testDb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, merchant.id)).orderBy(asc(webhookDeliveries.id));
  return rows.map((row) => {
    const body = JSON.parse(row.body) as { event: string; sequence: number; data: { status: string } };
    return `${body.event}#${body.sequence}:${body.data.status}`;
  });
}

const run = () => chargeDueSubscriptions(testDb.db, net.chain("base"));

type Charge = {
  period: number;
  status: string;
  amount: string;
  transaction_hash: `0x${string}` | null;
  block_number: number | null;
  confirmations: number;
  confirmation_threshold: number;
  rate: string | null;
  price_amount: string | null;
  price_currency: string | null;
  rate_source: { pair: string; answer: string }[] | null;
};

/** Sets a devnet price feed's answer (a new round at the chain's clock, so a feed read after time travel is fresh). */
async function setFeed(pair: (typeof devnetFeeds)[number]["pair"], answer: bigint) {
  const owner = net.wallet(DEVNET_DEPLOYER_PRIVATE_KEY);
  const address = net.chain("base").priceFeeds[pair]!.address;
  await client().waitForTransactionReceipt({
    hash: await owner.writeContract({ address, abi: mockAggregatorArtifact.abi, functionName: "setAnswer", args: [answer] }),
  });
}
const feedAnswer = (pair: string) => devnetFeeds.find((f) => f.pair === pair)!.answer;

/** A merchant with a wallet on base, a 30-day plan without trial, and a customer who subscribed and approved the pull contract; `funds` USDC in the customer's wallet. */
async function subscribed(options: { funds?: bigint; plan?: Record<string, unknown>; permit?: boolean; approve?: boolean; threshold?: number } = {}) {
  const merchant: TestMerchant = await createMerchant();
  const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/subscriptions") } });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const merchantWallet = randomAddress();
  await createWallet(merchant, { wallet_address: merchantWallet, ...(options.threshold ? { confirmation_threshold: options.threshold } : {}) });
  const planRes = await call(postPlan, "POST", "/api/subscription-plans/", {
    token: merchant.access,
    body: { name: "Pro", blockchain: "base", currency: "USDC", amount: "9.99", interval_days: 30, grace_days: 3, past_due_days: 7, ...options.plan },
  });
  expect(planRes.status, JSON.stringify(planRes.body)).toBe(201);
  const customer = net.wallet(generatePrivateKey());
  const faucet = net.wallet(devnetAccounts[1].privateKey);
  await client().waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
  if (options.funds) {
    await client().waitForTransactionReceipt({
      hash: await faucet.writeContract({
        address: devnetContracts.USDC,
        abi: testTokenArtifact.abi,
        functionName: "mint",
        args: [customer.account.address, options.funds],
      }),
    });
  }
  const subRes = await call(postSubscription, "POST", "/api/subscriptions/", {
    token: merchant.access,
    body: { plan: planRes.body.data.id, customer_address: customer.account.address },
  });
  expect(subRes.status, JSON.stringify(subRes.body)).toBe(201);
  const sub = subRes.body.data;
  if (options.permit) {
    // The customer signs once; the merchant relays it and the gateway pays the gas.
    const deadline = Number((await client().getBlock()).timestamp) + 3600;
    const nonce = await client().readContract({
      address: devnetContracts.USDC,
      abi: testTokenArtifact.abi,
      functionName: "nonces",
      args: [customer.account.address],
    });
    const signature = await customer.account.signTypedData(
      permitTypedData(
        { name: "USD Coin", version: "2", chainId: devnetChain.id, verifyingContract: devnetContracts.USDC },
        { owner: customer.account.address, spender: sub.pull_address, value: BigInt(sub.authorization.value), nonce, deadline: BigInt(deadline) },
      ),
    );
    const ethBefore = await client().getBalance({ address: customer.account.address });
    const authorized = await call(authorizeSubscription, "POST", `/api/subscriptions/${sub.id}/authorize/`, {
      token: merchant.access,
      params: { id: sub.id },
      body: { signature, deadline },
    });
    expect(authorized.status, JSON.stringify(authorized.body)).toBe(200);
    const again = await call(authorizeSubscription, "POST", `/api/subscriptions/${sub.id}/authorize/`, {
      token: merchant.access,
      params: { id: sub.id },
      body: { signature, deadline },
    });
    expect(again.status).toBe(409);
    expect(await client().getBalance({ address: customer.account.address })).toBe(ethBefore);
  } else if (options.approve !== false) {
    await client().waitForTransactionReceipt({
      hash: await customer.writeContract({
        address: devnetContracts.USDC,
        abi: erc20Abi,
        functionName: "approve",
        args: [sub.pull_address, BigInt(sub.authorization.value)],
      }),
    });
  }
  // The chain's clock may trail the wall clock the terms were fixed by: let it reach the start.
  const start = BigInt(Date.parse(sub.starts_at) / 1000);
  if ((await client().getBlock()).timestamp < start) {
    await net.testClient().setNextBlockTimestamp({ timestamp: start });
    await net.testClient().mine({ blocks: 1 });
  }
  const view = async () => (await call(getSubscription, "GET", `/api/subscriptions/${sub.id}/`, { token: merchant.access, params: { id: sub.id } })).body.data;
  return { merchant, merchantWallet, customer, sub, view };
}

describe("charging subscriptions on the devnet", () => {
  test("three periods charge exactly three times, however often the task runs (the customer signed one permit, and paid no gas for it)", async () => {
    const s = await subscribed({ funds: 100_000_000n, permit: true });
    for (let period = 0; period < 3; period++) {
      expect((await run()).charged).toContain(s.sub.id);
      expect((await run()).charged).not.toContain(s.sub.id);
      if (period < 2) await advance(30 * DAY);
    }
    await advance(10 * DAY);
    expect((await run()).charged).not.toContain(s.sub.id);
    // Blocks pile up: the last charge reaches the merchant wallet's threshold too.
    await net.testClient().mine({ blocks: 5 });
    expect((await run()).confirmed).toContain(`${s.sub.id}#2`);
    expect(await usdcBalance(s.merchantWallet)).toBe(3n * cap);
    const view = await s.view();
    expect(view).toMatchObject({ status: "active", periods_charged: 3 });
    expect(view.history.filter((e: { kind: string }) => e.kind === "charged").map((e: { detail: { period: number } }) => e.detail.period)).toEqual([0, 1, 2]);
    // Each charge is recorded like a payment: its transfer on chain, counted to the merchant wallet's threshold.
    expect(view.charges.map((c: Charge) => [c.period, c.amount, c.status])).toEqual([
      [0, "9.99", "confirmed"],
      [1, "9.99", "confirmed"],
      [2, "9.99", "confirmed"],
    ]);
    expect(new Set(view.charges.map((c: Charge) => c.transaction_hash)).size).toBe(3);
    for (const charge of view.charges as Charge[]) {
      const receipt = await client().getTransactionReceipt({ hash: charge.transaction_hash! });
      expect(receipt).toMatchObject({ status: "success", blockNumber: BigInt(charge.block_number!) });
      expect(receipt.to?.toLowerCase()).toBe(s.sub.pull_address.toLowerCase());
      expect(charge.confirmations).toBeGreaterThanOrEqual(charge.confirmation_threshold);
    }
    expect(await queuedWebhooks(s.merchant)).toEqual([
      "subscription.created#1:active",
      "subscription.charged#2:active",
      "subscription.charged#3:active",
      "subscription.charged#4:active",
    ]);
  });

  test("two instances at once charge a period once; a charge mined before a crash is recorded, not sent again", async () => {
    const s = await subscribed({ funds: 100_000_000n });
    const [a, b] = await Promise.all([run(), run()]);
    expect([...a.charged, ...b.charged].filter((id) => id === s.sub.id)).toHaveLength(1);
    expect(await usdcBalance(s.merchantWallet)).toBe(cap);

    // The gateway's charge of period 1 lands, then the process dies before recording it.
    await advance(30 * DAY);
    const operator = net.wallet(devnetAccounts[2].privateKey);
    await client().waitForTransactionReceipt({
      hash: await operator.writeContract({ address: s.sub.pull_address, abi: subscriptionPullArtifact.abi, functionName: "charge", args: [cap] }),
    });
    const operatorCharge = (await client().getBlock({ blockTag: "latest", includeTransactions: true })).transactions[0]!.hash;
    expect((await run()).charged).toContain(s.sub.id);
    expect(await usdcBalance(s.merchantWallet)).toBe(2n * cap);
    const view = await s.view();
    expect(view.periods_charged).toBe(2);
    // Found by the contract's Charged event: the transaction that charged it, recorded once.
    const first = view.charges[0].period;
    expect(view.charges.map((c: Charge) => [c.period, c.transaction_hash])).toEqual([
      [first, view.charges[0].transaction_hash],
      [first + 1, operatorCharge],
    ]);
  });

  test("an empty wallet: payment_failed, then past due after the grace days, then canceled after the past-due days", async () => {
    const s = await subscribed();
    expect((await run()).failed).toContain(s.sub.id);
    expect((await s.view()).status).toBe("active");
    await advance(3 * DAY + 60);
    expect((await run()).failed).toContain(s.sub.id);
    expect((await s.view()).status).toBe("past_due");
    await advance(7 * DAY + 60);
    await run();
    const view = await s.view();
    expect(view.status).toBe("canceled");
    expect(view.history.map((e: { kind: string }) => e.kind)).toEqual(["created", "payment_failed", "past_due", "canceled"]);
    expect(await queuedWebhooks(s.merchant)).toEqual([
      "subscription.created#1:active",
      "subscription.payment_failed#2:active",
      "subscription.past_due#3:past_due",
      "subscription.canceled#4:canceled",
    ]);
    expect(await usdcBalance(s.merchantWallet)).toBe(0n);
  });

  test("a revoked allowance stops charges", async () => {
    const s = await subscribed({ funds: 100_000_000n });
    expect((await run()).charged).toContain(s.sub.id);
    await client().waitForTransactionReceipt({
      hash: await s.customer.writeContract({ address: devnetContracts.USDC, abi: erc20Abi, functionName: "approve", args: [s.sub.pull_address, 0n] }),
    });
    await advance(30 * DAY);
    expect((await run()).failed).toContain(s.sub.id);
    expect(await usdcBalance(s.merchantWallet)).toBe(cap);
    const view = await s.view();
    expect(view.history.at(-1)).toMatchObject({ kind: "payment_failed", detail: { reason: "TokenTransferFailed" } });
  });

  test("a subscription the customer never authorized costs no gas: no contract is deployed, the period fails", async () => {
    const s = await subscribed({ funds: 100_000_000n, approve: false });
    const gateway = devnetSweeper.address;
    const nonceBefore = await client().getTransactionCount({ address: gateway });
    expect((await run()).failed).toContain(s.sub.id);
    expect(await client().getCode({ address: s.sub.pull_address })).toBeUndefined();
    expect(await client().getTransactionCount({ address: gateway })).toBe(nonceBefore);
    expect((await s.view()).history.at(-1)).toMatchObject({ kind: "payment_failed", detail: { reason: "TokenTransferFailed", allowance: "0" } });
    // Authorized later, within the grace days: the next attempt deploys and charges.
    await client().waitForTransactionReceipt({
      hash: await s.customer.writeContract({
        address: devnetContracts.USDC,
        abi: erc20Abi,
        functionName: "approve",
        args: [s.sub.pull_address, BigInt(s.sub.authorization.value)],
      }),
    });
    await advance(DAY);
    expect((await run()).charged).toContain(s.sub.id);
    expect(await usdcBalance(s.merchantWallet)).toBe(cap);
  });

  test("a merchant's cancel is carried to the contract, so a gateway key stolen later cannot charge it; past-due cancels too", async () => {
    const s = await subscribed({ funds: 100_000_000n });
    expect((await run()).charged).toContain(s.sub.id);
    const res = await call(cancelSubscription, "POST", `/api/subscriptions/${s.sub.id}/cancel/`, {
      token: s.merchant.access,
      params: { id: s.sub.id },
      body: {},
    });
    expect(res.status).toBe(200);
    await run();
    expect(await client().readContract({ address: s.sub.pull_address, abi: subscriptionPullArtifact.abi, functionName: "canceled" })).toBe(true);
    await advance(30 * DAY);
    const operator = net.wallet(devnetAccounts[2].privateKey);
    const refused = await client()
      .simulateContract({ account: operator.account, address: s.sub.pull_address, abi: subscriptionPullArtifact.abi, functionName: "charge", args: [cap] })
      .catch((e: unknown) => e);
    expect(String(refused)).toContain("SubscriptionCanceled");
    expect((await run()).charged).not.toContain(s.sub.id);

    // Canceled after its past-due days: the contract is cancelled as well.
    const empty = await subscribed();
    await run();
    await advance(10 * DAY + 120);
    await run();
    await run();
    expect((await empty.view()).status).toBe("canceled");
    await run();
    expect(await client().readContract({ address: empty.sub.pull_address, abi: subscriptionPullArtifact.abi, functionName: "canceled" })).toBe(true);
  });

  test("a fiat plan charges each period its price at that period's rate, records the rate, and fails a period whose price passes the cap", async () => {
    const s = await subscribed({
      funds: 100_000_000n,
      plan: { amount: undefined, price_amount: "10.00", price_currency: "EUR", max_amount: "12" },
    });
    try {
      await setFeed("USDC/USD", feedAnswer("USDC/USD"));
      await setFeed("EUR/USD", feedAnswer("EUR/USD"));
      expect((await run()).charged).toContain(s.sub.id);
      await advance(30 * DAY);
      // A month later the euro is dearer: the same price is more USDC.
      await setFeed("USDC/USD", feedAnswer("USDC/USD"));
      await setFeed("EUR/USD", 110_000_000n);
      expect((await run()).charged).toContain(s.sub.id);
      await advance(30 * DAY);
      // Dearer still: 10 EUR would be more than the 12 USDC the customer agreed to; nothing is taken.
      await setFeed("USDC/USD", feedAnswer("USDC/USD"));
      await setFeed("EUR/USD", 125_000_000n);
      expect((await run()).failed).toContain(s.sub.id);
    } finally {
      await setFeed("EUR/USD", feedAnswer("EUR/USD"));
    }
    const units = (eurUsd: bigint) => fiatToTokenUnits(1000n, 2, { answer: feedAnswer("USDC/USD"), decimals: 8 }, { answer: eurUsd, decimals: 8 }, 6);
    const first = units(feedAnswer("EUR/USD"));
    const second = units(110_000_000n);
    expect(first).not.toBe(second);
    expect(await usdcBalance(s.merchantWallet)).toBe(first + second);
    const view = await s.view();
    expect(view.periods_charged).toBe(2);
    const p = view.charges[0].period;
    expect(view.charges.map((c: Charge) => [c.period, c.amount, c.price_amount, c.price_currency, c.rate_source?.map((r) => r.pair)])).toEqual([
      [p, (Number(first) / 1e6).toString(), "10.00", "EUR", ["USDC/USD", "EUR/USD"]],
      [p + 1, (Number(second) / 1e6).toString(), "10.00", "EUR", ["USDC/USD", "EUR/USD"]],
    ]);
    expect(view.charges[1].rate_source.find((r: { pair: string }) => r.pair === "EUR/USD").answer).toBe("110000000");
    expect(Number(view.charges[0].rate)).toBeCloseTo(0.9998 / 1.0842, 6);
    expect(view.history.at(-1)).toMatchObject({ kind: "payment_failed", detail: { reason: "price_above_cap" } });
  });

  test("a charge reorged away is marked reorged, the history and webhook say so, and the period is charged again once", async () => {
    const s = await subscribed({ funds: 100_000_000n, threshold: 3 });
    const snapshot = await net.testClient().snapshot();
    expect((await run()).charged).toContain(s.sub.id);
    let view = await s.view();
    const p = view.charges[0]?.period;
    expect(view.charges).toMatchObject([{ period: p, status: "pending", confirmations: 1, confirmation_threshold: 3 }]);
    const reorgedHash = view.charges[0].transaction_hash;
    // The block holding the charge leaves the chain; a longer chain without it replaces it (where
    // another transaction of the gateway's key took its nonce).
    await net.testClient().revert({ id: snapshot });
    const sweeper = net.wallet(devnetSweeper.privateKey);
    await client().waitForTransactionReceipt({ hash: await sweeper.sendTransaction({ to: sweeper.account.address, value: 0n }) });
    await net.testClient().mine({ blocks: 2 });
    expect(
      await client()
        .getTransactionReceipt({ hash: reorgedHash })
        .catch(() => null),
    ).toBeNull();
    expect(await usdcBalance(s.merchantWallet)).toBe(0n);

    const result = await run();
    expect(result.reorged).toContain(`${s.sub.id}#${p}`);
    expect(result.charged).toContain(s.sub.id);
    expect((await run()).charged).not.toContain(s.sub.id);
    await net.testClient().mine({ blocks: 3 });
    expect((await run()).confirmed).toContain(`${s.sub.id}#${p}`);
    expect(await usdcBalance(s.merchantWallet)).toBe(cap);
    view = await s.view();
    expect(view.periods_charged).toBe(1);
    expect(view.charges.map((c: Charge) => [c.period, c.status])).toEqual([
      [p, "reorged"],
      [p, "confirmed"],
    ]);
    expect(view.charges[0].transaction_hash).toBe(reorgedHash);
    expect(view.charges[1].transaction_hash).not.toBe(reorgedHash);
    expect(view.history.map((e: { kind: string }) => e.kind)).toEqual(["created", "charged", "charge_reorged", "charged"]);
    expect(view.history[2].detail).toMatchObject({ period: p, tx_hash: reorgedHash });
    expect(await queuedWebhooks(s.merchant)).toEqual([
      "subscription.created#1:active",
      "subscription.charged#2:active",
      "subscription.charge_reorged#3:active",
      "subscription.charged#4:active",
    ]);
  });
});
