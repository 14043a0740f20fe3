/**
 * Issues 53 + 55: mail to a subscription's customer, at `customer_email`, through the stores'
 * customer-mail path and a real SMTP server: the manage link once the allowance is in place, a
 * receipt per confirmed charge, notices when past due and canceled; each once, however many runs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { createPublicClient, erc20Abi, http, type Address, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { POST as postPlan } from "@/app/api/subscription-plans/route";
import { POST as postSubscription } from "@/app/api/subscriptions/route";
import { GET as getHosted } from "@/app/api/hosted-subscriptions/[id]/route";
import { POST as authorizeHosted } from "@/app/api/hosted-subscriptions/[id]/authorize/route";
import { POST as confirmApproval } from "@/app/api/hosted-subscriptions/[id]/approval/route";
import { POST as cancelManaged } from "@/app/api/manage-subscription/cancel/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { permitTypes } from "@/lib/chains/subscription-pull";
import { mailOutbox } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { unsubscribe, unsubscribeToken } from "@/lib/mail/customer-mail";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { chargeDueSubscriptions } from "@/lib/subscriptions/charge";
import { sendDueSubscriptionMails } from "@/lib/subscriptions/customer-mail";
import { manageToken } from "@/lib/subscriptions/hosted";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, randomAddress, uniqueName, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { startSmtpSink } from "../helpers/smtp-sink";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const DAY = 86_400;

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const smtpUrlBefore = env.SMTP_URL;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
beforeEach(() => {
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await settleBackgroundMail();
  env.SMTP_URL = smtpUrlBefore;
  await smtp.close();
});

const client = () => createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl), pollingInterval: 50 });
const charge = () => chargeDueSubscriptions(testDb.db, net.chain("base"));
/** One pass of the mail task; what it sent for subscription `id` (other tests' subscriptions share the database). */
const mailPass = async (id: string) => (await sendDueSubscriptionMails(testDb.db)).filter((sent) => sent.startsWith(`${id}:`));

async function advance(seconds: number) {
  await net.testClient().increaseTime({ seconds });
  await net.testClient().mine({ blocks: 1 });
}

