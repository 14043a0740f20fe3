import type { Metadata } from "next";
import { Alert, Card, PlainField, Row, uiStyles } from "@/components/ui";
import { ActionForm, CheckboxGroup, Field, SelectField } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CreateDialog } from "@/components/dashboard/create-dialog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { paymentChoices } from "@/lib/dashboard/payment-choices";
import { getInvoiceSettings, serializeInvoice } from "@/lib/invoices/invoices";
import { listMerchantInvoices } from "@/lib/invoices/queries";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { createInvoiceAction, duplicateInvoiceAction, saveInvoiceSettingsAction, sendInvoiceAction, voidInvoiceAction } from "./actions";

export const metadata: Metadata = { title: "Invoices · Dashboard" };

type InvoiceRow = ReturnType<typeof serializeInvoice>;
const statusLabels: Record<string, string> = { draft: "Draft", sent: "Sent", partially_paid: "Partially paid", paid: "Paid", overdue: "Overdue", void: "Void" };

const columns: Array<Column<InvoiceRow>> = [
  { header: "Number", cell: (i) => i.number },
  { header: "Client", cell: (i) => `${i.client.name} <${i.client.email}>` },
  { header: "Total", cell: (i) => `${i.total} ${i.currency}` },
  { header: "Due", cell: (i) => `${i.amount_due} ${i.currency} by ${i.due_at.slice(0, 10)}` },
  { header: "Status", cell: (i) => statusLabels[i.status] ?? i.status },
  {
    header: "Actions",
    hideHeader: true,
    cell: (i) => (
      <div className={uiStyles.row}>
        <a href={`/dashboard/invoices/${i.id}/pdf`} aria-label={`Preview ${i.number} as PDF`}>
          Preview
        </a>
        {i.status !== "draft" && (
          <a href={i.url} aria-label={`Open the client's page of ${i.number}`}>
            Client page
          </a>
        )}
        {["draft", "sent", "partially_paid", "overdue"].includes(i.status) && (
          <ActionForm
            action={sendInvoiceAction}
            hiddenFields={{ id: i.id }}
            submitLabel={i.status === "draft" ? "Send" : "Send again"}
            small
            successMessage="Mailed."
            label={`Send ${i.number}`}
          />
        )}
        <ActionForm
          action={duplicateInvoiceAction}
          hiddenFields={{ id: i.id }}
          submitLabel="Duplicate"
          variant="secondary"
          small
          label={`Duplicate ${i.number}`}
        />
        {i.status !== "paid" && i.status !== "void" && (
          <ActionForm
            action={voidInvoiceAction}
            hiddenFields={{ id: i.id }}
            submitLabel="Void"
            variant="danger"
            small
            confirmText={`Void ${i.number}? Its page stops taking payments.`}
            label={`Void ${i.number}`}
          />
        )}
      </div>
    ),
  },
];

// /dashboard/invoices – create, preview, send, void and duplicate invoices; numbering, partial payments and reminders
export default async function InvoicesPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
  const [{ rows }, { linkOptions }, settings] = await Promise.all([
    listMerchantInvoices(db, merchant.merchantId, undefined, { limit: 100, offset: 0 }),
    paymentChoices(db, merchant.merchantId),
    getInvoiceSettings(db, merchant.merchantId),
  ]);
  const invoices = rows.map(serializeInvoice);
  const tokens = [...new Set(linkOptions.map((o) => o.value.split(":")[1]!))];
  const defaultMethod = linkOptions.find((o) => o.value === "base:USDC")?.value ?? linkOptions[0]?.value;

  return (
    <>
      <h1>Invoices</h1>
      <CreateDialog openLabel="Create an invoice" title="Create an invoice">
        <p>A draft with your next number. Preview it, then send it: the client gets an e-mail with a link to pay it online.</p>
        <ActionForm action={createInvoiceAction} submitLabel="Create the draft" successMessage="Draft created.">
          <Row>
            <Field label="Client name" name="client_name" required maxLength={200} />
            <Field label="Client e-mail" name="client_email" type="email" required maxLength={254} />
          </Row>
          <Row>
            <Field label="Client address" name="client_address" maxLength={1000} />
            <Field label="Client tax ID" name="client_tax_id" maxLength={64} />
          </Row>
          <PlainField label="Items, one per line: description; quantity; unit price" name="items">
            <textarea id="f-items" name="items" rows={4} required placeholder={"Logo design; 1; 800.00\nRevisions (hours); 2.5; 60.00"} />
          </PlainField>
          <Row>
            <SelectField label="Currency" name="currency" options={[...Object.keys(fiatCurrencies), ...tokens].map((c) => ({ value: c, label: c }))} />
            <Field label="Due on" name="due_date" type="date" required />
            <Field label="Tax name" name="tax_name" placeholder="VAT" maxLength={100} />
            <Field label="Tax rate (%)" name="tax_rate" inputMode="decimal" placeholder="19" />
          </Row>
          <Field label="Notes" name="notes" maxLength={2000} placeholder="Payment terms, thanks…" />
          {linkOptions.length > 0 ? (
            <CheckboxGroup legend="The client may pay with" name="methods" options={linkOptions} defaultChecked={defaultMethod ? [defaultMethod] : []} />
          ) : (
            <Alert kind="warn">
              Invoices can be paid only on networks where you have a wallet, and you have none yet. <a href="/dashboard/wallets">Add a wallet</a> first.
            </Alert>
          )}
        </ActionForm>
      </CreateDialog>
      <Card title="Your invoices">
        <DataTable
          caption="Invoices"
          columns={columns}
          rows={invoices}
          rowKey={(i) => i.id}
          rowData={(i) => ({ "data-invoice-id": i.id })}
          empty="No invoices yet."
        />
      </Card>
      <Card title="Invoice settings">
        <ActionForm action={saveInvoiceSettingsAction} submitLabel="Save settings" successMessage="Settings saved." resetOnSuccess={false}>
          <Row>
            <Field
              label="Number format"
              name="number_format"
              defaultValue={settings.number_format}
              required
              hint="{seq} the running number ({seq:4} zero-padded), {yyyy} the year"
            />
            <Field label="Reminders, days before the due date" name="reminder_days_before" defaultValue={settings.reminder_days_before.join(", ")} />
            <Field label="Reminders, days after" name="reminder_days_after" defaultValue={settings.reminder_days_after.join(", ")} />
          </Row>
          <Checkbox label="Clients may pay part of an invoice at a time" name="allow_partial_payments" defaultChecked={settings.allow_partial_payments} />
        </ActionForm>
      </Card>
    </>
  );
}
