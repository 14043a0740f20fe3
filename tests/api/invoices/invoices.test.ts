/** Issue 55 items 1–2: invoices over the API, mailed through a real SMTP server, paid on the devnet. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { GET as listInvoices, POST as postInvoice } from "@/app/api/invoices/route";
import { GET as getInvoice, PUT as putInvoice } from "@/app/api/invoices/[id]/route";
import { POST as sendInvoice } from "@/app/api/invoices/[id]/send/route";
import { POST as voidInvoice } from "@/app/api/invoices/[id]/void/route";
import { POST as duplicateInvoice } from "@/app/api/invoices/[id]/duplicate/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/invoice-settings/route";
import { GET as getHostedInvoice } from "@/app/api/hosted-invoices/[invoiceId]/route";
import { POST as postInvoiceOrder } from "@/app/api/hosted-invoices/[invoiceId]/orders/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { GET as getInvoicePdf } from "@/app/invoice/[invoiceId]/pdf/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { settleInvoices } from "@/lib/invoices/settle-invoices";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createApiKeyFor, createMerchant, createWallet, uniqueName, type TestMerchant } from "../../helpers/factories";
import { expectMatchesSchema } from "../../helpers/openapi";
import { call } from "../../helpers/request";
import { startSmtpSink } from "../../helpers/smtp-sink";
import { pdfTextLines } from "../../helpers/pdf-text";
import { startReceiver, type Receiver } from "../../webhooks/support";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let receiver: Receiver;
const smtpUrlBefore = env.SMTP_URL;
const dayMs = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  smtp = await startSmtpSink();
  receiver = await startReceiver();
});
beforeEach(() => {
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await settleBackgroundMail();
  env.SMTP_URL = smtpUrlBefore;
  await smtp.close();
  await receiver.close();
});

const inDays = (days: number, from = Date.now()) => new Date(from + days * dayMs).toISOString();

function designInvoice(overrides: Record<string, unknown> = {}) {
  const client = uniqueName("client");
  return {
    client: { name: "Acme GmbH", email: `${client}@example.com`, address: "Hauptstr. 1, 10115 Berlin", tax_id: "DE123456789" },
    items: [
      { description: "Logo design", quantity: "1", unit_price: "800.00" },
      { description: "Revisions (hours)", quantity: "2.5", unit_price: "60.10" },
    ],
    taxes: [{ name: "VAT", rate: "19" }],
    currency: "EUR",
    due_at: inDays(14),
    notes: "Thank you.",
    accepted_methods: [
      { blockchain: "base", currency: "usdc" },
      { blockchain: "base", currency: "ETH" },
    ],
    ...overrides,
  };
}

async function newInvoice(merchant: TestMerchant, body: Record<string, unknown> = designInvoice()) {
  const res = await call(postInvoice, "POST", "/api/invoices/", { token: merchant.access, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expectMatchesSchema("POST /api/invoices", 201, res.body);
  return res.body.data;
}

const act = (handler: typeof sendInvoice, verb: string, merchant: TestMerchant, id: string) =>
  call(handler, "POST", `/api/invoices/${id}/${verb}/`, { token: merchant.access, params: { id } });
const hostedOrder = (invoiceId: string, body: Record<string, unknown>, ip = "203.0.113.55") =>
  call(postInvoiceOrder, "POST", `/api/hosted-invoices/${invoiceId}/orders/`, { params: { invoiceId }, body, ip });

async function fetchPdf(invoiceId: string, kind?: "receipt") {
  const url = `http://localhost/invoice/${invoiceId}/pdf${kind ? `?kind=${kind}` : ""}`;
  const res = await getInvoicePdf(new Request(url), { params: Promise.resolve({ invoiceId }) });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

async function deliverAll() {
  while ((await deliverDueWebhooks(testDb.db)) > 0);
}

describe("invoices (merchant API)", () => {
  test("POST, GET, list, PUT and duplicate /api/invoices/: numbered in the store's format, totals exact, scoped to the store", async () => {
    const alice = await createMerchant();
    const bob = await createMerchant();
    expect((await call(getSettings, "GET", "/api/invoice-settings/", { token: alice.access })).body.data).toEqual({
      number_format: "{yyyy}-{seq:4}",
      allow_partial_payments: false,
      reminder_days_before: [3],
      reminder_days_after: [1, 7],
    });
    const settings = await call(putSettings, "PUT", "/api/invoice-settings/", {
      token: alice.access,
      body: { number_format: "ACME-{seq:3}", allow_partial_payments: true, reminder_days_before: [3, 1, 3], reminder_days_after: [7] },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.data.reminder_days_before).toEqual([1, 3]);

    const invoice = await newInvoice(alice);
    expect(invoice).toMatchObject({
      id: expect.stringMatching(/^INV-[0-9A-Za-z]{22}$/),
      number: "ACME-001",
      status: "draft",
      currency: "EUR",
      // 800.00 + 2.5 × 60.10 = 950.25; VAT 19 % = 180.5475 → 180.55
      items: [{ amount: "800.00" }, { amount: "150.25" }],
      taxes: [{ name: "VAT", rate: "19", amount: "180.55" }],
      subtotal: "950.25",
      tax_total: "180.55",
      total: "1130.80",
      amount_paid: "0.00",
      amount_due: "1130.80",
      accepted_methods: [
        { blockchain: "base", currency: "USDC" },
        { blockchain: "base", currency: "ETH" },
      ],
      url: expect.stringMatching(new RegExp(`/invoice/${invoice.id}$`)),
      sent_at: null,
    });
    const params = { id: invoice.id };
    expect((await call(getInvoice, "GET", "/", { token: alice.access, params })).body.data).toEqual(invoice);
    expect((await call(getInvoice, "GET", "/", { token: bob.access, params })).status).toBe(404);
    expect((await call(putInvoice, "PUT", "/", { token: bob.access, params, body: designInvoice() })).status).toBe(404);

    const changed = await call(putInvoice, "PUT", "/", {
      token: alice.access,
      params,
      body: designInvoice({ taxes: [], currency: "usdc", accepted_methods: [{ blockchain: "base", currency: "USDC" }] }),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ number: "ACME-001", currency: "USDC", total: "950.250000", tax_total: "0.000000" });

    const copy = await act(duplicateInvoice, "duplicate", alice, invoice.id);
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ number: "ACME-002", status: "draft", total: "950.250000", client: changed.body.data.client });
    expect(copy.body.data.id).not.toBe(invoice.id);
    // bob's numbering is his own, in the default format
    expect((await newInvoice(bob)).number).toBe(`${new Date().getUTCFullYear()}-0001`);

    const list = await call(listInvoices, "GET", "/api/invoices/", { token: alice.access });
    expect(list.body).toMatchObject({ count: 2, results: [{ number: "ACME-002" }, { number: "ACME-001" }] });
    expect((await call(listInvoices, "GET", "/api/invoices/?status=sent", { token: alice.access })).body.count).toBe(0);
  });

  test("bad invoices get clear 4xx answers; a read-only key may list but not create", async () => {
    const m = await createMerchant();
    const bad = async (body: Record<string, unknown>) => (await call(postInvoice, "POST", "/api/invoices/", { token: m.access, body })).body.error;
    expect(await bad(designInvoice({ items: [] }))).toMatchObject({ code: "VALIDATION_ERROR", details: { items: [expect.any(String)] } });
    expect(await bad(designInvoice({ client: { name: "A", email: "not-mail" } }))).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await bad(designInvoice({ currency: "XAU" }))).toMatchObject({ code: "UNSUPPORTED_CURRENCY" });
    expect(await bad(designInvoice({ currency: "USDC" }))).toMatchObject({ code: "VALIDATION_ERROR", details: { accepted_methods: [expect.any(String)] } });
    expect(await bad(designInvoice({ accepted_methods: [{ blockchain: "solana", currency: "SOL" }] }))).toMatchObject({ code: "INVALID_BLOCKCHAIN" });
    expect(await bad(designInvoice({ accepted_methods: [{ blockchain: "base", currency: "DOGE" }] }))).toMatchObject({ code: "UNSUPPORTED_CURRENCY" });
    expect(await bad(designInvoice({ items: [{ description: "x", quantity: "1", unit_price: "1.001" }] }))).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await bad(designInvoice({ items: [{ description: "x", quantity: "0", unit_price: "5" }] }))).toMatchObject({ code: "INVALID_AMOUNT" });
    expect(await bad(designInvoice({ due_at: "next week" }))).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(
      (
        await call(putSettings, "PUT", "/", {
          token: m.access,
          body: { number_format: "INV", allow_partial_payments: true, reminder_days_before: [], reminder_days_after: [] },
        })
      ).body.error,
    ).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { number_format: [expect.any(String)] },
    });
    const { key } = await createApiKeyFor(m, { preset: "read_only" });
    expect((await call(listInvoices, "GET", "/api/invoices/", { token: key })).status).toBe(200);
    expect((await call(postInvoice, "POST", "/api/invoices/", { token: key, body: designInvoice() })).status).toBe(403);
  });
});

describe("sending, voiding and paying an invoice", () => {
  test("send mails the client a link to the hosted page (invoice.sent); only drafts change; void stops payments (invoice.voided)", async () => {
    const m = await createMerchant();
    const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
      token: m.access,
      body: { url: receiver.url(`/inv-${m.username}`), events: ["invoice.sent", "invoice.voided"] },
    });
    expect(endpoint.status).toBe(201);
    const invoice = await newInvoice(m);
    // a draft is not public, and cannot be sent before the store has a wallet on each accepted chain
    expect((await call(getHostedInvoice, "GET", "/", { params: { invoiceId: invoice.id } })).status).toBe(404);
    expect((await act(sendInvoice, "send", m, invoice.id)).body.error.code).toBe("WALLET_NOT_CONFIGURED");
    await createWallet(m, { blockchain: 2 });

    const sent = await act(sendInvoice, "send", m, invoice.id);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ status: "sent", sent_at: expect.any(String) });
    const mail = await smtp.waitFor(invoice.client.email, /Invoice .* from/);
    expect(mail.subject).toMatch(new RegExp(`^Invoice ${invoice.number} from .+`));
    expect(mail.body).toContain(invoice.url);
    expect(mail.body).toContain("€1,130.80");

    const hosted = await call(getHostedInvoice, "GET", "/", { params: { invoiceId: invoice.id } });
    expect(hosted.status).toBe(200);
    expectMatchesSchema("GET /api/hosted-invoices/[invoiceId]", 200, hosted.body);
    expect(hosted.body.data).toMatchObject({ number: invoice.number, total: "1130.80", amount_due: "1130.80", allow_partial_payments: false });

    // what the client has is fixed: no more edits
    expect((await call(putInvoice, "PUT", "/", { token: m.access, params: { id: invoice.id }, body: designInvoice() })).body.error.code).toBe("CONFLICT");
    // sending again mails again, with no second event
    expect((await act(sendInvoice, "send", m, invoice.id)).status).toBe(200);
    await smtp.waitFor(invoice.client.email, /Invoice .* from/, 2);

    // partial payments are off for this store
    expect((await hostedOrder(invoice.id, { blockchain: "base", currency: "USDC", amount: "100" })).body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { amount: [expect.any(String)] },
    });
    expect((await hostedOrder(invoice.id, { blockchain: "polygon", currency: "USDC" })).body.error.code).toBe("VALIDATION_ERROR");

    // the printable invoice: a real PDF with the invoice's lines; no receipt before it is paid, no PDF of a draft
    const pdf = await fetchPdf(invoice.id);
    expect(pdf.status).toBe(200);
    expect(pdf.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const lines = pdfTextLines(pdf.body);
    expect(lines).toEqual(
      expect.arrayContaining([
        `Invoice ${invoice.number}`,
        "Logo design",
        "800.00",
        "Revisions (hours)",
        "150.25",
        "VAT (19 %)",
        "180.55",
        "1130.80",
        "Acme GmbH",
        "Tax ID: DE123456789",
      ]),
    );
    expect((await fetchPdf(invoice.id, "receipt")).status).toBe(404);
    expect((await fetchPdf((await newInvoice(m)).id)).status).toBe(404);
    expect((await fetchPdf("INV-nope")).status).toBe(404);

    const voided = await act(voidInvoice, "void", m, invoice.id);
    expect(voided.body.data).toMatchObject({ status: "void", voided_at: expect.any(String) });
    expect((await act(voidInvoice, "void", m, invoice.id)).body.error.code).toBe("CONFLICT");
    expect((await act(sendInvoice, "send", m, invoice.id)).body.error.code).toBe("CONFLICT");
    expect((await hostedOrder(invoice.id, { blockchain: "base", currency: "USDC" })).body.error.code).toBe("CONFLICT");

    await deliverAll();
    const events = receiver.requests.filter((r) => r.path === `/inv-${m.username}`).map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event)).toEqual(["invoice.sent", "invoice.voided"]);
    expect(events[0].data).toMatchObject({ id: invoice.id, status: "sent" });
    expect(events[0]).not.toHaveProperty("sequence");
  });

  test("the client pays part, then the rest, on the devnet: partially paid, then paid (invoice.paid) with a receipt mail", async () => {
    const m = await createMerchant();
    await call(putSettings, "PUT", "/", {
      token: m.access,
      body: { number_format: "{seq}", allow_partial_payments: true, reminder_days_before: [], reminder_days_after: [] },
    });
    await createWallet(m, { blockchain: 2, confirmation_threshold: 1 });
    await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
      token: m.access,
      body: { url: receiver.url(`/paid-${m.username}`), events: ["invoice.paid"] },
    });
    const invoice = await newInvoice(
      m,
      designInvoice({
        currency: "USDC",
        taxes: [],
        accepted_methods: [{ blockchain: "base", currency: "USDC" }],
        items: [{ description: "Consulting", quantity: "3", unit_price: "25" }],
      }),
    );
    expect(invoice.total).toBe("75.000000");
    expect((await act(sendInvoice, "send", m, invoice.id)).status).toBe(200);

    expect((await hostedOrder(invoice.id, { blockchain: "base", currency: "USDC", amount: "75.5" })).body.error.details.amount).toBeDefined();
    const tick = () => watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")));
    const payInFull = async (orderId: string) => {
      expect((await call(sandboxPay, "POST", "/", { token: m.access, params: { orderId }, body: {} })).status).toBe(201);
      await tick();
      expect((await call(sandboxMine, "POST", "/", { token: m.access, body: { blocks: 1, blockchain: "base" } })).status).toBe(200);
      await tick();
      expect((await call(getOrder, "GET", "/", { token: m.access, params: { orderId } })).body.data.status).toBe("confirmed");
    };

    const first = await hostedOrder(invoice.id, { blockchain: "base", currency: "USDC", amount: "30" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ amount: "30.000000", payment_url: expect.stringContaining(`/pay/${first.body.data.order_id}`) });
    const firstOrder = (await call(getOrder, "GET", "/", { token: m.access, params: { orderId: first.body.data.order_id } })).body.data;
    expect(firstOrder).toMatchObject({ amount: "30", currency: "USDC" });
    expect(JSON.parse(firstOrder.order_info)).toEqual({ invoice: invoice.id, number: invoice.number });

    // not counted before the order confirms
    expect((await settleInvoices(testDb.db)).credited).toBe(0);
    await payInFull(first.body.data.order_id);
    const afterFirst = await settleInvoices(testDb.db);
    expect(afterFirst.credited).toBeGreaterThanOrEqual(1);
    // a second pass adds nothing twice
    await settleInvoices(testDb.db);
    expect((await call(getInvoice, "GET", "/", { token: m.access, params: { id: invoice.id } })).body.data).toMatchObject({
      status: "partially_paid",
      amount_paid: "30.000000",
      amount_due: "45.000000",
    });

    const rest = await hostedOrder(invoice.id, { blockchain: "base", currency: "USDC" });
    expect(rest.body.data.amount).toBe("45.000000");
    await payInFull(rest.body.data.order_id);
    const settled = await settleInvoices(testDb.db);
    expect(settled.paid).toContain(invoice.id);
    expect((await call(getInvoice, "GET", "/", { token: m.access, params: { id: invoice.id } })).body.data).toMatchObject({
      status: "paid",
      amount_paid: "75.000000",
      amount_due: "0.000000",
      paid_at: expect.any(String),
    });
    expect((await hostedOrder(invoice.id, { blockchain: "base", currency: "USDC" })).body.error.code).toBe("CONFLICT");

    const receiptPdf = await fetchPdf(invoice.id, "receipt");
    expect(receiptPdf.status).toBe(200);
    expect(receiptPdf.headers.get("content-type")).toBe("application/pdf");
    expect(receiptPdf.headers.get("content-disposition")).toBe(`attachment; filename="receipt-${invoice.number}.pdf"`);
    const receiptText = pdfTextLines(receiptPdf.body);
    expect(receiptText).toContain(`Receipt for invoice ${invoice.number}`);
    expect(receiptText.some((line) => line.startsWith("Paid in full on "))).toBe(true);

    const receipt = await smtp.waitFor(invoice.client.email, /Receipt: invoice/);
    expect(receipt.body).toContain("75.000000 USDC");
    await deliverAll();
    const paidEvents = receiver.requests.filter((r) => r.path === `/paid-${m.username}`).map((r) => JSON.parse(r.body));
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0]).toMatchObject({ event: "invoice.paid", data: { id: invoice.id, status: "paid" } });
  });

  test("reminders go out on the store's schedule, once each; past the due date the invoice is overdue (invoice.overdue)", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    await call(putSettings, "PUT", "/", {
      token: m.access,
      body: { number_format: "{seq}", allow_partial_payments: false, reminder_days_before: [3], reminder_days_after: [1, 7] },
    });
    const created = Date.now();
    const invoice = await newInvoice(m, designInvoice({ due_at: inDays(10, created) }));
    const dueAt = new Date(invoice.due_at).getTime();
    expect((await act(sendInvoice, "send", m, invoice.id)).status).toBe(200);
    const remindersTo = () => smtp.to(invoice.client.email).filter((mail) => /Reminder|Overdue/.test(mail.subject));
    const at = (days: number) => new Date(dueAt + days * dayMs);

    expect((await settleInvoices(testDb.db, at(-5))).reminders).not.toContain(invoice.id);
    expect((await settleInvoices(testDb.db, at(-2))).reminders).toContain(invoice.id);
    expect((await settleInvoices(testDb.db, at(-1))).reminders).not.toContain(invoice.id);
    const atDue = await settleInvoices(testDb.db, at(0.5));
    expect(atDue.overdue).toContain(invoice.id);
    expect(atDue.reminders).not.toContain(invoice.id);
    expect((await call(getInvoice, "GET", "/", { token: m.access, params: { id: invoice.id } })).body.data.status).toBe("overdue");
    expect((await settleInvoices(testDb.db, at(1.5))).reminders).toContain(invoice.id);
    // a gateway that was down past both after-reminders sends one mail, not two
    expect((await settleInvoices(testDb.db, at(30))).reminders).toContain(invoice.id);
    expect((await settleInvoices(testDb.db, at(31))).reminders).not.toContain(invoice.id);

    await settleBackgroundMail();
    const deadline = Date.now() + 5000;
    while (remindersTo().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const subjects = remindersTo().map((mail) => mail.subject);
    expect(subjects).toHaveLength(3);
    expect(subjects[0]).toMatch(/^Reminder: invoice .* is due on/);
    expect(subjects[1]).toMatch(/^Overdue: invoice/);
  });
});
