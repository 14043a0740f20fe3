/** Issue 55 item 3: a receipt mailed to the address the customer left on the payment page once the order confirms, and a notice once a refund is sent. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { Hex } from "viem";
import { PUT as putReceiptEmail } from "@/app/api/pay/[orderId]/receipt-email/route";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { sendDueReceipts } from "@/lib/receipts/receipt-mail";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, uniqueName } from "../../helpers/factories";
import { expectMatchesSchema } from "../../helpers/openapi";
import { call } from "../../helpers/request";
import { startSmtpSink } from "../../helpers/smtp-sink";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
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

const base = () => net.chain("base");
const tick = () => watchChainTick(testDb.db, base(), chainClient(base()), { checkInternalDeposits: true });
/** A payout wallet whose key the test holds, to send the refund (0–2 are the gateway's own). */
const merchantKey = devnetAccounts[8];
const setEmail = (orderId: string, email: string, ip = "203.0.113.77") =>
  call(putReceiptEmail, "PUT", `/api/pay/${orderId}/receipt-email/`, { params: { orderId }, body: { email }, ip });

describe("receipts by e-mail", () => {
  test("the address left on the payment page gets one receipt once the order confirms, and a notice when a refund is sent", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    const email = `${uniqueName("buyer")}@example.com`;

    expect((await setEmail(order.order_id, "not-an-address")).body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { email: [expect.any(String)] } });
    expect((await setEmail("ORD-unknown", email)).status).toBe(404);
    const saved = await setEmail(order.order_id, email.toUpperCase());
    expect(saved.status).toBe(200);
    expectMatchesSchema("PUT /api/pay/[orderId]/receipt-email", 200, saved.body);
    expect(saved.body.data).toEqual({ email, locale: "en" });

    // nothing before the order is confirmed
    expect((await sendDueReceipts(testDb.db)).receipts).toEqual([]);
    expect((await call(sandboxPay, "POST", "/", { token: merchant.access, params: { orderId: order.order_id }, body: { amount: "12" } })).status).toBe(201);
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();
    expect((await sendDueReceipts(testDb.db)).receipts).toEqual([order.order_id]);
    expect((await sendDueReceipts(testDb.db)).receipts).toEqual([]);
    const receipt = await smtp.waitFor(email, /^Receipt from /);
    expect(receipt.body).toContain(`/pay/${order.order_id}/receipt`);
    expect(receipt.body).toContain("10 USDC");
    expect(receipt.raw).toMatch(/^List-Unsubscribe:\s+<http/im);

    // the store refunds the overpayment from its wallet; once confirmed on chain the customer hears of it, once
    await sweepConfirmedDeposits(testDb.db, base(), chainClient(base()));
    const customer = randomAddress();
    const built = await call(postRefund, "POST", "/", {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { overpaid_only: true, to_address: customer },
    });
    expect(built.status, JSON.stringify(built.body)).toBe(201);
    const tx = built.body.data.transaction;
    await net.wallet(merchantKey.privateKey as Hex).sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    await tick();
    expect((await sendDueReceipts(testDb.db)).refundNotices).toHaveLength(1);
    expect((await sendDueReceipts(testDb.db)).refundNotices).toEqual([]);
    const notice = await smtp.waitFor(email, /sent you a refund of 2 USDC/);
    expect(notice.body).toContain(order.order_id);
  });
});
