import { afterEach, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { createPublicClient, erc20Abi, http, type Address, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { POST as postPlan } from "@/app/api/subscription-plans/route";
import { POST as postSubscription } from "@/app/api/subscriptions/route";
import { GET as getSubscription } from "@/app/api/subscriptions/[id]/route";
import { GET as getHosted } from "@/app/api/hosted-subscriptions/[id]/route";
import { POST as authorizeHosted } from "@/app/api/hosted-subscriptions/[id]/authorize/route";
import { POST as confirmApproval } from "@/app/api/hosted-subscriptions/[id]/approval/route";
import { POST as cancelManaged } from "@/app/api/manage-subscription/cancel/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { permitTypes } from "@/lib/chains/subscription-pull";
import { auditLog, gaslessRelays, subscriptions } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { manageToken, subscriptionIdOfManageToken } from "@/lib/subscriptions/hosted";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { setDevnetRpcUrl } from "@/lib/chains/catalog";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const savedBudget = env.GASLESS_GAS_PER_MERCHANT_PER_HOUR;
afterEach(() => {
  env.GASLESS_GAS_PER_MERCHANT_PER_HOUR = savedBudget;
});

const client = () => createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl), pollingInterval: 50 });

/** A merchant with a wallet on base and a monthly plan in `currency`; a customer wallet with gas; the subscription the merchant made for it. */
async function subscription(currency = "USDC") {
  const merchant: TestMerchant = await createMerchant();
  await createWallet(merchant, { wallet_address: randomAddress() });
  const plan = await call(postPlan, "POST", "/api/subscription-plans/", {
    token: merchant.access,
    body: { name: "Reading club", blockchain: "base", currency, amount: "4.50", interval_days: 30, trial_days: 7, periods: 12 },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const customer = net.wallet(generatePrivateKey());
  const faucet = net.wallet(devnetAccounts[1].privateKey);
  await client().waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
  const sub = await call(postSubscription, "POST", "/api/subscriptions/", {
    token: merchant.access,
    body: { plan: plan.body.data.id, customer_address: customer.account.address },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const id = sub.body.data.id as string;
  const hosted = async () => call(getHosted, "GET", `/api/hosted-subscriptions/${id}/`, { params: { id } });
  const merchantView = async () => (await call(getSubscription, "GET", `/api/subscriptions/${id}/`, { token: merchant.access, params: { id } })).body.data;
  return { merchant, customer, id, sub: sub.body.data, hosted, merchantView };
}

type Permit = {
  domain: { name: string; version: string; chainId: number; verifyingContract: Address };
  message: { owner: string; spender: string; value: string; nonce: string; deadline: string };
};

function signPermit(wallet: ReturnType<typeof net.wallet>, permit: Permit) {
  const m = permit.message;
  return wallet.account.signTypedData({
    domain: permit.domain,
    types: permitTypes,
    primaryType: "Permit",
    message: { owner: m.owner as Address, spender: m.spender as Address, value: BigInt(m.value), nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) },
  });
}

describe("the hosted subscribe page's API", () => {
  test("public by the SUB id: the terms, the store and the permit to sign; unknown and malformed ids are 404", async () => {
    const s = await subscription();
    const res = await s.hosted();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: s.id,
      status: "trialing",
      plan_name: "Reading club",
      currency: "USDC",
      max_amount: "4.5",
      interval_days: 30,
      trial_days: 7,
      periods: 12,
      customer_address: s.customer.account.address,
      pull_address: s.sub.pull_address,
      authorized: false,
      blockchain: { slug: "base", chain_id: devnetChain.id },
      permit: {
        domain: { name: "USD Coin", version: "2", chainId: devnetChain.id, verifyingContract: devnetContracts.USDC },
        message: { owner: s.customer.account.address, spender: s.sub.pull_address, value: String(4_500_000n * 12n), nonce: "0" },
      },
    });
    expect(res.body.data.shop_name).toBeTruthy();
    // Nothing the merchant alone sees (the merchant's wallet is on chain anyway; the e-mail is not).
    expect(res.body.data).not.toHaveProperty("customer_email");
    for (const id of ["SUB-0000000000000000", "SUB-x", "PLN-0000000000000000"]) {
      expect((await call(getHosted, "GET", `/api/hosted-subscriptions/${id}/`, { params: { id } })).status).toBe(404);
    }
  });

  test("the customer's permit, relayed without an API key, deploys the contract once and answers the manage link; a stranger's signature is refused", async () => {
    const s = await subscription();
    const { permit } = (await s.hosted()).body.data as { permit: Permit };
    const deadline = Number(permit.message.deadline);
    const stranger = net.wallet(generatePrivateKey());
    const forged = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, {
      params: { id: s.id },
      body: { signature: await signPermit(stranger, permit), deadline },
    });
    expect(forged.status, JSON.stringify(forged.body)).toBe(400);
    expect(forged.body.error.details).toHaveProperty("signature");
    // A permit to another spender (a stranger's contract) does not pass as this subscription's.
    const elsewhere = await signPermit(s.customer, { ...permit, message: { ...permit.message, spender: randomAddress() } });
    const wrong = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, {
      params: { id: s.id },
      body: { signature: elsewhere, deadline },
    });
    expect(wrong.status).toBe(400);

    const signature = await signPermit(s.customer, permit);
    const ok = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, { params: { id: s.id }, body: { signature, deadline } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.manage_url).toMatch(new RegExp(`/subscribe/manage/${s.id}\\.[A-Za-z0-9_-]{43}$`));
    expect((await s.hosted()).body.data).toMatchObject({ authorized: true, permit: null });
    const allowance = await client().readContract({
      address: devnetContracts.USDC,
      abi: erc20Abi,
      functionName: "allowance",
      args: [s.customer.account.address, s.sub.pull_address],
    });
    expect(allowance).toBe(4_500_000n * 12n);
    const again = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, { params: { id: s.id }, body: { signature, deadline } });
    expect(again.status).toBe(409);
    // The terms the merchant fixed are what the contract holds: the merchant's view is unchanged.
    expect(await s.merchantView()).toMatchObject({ pull_address: s.sub.pull_address, merchant_address: s.sub.merchant_address, max_amount: "4.5" });
  });

  test("with the chain unreachable the permit is a 503 in the error envelope, nothing reserved, and goes through once it answers", async () => {
    const s = await subscription();
    const { permit } = (await s.hosted()).body.data as { permit: Permit };
    const signature = await signPermit(s.customer, permit);
    const body = { signature, deadline: Number(permit.message.deadline) };
    // A provider that refuses connections (a closed port), for real.
    setDevnetRpcUrl("http://127.0.0.1:9");
    try {
      const down = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, { params: { id: s.id }, body });
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      expect(down.body.error.code).toBe("SERVICE_UNAVAILABLE");
    } finally {
      setDevnetRpcUrl(net.rpcUrl);
    }
    const ok = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, { params: { id: s.id }, body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  test("the permit's gas counts against the gasless relay budgets: recorded once mined; over the merchant's hourly budget the permit is refused (429, nothing sent) and the approve path still works", async () => {
    const s = await subscription();
    const { permit } = (await s.hosted()).body.data as { permit: Permit };
    const ok = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, {
      params: { id: s.id },
      body: { signature: await signPermit(s.customer, permit), deadline: Number(permit.message.deadline) },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [row] = await testDb.db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.subscriptionId, s.id));
    const relays = await testDb.db.select().from(gaslessRelays).where(eq(gaslessRelays.subscriptionId, row!.id));
    expect(relays).toHaveLength(1);
    expect(relays[0]).toMatchObject({ status: "mined", paymentOrderId: null, merchantId: s.merchant.id });
    const receipt = await client().getTransactionReceipt({ hash: relays[0]!.txHash as Hex });
    expect(relays[0]!.gasUsed).toBe(receipt.gasUsed);
    expect(relays[0]!.costWei).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());

    // The merchant's budget for the hour leaves room for less than another permit: the next customer's is refused.
    env.GASLESS_GAS_PER_MERCHANT_PER_HOUR = Number(receipt.gasUsed) + 1_000;
    const customer = net.wallet(generatePrivateKey());
    const faucet = net.wallet(devnetAccounts[1].privateKey);
    await client().waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
    const second = await call(postSubscription, "POST", "/api/subscriptions/", {
      token: s.merchant.access,
      body: { plan: s.sub.plan, customer_address: customer.account.address },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const id = second.body.data.id as string;
    const secondPermit = (await call(getHosted, "GET", `/api/hosted-subscriptions/${id}/`, { params: { id } })).body.data.permit as Permit;
    const refused = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${id}/authorize/`, {
      params: { id },
      body: { signature: await signPermit(customer, secondPermit), deadline: Number(secondPermit.message.deadline) },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(refused.body.error.code).toBe("RELAY_BUDGET_EXHAUSTED");
    expect(refused.body.retry_after).toBeGreaterThan(0);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after));
    expect(await client().getCode({ address: second.body.data.pull_address })).toBeUndefined();
    expect(await testDb.db.select().from(gaslessRelays).where(eq(gaslessRelays.merchantId, s.merchant.id))).toHaveLength(1);

    // The customer pays the gas of an approve instead: the subscription is authorized all the same.
    const hash = await customer.writeContract({
      address: devnetContracts.USDC,
      abi: erc20Abi,
      functionName: "approve",
      args: [second.body.data.pull_address, BigInt(second.body.data.authorization.value)],
    });
    await client().waitForTransactionReceipt({ hash });
    const approved = await call(confirmApproval, "POST", `/api/hosted-subscriptions/${id}/approval/`, { params: { id }, body: { transaction_hash: hash } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.manage_url).toContain(id);
  });

  test("a token without permit: the customer's own approve, once mined, gives the manage link; anyone else's transaction does not", async () => {
    const s = await subscription("USDT");
    expect((await s.hosted()).body.data).toMatchObject({ authorization: { method: "approve" }, permit: null, authorized: false });
    const permitTry = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, {
      params: { id: s.id },
      body: { signature: `0x${"11".repeat(65)}`, deadline: 9_999_999_999 },
    });
    expect(permitTry.status).toBe(409);

    const stranger = net.wallet(devnetAccounts[1].privateKey);
    const theirs = await stranger.writeContract({
      address: devnetContracts.USDT,
      abi: erc20Abi,
      functionName: "approve",
      args: [s.sub.pull_address, 10n ** 9n],
    });
    await client().waitForTransactionReceipt({ hash: theirs });
    const refused = await call(confirmApproval, "POST", `/api/hosted-subscriptions/${s.id}/approval/`, {
      params: { id: s.id },
      body: { transaction_hash: theirs },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toHaveProperty("transaction_hash");
    const unknown = await call(confirmApproval, "POST", `/api/hosted-subscriptions/${s.id}/approval/`, {
      params: { id: s.id },
      body: { transaction_hash: `0x${"ab".repeat(32)}` },
    });
    expect(unknown.status).toBe(400);

    const hash: Hex = await s.customer.writeContract({
      address: devnetContracts.USDT,
      abi: erc20Abi,
      functionName: "approve",
      args: [s.sub.pull_address, BigInt(s.sub.authorization.value)],
    });
    await client().waitForTransactionReceipt({ hash });
    const ok = await call(confirmApproval, "POST", `/api/hosted-subscriptions/${s.id}/approval/`, { params: { id: s.id }, body: { transaction_hash: hash } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.manage_url).toContain(`/subscribe/manage/${s.id}.`);
    expect((await s.hosted()).body.data.authorized).toBe(true);
  });
});

describe("the manage link", () => {
  test("only a token this server signed names a subscription", () => {
    const id = "SUB-abcdefghijklmnop";
    const token = manageToken(id);
    expect(subscriptionIdOfManageToken(token)).toBe(id);
    expect(subscriptionIdOfManageToken(id)).toBeNull();
    expect(subscriptionIdOfManageToken(`${id}.`)).toBeNull();
    expect(subscriptionIdOfManageToken(`SUB-abcdefghijklmnoq.${token.split(".")[1]}`)).toBeNull();
    expect(subscriptionIdOfManageToken(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
  });

  test("the customer cancels with it: history and audit name the customer, the merchant sees canceled, a second cancel is 409, a forged token 404", async () => {
    const s = await subscription();
    const forged = await call(cancelManaged, "POST", "/api/manage-subscription/cancel/", { body: { token: `${s.id}.${"A".repeat(43)}` } });
    expect(forged.status).toBe(404);
    const bare = await call(cancelManaged, "POST", "/api/manage-subscription/cancel/", { body: { token: s.id } });
    expect(bare.status).toBe(404);
    expect((await s.merchantView()).status).toBe("trialing");

    const res = await call(cancelManaged, "POST", "/api/manage-subscription/cancel/", { body: { token: manageToken(s.id) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ id: s.id, status: "canceled" });
    const view = await s.merchantView();
    expect(view).toMatchObject({ status: "canceled", canceled_at: expect.any(String) });
    expect(view.history.at(-1)).toMatchObject({ kind: "canceled", status: "canceled", detail: { by: "customer" } });
    const audit = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, s.merchant.id), eq(auditLog.action, "subscription.canceled")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target: `subscription:${s.id}`, actorKind: "public", after: { status: "canceled", by: "customer" } });

    const again = await call(cancelManaged, "POST", "/api/manage-subscription/cancel/", { body: { token: manageToken(s.id) } });
    expect(again.status).toBe(409);
  });
});
