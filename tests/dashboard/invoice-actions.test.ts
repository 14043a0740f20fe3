/** Issue 55 item 1: the dashboard's invoices page creates, previews, sends, duplicates and voids through the same use-cases as the API. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { env } from "@/lib/env";
import { settleBackgroundMail } from "@/lib/mail/mailer";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, uniqueName } from "../helpers/factories";
import { pdfTextLines } from "../helpers/pdf-text";
import { call } from "../helpers/request";
import { startSmtpSink } from "../helpers/smtp-sink";
import { signInAs } from "./session";

const { createInvoiceAction, duplicateInvoiceAction, saveInvoiceSettingsAction, sendInvoiceAction, voidInvoiceAction } =
  await import("@/app/(dashboard)/dashboard/invoices/actions");
const { GET: previewPdf } = await import("@/app/(dashboard)/dashboard/invoices/[id]/pdf/route");
const { GET: getInvoice } = await import("@/app/api/invoices/[id]/route");

setupTestDatabase();
setupTestDevnet();
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

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(key, v);
  return data;
}

describe("dashboard invoices page", () => {
  test("a draft from the form (items one per line), previewed as PDF, sent by mail, duplicated and voided", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    signInAs(merchant);
    expect(
      await saveInvoiceSettingsAction(
        form({ number_format: "F-{seq:3}", reminder_days_before: "2, 5", reminder_days_after: "", allow_partial_payments: "on" }),
      ),
    ).toMatchObject({
      ok: true,
      data: { number_format: "F-{seq:3}", reminder_days_before: [2, 5], reminder_days_after: [], allow_partial_payments: true },
    });
    const email = `${uniqueName("client")}@example.com`;
    const fields = {
      client_name: "Acme GmbH",
      client_email: email,
      client_address: "",
      client_tax_id: "",
      items: "Logo design; 1; 800.00\nHosting; 49\n",
      currency: "EUR",
      due_date: "2099-01-31",
      tax_name: "VAT",
      tax_rate: "19",
      notes: "",
      methods: ["base:USDC", "base:ETH"],
    };
    const refused = await createInvoiceAction(form({ ...fields, items: "" }));
    expect(refused).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
    const created = await createInvoiceAction(form(fields));
    expect(created, JSON.stringify(created)).toMatchObject({ ok: true, data: { number: "F-001" } });
    const id = (created as { data: { id: string } }).data.id;
    const invoice = (await call(getInvoice, "GET", "/", { token: merchant.access, params: { id } })).body.data;
    expect(invoice).toMatchObject({
      status: "draft",
      subtotal: "849.00",
      tax_total: "161.31",
      total: "1010.31",
      due_at: "2099-01-31T23:59:59.000Z",
      client: { address: null, tax_id: null },
    });

    const preview = await previewPdf(new Request(`http://localhost/dashboard/invoices/${id}/pdf`));
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("application/pdf");
    expect(pdfTextLines(Buffer.from(await preview.arrayBuffer()))).toEqual(expect.arrayContaining(["Invoice F-001", "Hosting", "1010.31"]));

    expect(await sendInvoiceAction(form({ id }))).toMatchObject({ ok: true, data: { status: "sent" } });
    expect((await smtp.waitFor(email, /Invoice F-001 from/)).body).toContain(`/invoice/${id}`);
    expect(await duplicateInvoiceAction(form({ id }))).toMatchObject({ ok: true, data: { number: "F-002" } });
    expect(await voidInvoiceAction(form({ id }))).toMatchObject({ ok: true, data: { status: "void" } });
    expect(await voidInvoiceAction(form({ id }))).toMatchObject({ ok: false, error: { code: "CONFLICT" } });

    // another store's invoice is not found, in the preview as in the actions
    const other = await createMerchant();
    signInAs(other);
    expect((await previewPdf(new Request(`http://localhost/dashboard/invoices/${id}/pdf`))).status).toBe(404);
    expect(await sendInvoiceAction(form({ id }))).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    signInAs(null);
    expect((await previewPdf(new Request(`http://localhost/dashboard/invoices/${id}/pdf`))).status).toBe(401);
  });

  test("the client's language chosen on the form: the invoice's mail is written in it, and a duplicate keeps it", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    signInAs(merchant);
    const email = `${uniqueName("kunde")}@example.com`;
    const fields = { client_name: "Kunde", client_email: email, items: "Beratung; 2; 100.00", currency: "EUR", due_date: "2099-01-31", methods: "base:USDC" };
    expect(await createInvoiceAction(form({ ...fields, locale: "tlh" }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
    const created = await createInvoiceAction(form({ ...fields, locale: "de" }));
    expect(created, JSON.stringify(created)).toMatchObject({ ok: true });
    const { id, number } = (created as { data: { id: string; number: string } }).data;
    expect((await call(getInvoice, "GET", "/", { token: merchant.access, params: { id } })).body.data.locale).toBe("de");
    expect(await sendInvoiceAction(form({ id }))).toMatchObject({ ok: true });
    const mail = await smtp.waitFor(email, new RegExp(`^Rechnung ${number} von `));
    expect(mail.body).toContain("über 200,00\u00a0€ geschickt, fällig am 31. Januar 2099.");
    const copy = (await duplicateInvoiceAction(form({ id }))) as { data: { id: string } };
    expect((await call(getInvoice, "GET", "/", { token: merchant.access, params: { id: copy.data.id } })).body.data.locale).toBe("de");
    // left on "your store's": no language recorded
    const plain = (await createInvoiceAction(form({ ...fields, locale: "" }))) as { data: { id: string } };
    expect((await call(getInvoice, "GET", "/", { token: merchant.access, params: { id: plain.data.id } })).body.data.locale).toBeNull();
    signInAs(null);
  });
});
