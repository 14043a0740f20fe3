import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as postPlan } from "@/app/api/subscription-plans/route";
import { GET as getPlan, PATCH as patchPlan } from "@/app/api/subscription-plans/[id]/route";
import { GET as getSubscription } from "@/app/api/subscriptions/[id]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { GET as getPublicPlan } from "@/app/api/hosted-plans/[planId]/route";
import { POST as startSubscription } from "@/app/api/hosted-plans/[planId]/subscriptions/route";
import { auditLog, webhookDeliveries } from "@/lib/db/schema";
import { planLinkMerchantWaitingCap, planLinkWaitingCap } from "@/lib/subscriptions/plan-link";
import { POST as postSubscription } from "@/app/api/subscriptions/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { startReceiver, type Receiver } from "../../webhooks/support";

const testDb = setupTestDatabase();

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const monthly = { name: "Tea of the month", blockchain: "base", currency: "USDC", amount: "7.50", interval_days: 30, trial_days: 7, periods: 12 };

async function newPlan(merchant: TestMerchant, body: Record<string, unknown> = monthly) {
  const res = await call(postPlan, "POST", "/api/subscription-plans/", { token: merchant.access, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; public_link: boolean; public_url: string | null; status: string };
}

const patch = (merchant: TestMerchant, id: string, body: unknown) =>
  call(patchPlan, "PATCH", `/api/subscription-plans/${id}/`, { token: merchant.access, params: { id }, body });
const view = (planId: string, ip?: string) => call(getPublicPlan, "GET", `/api/hosted-plans/${planId}/`, { params: { planId }, ip });
const start = (planId: string, body: unknown, ip?: string) =>
  call(startSubscription, "POST", `/api/hosted-plans/${planId}/subscriptions/`, { params: { planId }, body, ip });

/** A merchant with a wallet on base and a plan whose public link is on. */
async function sharedPlan(body: Record<string, unknown> = { ...monthly, public_link: true }) {
  const merchant = await createMerchant({ shop_name: "Kettle & Leaf" });
  await createWallet(merchant, { wallet_address: randomAddress() });
  return { merchant, plan: await newPlan(merchant, body) };
}

describe("a plan's public subscribe link", () => {
  test("off by default: no public_url, and the public view and subscribe answer 404 as for an unknown plan", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { wallet_address: randomAddress() });
    const plan = await newPlan(merchant);
    expect(plan).toMatchObject({ public_link: false, public_url: null });
    for (const res of [await view(plan.id), await start(plan.id, { customer_address: randomAddress() })]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
    }
    // Malformed and unknown ids alike.
    expect((await view("PLN-0000000000000000")).status).toBe(404);
    expect((await view("not-a-plan")).status).toBe(404);
  });

  test("switched on by PATCH (audited): public_url names the page; the public view shows the terms and the store", async () => {
    const merchant = await createMerchant({ shop_name: "Kettle & Leaf" });
    await createWallet(merchant, { wallet_address: randomAddress() });
    const plan = await newPlan(merchant);
    const on = await patch(merchant, plan.id, { public_link: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.data).toMatchObject({ id: plan.id, public_link: true, public_url: `http://localhost:3000/subscribe/plan/${plan.id}`, status: "active" });
    expect((await call(getPlan, "GET", `/api/subscription-plans/${plan.id}/`, { token: merchant.access, params: { id: plan.id } })).body.data).toMatchObject({
      public_link: true,
    });
    const res = await view(plan.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      id: plan.id,
      name: "Tea of the month",
      status: "active",
      shop_name: "Kettle & Leaf",
      brand: { accent_color: null, logo_url: null, support_email: null, support_url: null },
      blockchain: { slug: "base", name: expect.any(String), chain_id: expect.any(Number) },
      currency: "USDC",
      amount: "7.50",
      price_amount: null,
      price_currency: null,
      max_amount: "7.5",
      interval_days: 30,
      trial_days: 7,
      periods: 12,
      first_charge_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // A subscription started now is first charged after the 7-day trial.
    expect(Date.parse(res.body.data.first_charge_at) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    const audit = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, merchant.id), eq(auditLog.action, "subscription_plan.updated")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ before: { public_link: false, status: "active" }, after: { public_link: true, status: "active" } });

    // And off again: 404 from then on.
    expect((await patch(merchant, plan.id, { public_link: false })).body.data).toMatchObject({ public_link: false, public_url: null });
    expect((await view(plan.id)).status).toBe(404);
  });

  test("a customer starts their own subscription: its hosted page, the merchant's subscription.created webhook event; coming back gets the same one", async () => {
    const { merchant, plan } = await sharedPlan();
    const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/plan-link") } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const customer = randomAddress();
    const res = await start(plan.id, { customer_address: customer.toLowerCase(), customer_email: "lin@example.com" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { id, subscribe_url } = res.body.data as { id: string; subscribe_url: string };
    expect(id).toMatch(/^SUB-[0-9A-Za-z]{16}$/);
    expect(subscribe_url).toBe(`http://localhost:3000/subscribe/${id}`);
    const sub = await call(getSubscription, "GET", `/api/subscriptions/${id}/`, { token: merchant.access, params: { id } });
    expect(sub.body.data).toMatchObject({ id, plan: plan.id, status: "trialing", customer_address: customer, customer_email: "lin@example.com" });
    expect(sub.body.data.history).toEqual([expect.objectContaining({ kind: "created" })]);
    const deliveries = async () =>
      (await testDb.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.merchantId, merchant.id)))
        .filter((d) => d.eventType === "subscription.created")
        .map((d) => (JSON.parse(d.body) as { data: { id: string } }).data.id);
    expect(await deliveries()).toEqual([id]);

    // The same wallet and mail address again (a reload, a second click): the same subscription, no second event.
    const again = await start(plan.id, { customer_address: customer, customer_email: "lin@example.com" });
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(id);
    // Another mail address is another subscription (the first one's mail never goes elsewhere).
    const other = await start(plan.id, { customer_address: customer });
    expect(other.body.data.id).not.toBe(id);
    expect((await deliveries()).sort()).toEqual([id, other.body.data.id].sort());
  });

  test("bad input is 400 in the error envelope, naming the field", async () => {
    const { plan } = await sharedPlan();
    const bad = await start(plan.id, { customer_address: "0x1234", customer_email: "not-mail" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    expect(Object.keys(bad.body.error.details).sort()).toEqual(["customer_address", "customer_email"]);
    const raw = await call(startSubscription, "POST", `/api/hosted-plans/${plan.id}/subscriptions/`, { params: { planId: plan.id }, rawBody: "{" });
    expect(raw.status).toBe(400);
    expect(raw.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
  });

  test("PATCH: bad bodies are 400, another merchant's plan is 404 and stays as it was; the public link never shows whose plan it is not", async () => {
    const { merchant, plan } = await sharedPlan({ ...monthly, public_link: false });
    const mallory = await createMerchant();
    const foreign = await patch(mallory, plan.id, { public_link: true });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
    expect((await view(plan.id)).status).toBe(404);
    for (const body of [{}, { public_link: "yes" }, { status: "deleted" }]) {
      const res = await patch(merchant, plan.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
    }
    expect((await call(patchPlan, "PATCH", `/api/subscription-plans/${plan.id}/`, { params: { id: plan.id }, body: { public_link: true } })).status).toBe(401);
  });

  test("an archived plan: its public view says so (status archived), and subscribing by the link is 409 CONFLICT", async () => {
    const { merchant, plan } = await sharedPlan();
    const archived = await patch(merchant, plan.id, { status: "archived" });
    expect(archived.body.data).toMatchObject({ status: "archived", public_link: true });
    expect((await view(plan.id)).body.data).toMatchObject({ status: "archived" });
    const res = await start(plan.id, { customer_address: randomAddress() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: { code: "CONFLICT" } });
  });

  test("a merchant without a wallet on the plan's chain: 400 WALLET_NOT_CONFIGURED, not 500", async () => {
    // A plan needs no wallet; a subscription does.
    const merchant = await createMerchant();
    const plan = await newPlan(merchant, { ...monthly, public_link: true });
    const res = await start(plan.id, { customer_address: randomAddress() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: "WALLET_NOT_CONFIGURED" } });
  });

  test(`limited per client address, and at ${planLinkWaitingCap} waiting subscriptions a day per plan`, async () => {
    const { plan } = await sharedPlan();
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await start(plan.id, { customer_address: randomAddress() }, "198.51.100.23")).status;
    expect(last).toBe(429);
    const limited = await start(plan.id, { customer_address: randomAddress() }, "198.51.100.23");
    expect(limited.body).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);

    // From many addresses: the plan stops at its cap of subscriptions waiting for their signature.
    const { plan: other } = await sharedPlan();
    for (let i = 0; i < planLinkWaitingCap; i++) {
      const res = await start(other.id, { customer_address: randomAddress() }, `192.0.2.${1 + (i % 10)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const capped = await start(other.id, { customer_address: randomAddress() }, "192.0.2.200");
    expect(capped.status).toBe(429);
    expect(capped.body).toMatchObject({ success: false, error: { code: "RATE_LIMITED" } });
  });

  test(`at most ${planLinkMerchantWaitingCap} waiting across all of a merchant's shared plans, held when requests come at once`, async () => {
    const { merchant, plan: first } = await sharedPlan();
    const second = await newPlan(merchant, { ...monthly, name: "Second flush", public_link: true });
    // Waiting subscriptions of a shared plan, made by the merchant, up to two short of the merchant-wide cap.
    for (let i = 0; i < planLinkMerchantWaitingCap - 2; i++) {
      const res = await call(postSubscription, "POST", "/api/subscriptions/", {
        token: merchant.access,
        body: { plan: second.id, customer_address: randomAddress() },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // The other plan is far below its own cap; six strangers at once get the two places left, no more.
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => start(first.id, { customer_address: randomAddress() }, `203.0.113.${10 + i}`).then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  });
});