/** A merchant with a wallet on base (threshold 1) and a 30-day plan in `currency`; a customer wallet with gas and `funds`; the subscription made for it with an address. */
async function subscription(
  options: { currency?: "USDC" | "USDT"; funds?: bigint; email?: string | null; merchant?: TestMerchant; customerLocale?: string } = {},
) {
  const currency = options.currency ?? "USDC";
  const merchant: TestMerchant = options.merchant ?? (await createMerchant());
  if (!options.merchant) await createWallet(merchant, { wallet_address: randomAddress(), confirmation_threshold: 1 });
  const plan = await call(postPlan, "POST", "/api/subscription-plans/", {
    token: merchant.access,
    body: { name: "Reading club", blockchain: "base", currency, amount: "4.50", interval_days: 30, grace_days: 3, past_due_days: 7 },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const customer = net.wallet(generatePrivateKey());
  const faucet = net.wallet(devnetAccounts[1].privateKey);
  await client().waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
  if (options.funds) {
    await client().waitForTransactionReceipt({
      hash: await faucet.writeContract({
        address: devnetContracts[currency],
        abi: testTokenArtifact.abi,
        functionName: "mint",
        args: [customer.account.address, options.funds],
      }),
    });
  }
  const email = options.email === undefined ? `${uniqueName("subscriber")}@example.com` : options.email;
  const sub = await call(postSubscription, "POST", "/api/subscriptions/", {
    token: merchant.access,
    body: {
      plan: plan.body.data.id,
      customer_address: customer.account.address,
      ...(email ? { customer_email: email } : {}),
      ...(options.customerLocale ? { customer_locale: options.customerLocale } : {}),
    },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  const id = sub.body.data.id as string;
  // The chain's clock may trail the wall clock the terms were fixed by: let it reach the start.
  const start = BigInt(Date.parse(sub.body.data.starts_at) / 1000);
  if ((await client().getBlock()).timestamp < start) {
    await net.testClient().setNextBlockTimestamp({ timestamp: start });
    await net.testClient().mine({ blocks: 1 });
  }
  return { merchant, customer, id, email: email ?? "", sub: sub.body.data };
}

type Permit = { domain: { name: string; version: string; chainId: number; verifyingContract: Address }; message: Record<string, string> };

/** The customer signs the permit the hosted page shows, and the page relays it (no API key). */
async function authorizeWithPermit(s: Awaited<ReturnType<typeof subscription>>, headers: Record<string, string> = {}) {
  const { permit } = (await call(getHosted, "GET", `/api/hosted-subscriptions/${s.id}/`, { params: { id: s.id } })).body.data as { permit: Permit };
  const m = permit.message;
  const signature = await s.customer.account.signTypedData({
    domain: permit.domain,
    types: permitTypes,
    primaryType: "Permit",
    message: { owner: m.owner as Address, spender: m.spender as Address, value: BigInt(m.value!), nonce: BigInt(m.nonce!), deadline: BigInt(m.deadline!) },
  });
  const res = await call(authorizeHosted, "POST", `/api/hosted-subscriptions/${s.id}/authorize/`, {
    params: { id: s.id },
    body: { signature, deadline: Number(m.deadline) },
    headers,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.manage_url as string;
}

describe("mail to a subscription's customer", () => {
  test("the manage link once authorized, a receipt for the confirmed charge, then past due and canceled for an empty wallet: each once, even with two runs at a time", async () => {
    const s = await subscription({ funds: 4_500_000n });
    // Nothing before the customer authorized: they have not subscribed yet.
    expect(await mailPass(s.id)).toEqual([]);
    const manageUrl = await authorizeWithPermit(s);

    const [a, b] = await Promise.all([mailPass(s.id), mailPass(s.id)]);
    expect([...a, ...b]).toEqual([`${s.id}:authorized`]);
    expect(await mailPass(s.id)).toEqual([]);
    const welcome = await smtp.waitFor(s.email, /^You subscribed to Reading club from /);
    expect(welcome.body).toContain(manageUrl);
    expect(welcome.body).toContain("4.5 USDC");
    expect(welcome.body).toContain("every 30 days");
    expect(welcome.raw).toMatch(/^List-Unsubscribe:\s+<http/im);

    // Period 0 charged and confirmed at once (threshold 1): one receipt with the amount, token, transaction, period and manage link.
    expect((await charge()).charged).toContain(s.id);
    const [c, d] = await Promise.all([mailPass(s.id), mailPass(s.id)]);
    expect([...c, ...d]).toEqual([`${s.id}:charge_receipt#0`]);
    expect(await mailPass(s.id)).toEqual([]);
    const receipt = await smtp.waitFor(s.email, /^Receipt from .*: 4\.5 USDC for Reading club$/);
    const view = (await call(getHosted, "GET", `/api/hosted-subscriptions/${s.id}/`, { params: { id: s.id } })).body.data;
    expect(receipt.body).toContain(view.shop_name);
    expect(receipt.body).toContain("period 1 (");
    expect(receipt.body).toMatch(/Transaction: 0x[0-9a-f]{64}/);
    expect(receipt.body).toContain(manageUrl);

    // The wallet is empty for period 1: payment_failed (no mail), past due after the grace days, canceled after the past-due days.
    await advance(30 * DAY);
    expect((await charge()).failed).toContain(s.id);
    expect(await mailPass(s.id)).toEqual([]);
    await advance(3 * DAY + 3600);
    await charge();
    expect(await mailPass(s.id)).toEqual([`${s.id}:past_due`]);
    const pastDue = await smtp.waitFor(s.email, /is past due$/);
    expect(pastDue.body).toContain(manageUrl);
    await advance(7 * DAY + 3600);
    await charge();
    expect(await mailPass(s.id)).toEqual([`${s.id}:canceled`]);
    expect(await mailPass(s.id)).toEqual([]);
    const canceled = await smtp.waitFor(s.email, /is canceled$/);
    expect(canceled.body).toContain("could not be collected");
    expect(canceled.body).toContain(manageUrl);
    expect(smtp.to(s.email)).toHaveLength(4);
  });

  test("an approve checked by the page gives the manage link; the customer's own cancel is told once; the outbox copy shows to nobody; an unsubscribed address gets nothing more", async () => {
    const s = await subscription({ currency: "USDT" });
    const hash: Hex = await s.customer.writeContract({
      address: devnetContracts.USDT,
      abi: erc20Abi,
      functionName: "approve",
      args: [s.sub.pull_address, BigInt(s.sub.authorization.value)],
    });
    await client().waitForTransactionReceipt({ hash });
    const ok = await call(confirmApproval, "POST", `/api/hosted-subscriptions/${s.id}/approval/`, { params: { id: s.id }, body: { transaction_hash: hash } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // The same check again (a reload) does not make a second welcome.
    expect(
      (await call(confirmApproval, "POST", `/api/hosted-subscriptions/${s.id}/approval/`, { params: { id: s.id }, body: { transaction_hash: hash } })).status,
    ).toBe(200);

    // Without SMTP the mail is written to the outbox only, and addressed to no login: the manage link in it is the customer's.
    env.SMTP_URL = "";
    expect(await mailPass(s.id)).toEqual([`${s.id}:authorized`]);
    const copies = await testDb.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, s.email));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ kind: "subscription_authorized", merchantId: s.merchant.id, recipientUserId: null });
    expect(copies[0]!.text).toContain(`/subscribe/manage/${manageToken(s.id)}`);
    env.SMTP_URL = smtp.url;

    const cancel = await call(cancelManaged, "POST", "/api/manage-subscription/cancel/", { body: { token: manageToken(s.id) } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(await mailPass(s.id)).toEqual([`${s.id}:canceled`]);
    expect(await mailPass(s.id)).toEqual([]);
    const notice = await smtp.waitFor(s.email, /is canceled$/);
    expect(notice.body).toContain("canceled as you asked");
    expect(notice.body).toContain("revoke it from the manage page");

    // The address unsubscribed from the store's mail (its List-Unsubscribe): the store's next subscription for it mails nothing.
    await unsubscribe(testDb.db, unsubscribeToken(s.merchant.id, s.email));
    const other = await subscription({ email: s.email, merchant: s.merchant });
    await authorizeWithPermit(other);
    expect(await mailPass(other.id)).toEqual([`${other.id}:authorized`]); // handled (claimed), not sent
    expect(await mailPass(other.id)).toEqual([]);
    expect(smtp.to(s.email).filter((m) => m.body.includes(other.id))).toHaveLength(0);
    // Another store's mail still reaches it (an unsubscribe is per store).
    const elsewhere = await subscription({ email: s.email });
    await authorizeWithPermit(elsewhere);
    expect(await mailPass(elsewhere.id)).toEqual([`${elsewhere.id}:authorized`]);
    expect((await smtp.waitFor(s.email, /^You subscribed to /)).body).toContain(elsewhere.id);
    expect(smtp.to(s.email).filter((m) => m.body.includes(elsewhere.id))).toHaveLength(1);
  });

  test("the mail is in the customer's language: the subscribe page's, unless the store set one (validated)", async () => {
    const unknown = await call(postSubscription, "POST", "/api/subscriptions/", {
      token: (await createMerchant()).access,
      body: { plan: "PLN-none", customer_address: randomAddress(), customer_locale: "klingon" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.customer_locale).toBeDefined();

    // The subscribe page is shown in Spanish (its cookie): the welcome is Spanish.
    const spanish = await subscription();
    expect(spanish.sub.customer_locale).toBeNull();
    await authorizeWithPermit(spanish, { cookie: "NEXT_LOCALE=es", "accept-language": "de" });
    expect(await mailPass(spanish.id)).toEqual([`${spanish.id}:authorized`]);
    const bienvenida = await smtp.waitFor(spanish.email, /^Te has suscrito a Reading club de /);
    expect(bienvenida.body).toContain("a cobrar como máximo 4,5 USDC en ");
    expect(bienvenida.body).toContain(" cada 30 días por Reading club ");
    expect(bienvenida.body).toContain("Para dejar de recibir correos de esta tienda: ");

    // The store said the customer reads Japanese: the page's German does not change it.
    const japanese = await subscription({ customerLocale: "ja" });
    expect(japanese.sub.customer_locale).toBe("ja");
    await authorizeWithPermit(japanese, { "accept-language": "de-DE" });
    expect(await mailPass(japanese.id)).toEqual([`${japanese.id}:authorized`]);
    const welcome = await smtp.waitFor(japanese.email, /^.+ の Reading club を購読しました$/);
    expect(welcome.body).toContain("30 日ごとに最大 4.5 USDC");
  });

  test("no address, no mail; a cancel before any authorization tells nobody", async () => {
    const silent = await subscription({ funds: 4_500_000n, email: null });
    await authorizeWithPermit(silent);
    expect((await charge()).charged).toContain(silent.id);
    expect(await mailPass(silent.id)).toEqual([]);

    const never = await subscription();
    const res = await call(cancelManaged, "POST", "/api/manage-subscription/cancel/", { body: { token: manageToken(never.id) } });
    expect(res.status).toBe(200);
    expect(await mailPass(never.id)).toEqual([]);
    expect(smtp.to(never.email)).toHaveLength(0);
  });
});
