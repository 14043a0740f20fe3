import type { Metadata } from "next";
import { Alert, Card, Row, uiStyles } from "@/components/ui";
import { ActionForm, CheckboxGroup, Field, SelectField } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { getDb } from "@/lib/db/client";
import { CreateDialog } from "@/components/dashboard/create-dialog";
import { CreateLinkForm } from "@/components/dashboard/create-link-form";
import { PayButtonBuilder } from "@/components/dashboard/pay-button-builder";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { paymentChoices } from "@/lib/dashboard/payment-choices";
import { serializeLink } from "@/lib/payment-links/payment-links";
import { listMerchantLinks } from "@/lib/payment-links/queries";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { createLinkAction, deleteLinkAction } from "./actions";

export const metadata: Metadata = { title: "Payment links · Dashboard" };

const columns: Array<Column<ReturnType<typeof serializeLink>>> = [
  { header: "Title", cell: (l) => `${l.title}${l.is_active ? "" : " (inactive)"}` },
  { header: "Price", cell: (l) => (l.price_amount ? `${l.price_amount} ${l.price_currency}` : `${l.amount} ${l.options[0]?.currency ?? ""}`) },
  { header: "Options", cell: (l) => l.options.map((o) => `${o.currency}/${o.blockchain}`).join(", ") },
  { header: "Link", cell: (l) => <a href={l.url}>{l.id}</a> },
  {
    header: "Actions",
    hideHeader: true,
    cell: (l) => (
      <ActionForm
        action={deleteLinkAction}
        hiddenFields={{ id: l.id }}
        submitLabel="Delete"
        variant="danger"
        small
        confirmText={`Delete the link “${l.title}”? Its page will answer 404.`}
        label={`Delete ${l.title}`}
      />
    ),
  },
];

// /dashboard/links – create, share and delete reusable payment links
export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const { created } = await searchParams;
  const db = await getDb();
  const [{ rows }, { linkOptions }] = await Promise.all([
    listMerchantLinks(db, merchant.merchantId, { limit: 100, offset: 0 }),
    paymentChoices(db, merchant.merchantId),
  ]);
  // Only tokens on chains with a wallet: a link offering any other could not take the payment.
  const links = rows.map(serializeLink);
  const defaultOption = linkOptions.find((o) => o.value === "base:USDC")?.value ?? linkOptions[0]?.value;

  return (
    <>
      <h1>Payment links</h1>
      <CreateDialog openLabel="Create a payment link" title="Create a payment link">
        <p>A reusable link for a product or a donation: each customer who opens it picks how to pay and gets a fresh order.</p>
        <CreateLinkForm action={createLinkAction}>
          <Field label="Title" name="title" required maxLength={200} placeholder="Espresso beans 1 kg" />
          <Row>
            <Field label="Price per item" name="price" required inputMode="decimal" placeholder="24.00" />
            <SelectField
              label="Priced in"
              name="price_currency"
              options={[...Object.keys(fiatCurrencies).map((c) => ({ value: c, label: c })), { value: "token", label: "the token (one token only)" }]}
            />
            <Field label="Most items per order" name="max_quantity" type="number" min={1} max={1000} defaultValue={1} />
          </Row>
          {linkOptions.length > 0 ? (
            <CheckboxGroup legend="The customer may pay with" name="options" options={linkOptions} defaultChecked={defaultOption ? [defaultOption] : []} />
          ) : (
            <Alert kind="warn">
              Links can offer only networks where you have a wallet, and you have none yet. <a href="/dashboard/wallets">Add a wallet</a> first.
            </Alert>
          )}
          <p className={uiStyles.hint}>
            Only networks where you have a wallet are listed; <a href="/dashboard/wallets">add a wallet</a> to offer another.
          </p>
        </CreateLinkForm>
      </CreateDialog>
      <Card title="Your links">
        <DataTable
          caption="Payment links"
          columns={columns}
          rows={links}
          rowKey={(l) => l.id}
          rowData={(l) => ({ "data-link-id": l.id, "data-highlight": l.id === created ? "true" : undefined })}
          empty="No payment links yet."
        />
      </Card>
      <Card title="Pay button for your website">
        <p>A button for any web page, no backend needed: it opens the link&apos;s checkout, in your colours. Paste the HTML where the button should be.</p>
        <PayButtonBuilder links={links.filter((l) => l.is_active).map((l) => ({ id: l.id, title: l.title, url: l.url }))} />
      </Card>
    </>
  );
}
