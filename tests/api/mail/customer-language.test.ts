/**
 * Issue 55 item 3: a store's mail to its customer is written in the customer's language (the page
 * they left their address on, or the one the store set on the invoice), through a real SMTP server;
 * a language the pages do not speak falls back to the store's, else English.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { Hex } from "viem";
import { GET as getInvoice } from "@/app/api/invoices/[id]/route";
import { POST as sendInvoice } from "@/app/api/invoices/[id]/send/route";
import { POST as postInvoice } from "@/app/api/invoices/route";
import { POST as postInvoiceOrder } from "@/app/api/hosted-invoices/[invoiceId]/orders/route";
import { PUT as putReceiptEmail } from "@/app/api/pay/[orderId]/receipt-email/route";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { setDashboardLocale } from "@/lib/auth/dashboard-locale";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { sendDueReceipts } from "@/lib/receipts/receipt-mail";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, uniqueName, type TestMerchant } from "../../helpers/factories";
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
const setEmail = (orderId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(putReceiptEmail, "PUT", `/api/pay/${orderId}/receipt-email/`, { params: { orderId }, body, headers, ip: "203.0.113.78" });

async function paidAndConfirmed(merchant: TestMerchant, orderId: string, amount: string) {
  expect((await call(sandboxPay, "POST", "/", { token: merchant.access, params: { orderId }, body: { amount } })).status).toBe(201);
  await tick();
  await net.testClient().mine({ blocks: 1 });
  await tick();
}

const dueAt = new Date(Date.UTC(2031, 2, 14, 12)).toISOString();
async function invoiceTo(merchant: TestMerchant, email: string, extra: Record<string, unknown> = {}) {
  const body = {
    client: { name: "Client", email },
    items: [{ description: "Design work", quantity: "1", unit_price: "1250.5" }],
    currency: "USDC",
    due_at: dueAt,
    accepted_methods: [{ blockchain: "base", currency: "USDC" }],
    ...extra,
  };
  return call(postInvoice, "POST", "/api/invoices/", { token: merchant.access, body });
}
const send = (merchant: TestMerchant, id: string) => call(sendInvoice, "POST", "/", { token: merchant.access, params: { id } });

describe("mail to a customer in their language", () => {
  test("a German customer (the payment page in German) gets a German receipt and refund notice, footer included", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "1000.5", currency: "USDC" });
    const email = `${uniqueName("kunde")}@example.com`;

    // The page's own fetch names no language here: the browser's Accept-Language decides.
    const saved = await setEmail(order.order_id, { email }, { "accept-language": "de-DE,de;q=0.9,en;q=0.5" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expectMatchesSchema("PUT /api/pay/[orderId]/receipt-email", 200, saved.body);
    expect(saved.body.data).toEqual({ email, locale: "de" });

    await paidAndConfirmed(merchant, order.order_id, "1002.5");
    expect((await sendDueReceipts(testDb.db)).receipts).toEqual([order.order_id]);
    const receipt = await smtp.waitFor(email, /^Beleg von /);
    expect(receipt.subject).toMatch(/^Beleg von .+: 1\.000,5 USDC$/);
    expect(receipt.body).toContain("Vielen Dank: Ihre Zahlung von 1.000,5 USDC auf ");
    expect(receipt.body).toContain(`Bestellung ${order.order_id}`);
    expect(receipt.body).toContain(`/pay/${order.order_id}/receipt`);
    expect(receipt.body).toMatch(/Um keine E-Mails mehr von diesem Shop zu erhalten: https?:\/\/\S+\/unsubscribe\?token=/);
    expect(receipt.body).toMatch(/<html lang="de">/);
    expect(receipt.body).toMatch(/Um keine E-Mails mehr von diesem Shop zu erhalten, <a href="[^"]+">abmelden<\/a>\./);
    expect(receipt.body).not.toContain("Thank you");

    // the store refunds the overpayment; once confirmed on chain the customer hears of it in German
    await sweepConfirmedDeposits(testDb.db, base(), chainClient(base()));
    const built = await call(postRefund, "POST", "/", {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { overpaid_only: true, to_address: randomAddress() },
    });
    expect(built.status, JSON.stringify(built.body)).toBe(201);
    const tx = built.body.data.transaction;
    await net.wallet(merchantKey.privateKey as Hex).sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    await tick();
    expect((await sendDueReceipts(testDb.db)).refundNotices).toHaveLength(1);
    const notice = await smtp.waitFor(email, /hat Ihnen eine Erstattung von 2 USDC geschickt$/);
    expect(notice.body).toContain(`für die Bestellung ${order.order_id} erstattet; die Überweisung ist auf der Blockchain bestätigt.`);
    expect(notice.body).toContain("Transaktion: 0x");
  });

  test("a Japanese invoice client gets the invoice in Japanese; the language is validated, kept on the invoice and on its copy", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    const email = `${uniqueName("client")}@example.com`;

    const unknown = await invoiceTo(merchant, email, { locale: "xx" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { locale: [expect.stringContaining("en, de, fr, es, pt, ja, zh")] } });

    const created = await invoiceTo(merchant, email, { locale: "ja" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectMatchesSchema("POST /api/invoices", 201, created.body);
    expect(created.body.data.locale).toBe("ja");
    const invoice = created.body.data;
    expect((await send(merchant, invoice.id)).status).toBe(200);

    const mail = await smtp.waitFor(email, /からの請求書/);
    expect(mail.subject).toMatch(new RegExp(`^.+ からの請求書 ${invoice.number}$`));
    expect(mail.body).toContain(`から請求書 ${invoice.number}（1,250.500000 USDC、お支払い期限 2031年3月14日）が届きました。`);
    expect(mail.body).toContain(invoice.url);
    expect(mail.body).toContain("このストアからのメールの受信を停止するには：");
    expect(mail.body).toMatch(/<a href="[^"]+">配信停止<\/a>してください。/);
    // the client paying from the invoice page in another language does not override the store's choice
    const order = await call(postInvoiceOrder, "POST", "/", {
      params: { invoiceId: invoice.id },
      body: { blockchain: "base", currency: "USDC", locale: "fr" },
      ip: "203.0.113.79",
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect((await call(getInvoice, "GET", "/", { token: merchant.access, params: { id: invoice.id } })).body.data.locale).toBe("ja");
  });

  test("no language the pages speak: the store's own, else English; an invoice without one takes the invoice page's", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    const email = `${uniqueName("buyer")}@example.com`;
    const unsupported = await setEmail(order.order_id, { email, locale: "nl" });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error.details.locale).toBeDefined();
    const saved = await setEmail(order.order_id, { email }, { "accept-language": "nl-NL, sv;q=0.8" });
    expect(saved.body.data).toEqual({ email, locale: "en" });
    await paidAndConfirmed(merchant, order.order_id, "10");
    expect((await sendDueReceipts(testDb.db)).receipts).toEqual([order.order_id]);
    const receipt = await smtp.waitFor(email, /^Receipt from /);
    expect(receipt.body).toContain("Thank you: your payment of 10 USDC on ");
    expect(receipt.body).toContain("To stop receiving these e-mails from this store: ");

    // An invoice with no language goes out in the store's (the language its login chose), until the client pays from a page in theirs.
    const client = `${uniqueName("client")}@example.com`;
    const invoice = (await invoiceTo(merchant, client)).body.data;
    expect(invoice.locale).toBeNull();
    await setDashboardLocale(testDb.db, merchant.id, "fr");
    expect((await send(merchant, invoice.id)).status).toBe(200);
    const french = await smtp.waitFor(client, /^Facture /);
    expect(french.body).toContain("à régler au plus tard le 14 mars 2031.");
    const paying = await call(postInvoiceOrder, "POST", "/", {
      params: { invoiceId: invoice.id },
      body: { blockchain: "base", currency: "USDC" },
      headers: { "accept-language": "es-ES,es;q=0.9" },
      ip: "203.0.113.80",
    });
    expect(paying.status, JSON.stringify(paying.body)).toBe(201);
    expect((await call(getInvoice, "GET", "/", { token: merchant.access, params: { id: invoice.id } })).body.data.locale).toBe("es");
    expect((await send(merchant, invoice.id)).status).toBe(200);
    expect((await smtp.waitFor(client, /^Factura /)).body).toContain("con vencimiento el 14 de marzo de 2031.");
  });
});
