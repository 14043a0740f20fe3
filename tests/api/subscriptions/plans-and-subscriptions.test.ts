import { describe, expect, test } from "vitest";
import { and, eq, like } from "drizzle-orm";
import { keccak256, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { GET as listPlans, POST as postPlan } from "@/app/api/subscription-plans/route";
import { GET as getPlan } from "@/app/api/subscription-plans/[id]/route";
import { GET as listSubscriptions, POST as postSubscription } from "@/app/api/subscriptions/route";
import { GET as getSubscription } from "@/app/api/subscriptions/[id]/route";
import { POST as cancelSubscription } from "@/app/api/subscriptions/[id]/cancel/route";
import { POST as pauseSubscription } from "@/app/api/subscriptions/[id]/pause/route";
import { POST as resumeSubscription } from "@/app/api/subscriptions/[id]/resume/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { devnetAccounts } from "@/lib/chains/devnet";
import { subscriptionPullAddress } from "@/lib/chains/subscription-pull";
import { auditLog } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();

const monthly = { name: "Pro, monthly", blockchain: "base", currency: "usdc", amount: "9.99", interval_days: 30, trial_days: 7 };

async function newPlan(merchant: TestMerchant, body: Record<string, unknown> = monthly) {
  const res = await call(postPlan, "POST", "/api/subscription-plans/", { token: merchant.access, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function subscribe(merchant: TestMerchant, plan: string, customer = randomAddress()) {
  const res = await call(postSubscription, "POST", "/api/subscriptions/", {
    token: merchant.access,
    body: { plan, customer_address: customer, customer_email: "ada@example.com" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("subscription plans", () => {
  test("POST, GET and list, scoped to the merchant; the cap is the amount, in base units at the token's decimals", async () => {
    const alice = await createMerchant();
    const bob = await createMerchant();
    const plan = await newPlan(alice);
    expect(plan).toMatchObject({
      id: expect.stringMatching(/^PLN-/),
      blockchain: "base",
      currency: "USDC",
      amount: "9.99",
      max_amount: "9.99",
      interval_days: 30,
      trial_days: 7,
      grace_days: 3,
      past_due_days: 7,
      periods: null,
      status: "active",
    });
    // No plan-wide subscribe page (yet): a plan answers no subscribe_url that would lead to a 404.
    expect(plan).not.toHaveProperty("subscribe_url");
    const params = { id: plan.id };
    expect((await call(getPlan, "GET", `/api/subscription-plans/${plan.id}/`, { token: alice.access, params })).body.data).toEqual(plan);
    expect((await call(getPlan, "GET", `/api/subscription-plans/${plan.id}/`, { token: bob.access, params })).status).toBe(404);
    expect((await call(listPlans, "GET", "/api/subscription-plans/", { token: alice.access })).body).toMatchObject({ count: 1, results: [plan] });
    expect((await call(listPlans, "GET", "/api/subscription-plans/", { token: bob.access })).body.count).toBe(0);

    const fiat = await newPlan(alice, {
      name: "Club",
      blockchain: "base",
      currency: "USDC",
      price_amount: "10.00",
      price_currency: "eur",
      max_amount: "12",
      interval_days: 30,
      periods: 12,
    });
    expect(fiat).toMatchObject({ amount: null, price_amount: "10.00", price_currency: "EUR", max_amount: "12", periods: 12 });
  });

  test("terms that cannot be charged are 400 with the field named", async () => {
    const alice = await createMerchant();
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ ...monthly, currency: "ETH" }, "UNSUPPORTED_CURRENCY"],
      [{ ...monthly, blockchain: "solana" }, "INVALID_BLOCKCHAIN"],
      [{ ...monthly, amount: "9.9999999" }, "INVALID_AMOUNT"],
      [{ ...monthly, grace_days: 30 }, "VALIDATION_ERROR", "grace_days"],
      [{ ...monthly, amount: undefined, price_amount: "10", price_currency: "EUR" }, "VALIDATION_ERROR", "max_amount"],
      [{ ...monthly, price_amount: "10", price_currency: "EUR", max_amount: "12" }, "VALIDATION_ERROR", "amount"],
      [{ ...monthly, amount: undefined, price_amount: "10", price_currency: "XYZ", max_amount: "12" }, "UNSUPPORTED_PRICE_CURRENCY"],
      [{ ...monthly, interval_days: 0 }, "VALIDATION_ERROR", "interval_days"],
    ];
    for (const [body, code, field] of cases) {
      const res = await call(postPlan, "POST", "/api/subscription-plans/", { token: alice.access, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code ?? res.body.error?.code, JSON.stringify(res.body)).toBe(code);
      if (field) expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(field);
    }
  });
});

describe("subscriptions", () => {
  test("POST fixes the terms: the merchant's wallet, the gateway key, the cap, the trial's end; pull_address is the CREATE2 address of exactly those terms", async () => {
    const alice = await createMerchant();
    const plan = await newPlan(alice);
    const refused = await call(postSubscription, "POST", "/api/subscriptions/", {
      token: alice.access,
      body: { plan: plan.id, customer_address: randomAddress() },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("WALLET_NOT_CONFIGURED");

    const wallet = await createWallet(alice);
    const customer = randomAddress();
    const before = Date.now();
    const sub = await subscribe(alice, plan.id, customer);
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^SUB-/),
      plan: plan.id,
      status: "trialing",
      blockchain: "base",
      currency: "USDC",
      customer_address: customer,
      merchant_address: wallet.wallet_address,
      max_amount: "9.99",
      interval_days: 30,
      ends_at: null,
      customer_email: "ada@example.com",
      periods_charged: 0,
      canceled_at: null,
      authorization: { method: "permit", spender: sub.pull_address, token: devnetContracts.USDC, value: (9_990_000n * 120n).toString() },
    });
    const startsAt = Date.parse(sub.starts_at);
    expect(startsAt).toBeGreaterThanOrEqual(before - 1000 + 7 * 86_400_000);
    expect(startsAt).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    const expected = subscriptionPullAddress(devnetContracts.subscriptionFactory, {
      token: devnetContracts.USDC,
      subscriber: customer as Address,
      merchant: wallet.wallet_address as Address,
      operator: privateKeyToAccount(devnetAccounts[2].privateKey as Hex).address,
      maxAmountPerPeriod: 9_990_000n,
      period: 30n * 86_400n,
      start: BigInt(startsAt / 1000),
      end: 0n,
      id: keccak256(toHex(sub.id)),
    });
    expect(sub.pull_address).toBe(expected);
  });

  test("list filters by status, plan and customer; GET has the history; another merchant sees none of it", async () => {
    const alice = await createMerchant();
    const bob = await createMerchant();
    await createWallet(alice);
    const trial = await newPlan(alice);
    const noTrial = await newPlan(alice, { ...monthly, trial_days: 0 });
    const customer = randomAddress();
    const a = await subscribe(alice, trial.id, customer);
    const b = await subscribe(alice, noTrial.id);
    expect(b.status).toBe("active");
    const list = async (query: Record<string, string>, who = alice) =>
      (await call(listSubscriptions, "GET", `/api/subscriptions/?${new URLSearchParams(query)}`, { token: who.access })).body;
    expect((await list({})).count).toBe(2);
    expect((await list({ status: "trialing" })).results.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await list({ plan: noTrial.id })).results.map((s: { id: string }) => s.id)).toEqual([b.id]);
    expect((await list({ customer_address: customer.toLowerCase() })).results.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await call(listSubscriptions, "GET", "/api/subscriptions/?status=sleeping", { token: alice.access })).status).toBe(400);
    expect((await list({}, bob)).count).toBe(0);

    const one = await call(getSubscription, "GET", `/api/subscriptions/${a.id}/`, { token: alice.access, params: { id: a.id } });
    expect(one.body.data.history).toEqual([{ kind: "created", status: "trialing", detail: { plan: trial.id }, created_at: a.created_at }]);
    expect((await call(getSubscription, "GET", `/api/subscriptions/${a.id}/`, { token: bob.access, params: { id: a.id } })).status).toBe(404);
  });

  test("the merchant pauses, resumes and cancels, each in the history and the audit log; a canceled subscription stays canceled (409)", async () => {
    const alice = await createMerchant();
    await createWallet(alice);
    const plan = await newPlan(alice, { ...monthly, trial_days: 0 });
    const sub = await subscribe(alice, plan.id);
    const params = { id: sub.id };
    const act = (handler: typeof pauseSubscription, path: string, body?: Record<string, unknown>) =>
      call(handler, "POST", `/api/subscriptions/${sub.id}/${path}/`, { token: alice.access, params, ...(body ? { body } : {}) });

    expect((await act(resumeSubscription, "resume")).status).toBe(409);
    const paused = await act(pauseSubscription, "pause");
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data.status).toBe("paused");
    expect((await act(resumeSubscription, "resume")).body.data.status).toBe("active");
    const canceled = await act(cancelSubscription, "cancel", { reason: "customer asked by phone" });
    expect(canceled.body.data).toMatchObject({ status: "canceled", canceled_at: expect.any(String) });
    expect(canceled.body.data.history.map((e: { kind: string; status: string }) => `${e.kind}:${e.status}`)).toEqual([
      "created:active",
      "paused:paused",
      "resumed:active",
      "canceled:canceled",
    ]);
    expect(canceled.body.data.history[3].detail).toEqual({ reason: "customer asked by phone" });
    for (const [handler, path] of [
      [cancelSubscription, "cancel"],
      [pauseSubscription, "pause"],
      [resumeSubscription, "resume"],
    ] as const) {
      const again = await act(handler, path);
      expect(again.status).toBe(409);
    }

    const audit = await testDb.db
      .select({ action: auditLog.action, target: auditLog.target })
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, alice.id), like(auditLog.action, "subscription%")));
    expect(audit.map((e) => e.action).sort()).toEqual(
      ["subscription.canceled", "subscription.created", "subscription.paused", "subscription.resumed", "subscription_plan.created"].sort(),
    );
    expect(audit.every((e) => e.target?.endsWith(sub.id) || e.target?.endsWith(plan.id))).toBe(true);
  });

  test("a read-only key lists but cannot create, pause or cancel (403)", async () => {
    const alice = await createMerchant();
    await createWallet(alice);
    const plan = await newPlan(alice);
    const sub = await subscribe(alice, plan.id);
    const { key } = await createApiKeyFor(alice, { preset: "read_only" });
    expect((await call(listSubscriptions, "GET", "/api/subscriptions/", { token: key })).status).toBe(200);
    expect((await call(postPlan, "POST", "/api/subscription-plans/", { token: key, body: monthly })).status).toBe(403);
    expect(
      (await call(postSubscription, "POST", "/api/subscriptions/", { token: key, body: { plan: plan.id, customer_address: randomAddress() } })).status,
    ).toBe(403);
    expect((await call(cancelSubscription, "POST", `/api/subscriptions/${sub.id}/cancel/`, { token: key, params: { id: sub.id }, body: {} })).status).toBe(403);
  });
});
