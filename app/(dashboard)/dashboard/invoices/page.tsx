import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Alert, Card, PlainField, Row, uiStyles } from "@/components/ui";
import { ActionForm, CheckboxGroup, Field, SelectField } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CreateDialog } from "@/components/dashboard/create-dialog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { paymentChoices } from "@/lib/dashboard/payment-choices";
import { customerLocales, localeNames } from "@/lib/i18n/locales";
import { getInvoiceSettings, serializeInvoice } from "@/lib/invoices/invoices";
import { listMerchantInvoices } from "@/lib/invoices/queries";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { createInvoiceAction, duplicateInvoiceAction, saveInvoiceSettingsAction, sendInvoiceAction, voidInvoiceAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.invoices"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.invoices">>>;

type InvoiceRow = ReturnType<typeof serializeInvoice>;
const invoiceStatuses = ["draft", "sent", "partially_paid", "paid", "overdue", "void"] as const;
const statusLabel = (t: T, status: string) =>
  (invoiceStatuses as readonly string[]).includes(status) ? t(`statuses.${status as (typeof invoiceStatuses)[number]}`) : status;

const columns = (t: T): Array<Column<InvoiceRow>> => [
  { header: t("number"), cell: (i) => i.number },
  { header: t("client"), cell: (i) => `${i.client.name} <${i.client.email}>` },
  { header: t("total"), cell: (i) => `${i.total} ${i.currency}` },
  { header: t("due"), cell: (i) => t("dueBy", { amount: `${i.amount_due} ${i.currency}`, date: i.due_at.slice(0, 10) }) },
  { header: t("status"), cell: (i) => statusLabel(t, i.status) },
  {
    header: t("actions"),
    hideHeader: true,
    cell: (i) => (
      <div className={uiStyles.row}>
        <a href={`/dashboard/invoices/${i.id}/pdf`} aria-label={t("previewLabel", { number: i.number })}>
          {t("preview")}
        </a>
        {i.status !== "draft" && (
          <a href={i.url} aria-label={t("clientPageLabel", { number: i.number })}>
            {t("clientPage")}
          </a>
        )}
        {["draft", "sent", "partially_paid", "overdue"].includes(i.status) && (
          <ActionForm
            action={sendInvoiceAction}
            hiddenFields={{ id: i.id }}
            submitLabel={i.status === "draft" ? t("send") : t("sendAgain")}
            small
            successMessage={t("mailed")}
            label={t("sendLabel", { number: i.number })}
          />
        )}
        <ActionForm
          action={duplicateInvoiceAction}
          hiddenFields={{ id: i.id }}
          submitLabel={t("duplicate")}
          variant="secondary"
          small
          label={t("duplicateLabel", { number: i.number })}
        />
        {i.status !== "paid" && i.status !== "void" && (
          <ActionForm
            action={voidInvoiceAction}
            hiddenFields={{ id: i.id }}
            submitLabel={t("void")}
            variant="danger"
            small
            confirmText={t("voidConfirm", { number: i.number })}
            label={t("voidLabel", { number: i.number })}
          />
        )}
      </div>
    ),
  },
];

// /dashboard/invoices – create, preview, send, void and duplicate invoices; numbering, partial payments and reminders
export default async function InvoicesPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.invoices");
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
      <h1>{t("heading")}</h1>
      <CreateDialog openLabel={t("create.open")} title={t("create.open")}>
        <p>{t("create.intro")}</p>
        <ActionForm action={createInvoiceAction} submitLabel={t("create.submit")} successMessage={t("create.done")}>
          <Row>
            <Field label={t("create.clientName")} name="client_name" required maxLength={200} />
            <Field label={t("create.clientEmail")} name="client_email" type="email" required maxLength={254} />
          </Row>
          <Row>
            <Field label={t("create.clientAddress")} name="client_address" maxLength={1000} />
            <Field label={t("create.clientTaxId")} name="client_tax_id" maxLength={64} />
            <SelectField
              label={t("create.clientLanguage")}
              name="locale"
              options={[{ value: "", label: t("create.clientLanguageDefault") }, ...customerLocales.map((l) => ({ value: l, label: localeNames[l] }))]}
            />
          </Row>
          <PlainField label={t("create.items")} name="items">
            <textarea id="f-items" name="items" rows={4} required placeholder={t("create.itemsPlaceholder")} />
          </PlainField>
          <Row>
            <SelectField
              label={t("create.currency")}
              name="currency"
              options={[...Object.keys(fiatCurrencies), ...tokens].map((c) => ({ value: c, label: c }))}
            />
            <Field label={t("create.dueOn")} name="due_date" type="date" required />
            <Field label={t("create.taxName")} name="tax_name" placeholder={t("create.taxNamePlaceholder")} maxLength={100} />
            <Field label={t("create.taxRate")} name="tax_rate" inputMode="decimal" placeholder="19" />
          </Row>
          <Field label={t("create.notes")} name="notes" maxLength={2000} placeholder={t("create.notesPlaceholder")} />
          {linkOptions.length > 0 ? (
            <CheckboxGroup legend={t("create.payWith")} name="methods" options={linkOptions} defaultChecked={defaultMethod ? [defaultMethod] : []} />
          ) : (
            <Alert kind="warn">{t.rich("create.noWallet", { link: (chunks) => <a href="/dashboard/wallets">{chunks}</a> })}</Alert>
          )}
        </ActionForm>
      </CreateDialog>
      <Card title={t("yours")}>
        <DataTable
          caption={t("heading")}
          columns={columns(t)}
          rows={invoices}
          rowKey={(i) => i.id}
          rowData={(i) => ({ "data-invoice-id": i.id })}
          empty={t("empty")}
        />
      </Card>
      <Card title={t("settings.title")}>
        <ActionForm action={saveInvoiceSettingsAction} submitLabel={t("settings.submit")} successMessage={t("settings.done")} resetOnSuccess={false}>
          <Row>
            <Field
              label={t("settings.numberFormat")}
              name="number_format"
              defaultValue={settings.number_format}
              required
              hint={t("settings.numberFormatHint", { seq: "{seq}", seq4: "{seq:4}", yyyy: "{yyyy}" })}
            />
            <Field label={t("settings.remindersBefore")} name="reminder_days_before" defaultValue={settings.reminder_days_before.join(", ")} />
            <Field label={t("settings.remindersAfter")} name="reminder_days_after" defaultValue={settings.reminder_days_after.join(", ")} />
          </Row>
          <Checkbox label={t("settings.partial")} name="allow_partial_payments" defaultChecked={settings.allow_partial_payments} />
        </ActionForm>
      </Card>
    </>
  );
}
