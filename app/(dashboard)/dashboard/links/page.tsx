import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.links"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.links">>>;

const columns = (t: T): Array<Column<ReturnType<typeof serializeLink>>> => [
  { header: t("title"), cell: (l) => `${l.title}${l.is_active ? "" : t("inactive")}` },
  { header: t("price"), cell: (l) => (l.price_amount ? `${l.price_amount} ${l.price_currency}` : `${l.amount} ${l.options[0]?.currency ?? ""}`) },
  { header: t("options"), cell: (l) => l.options.map((o) => `${o.currency}/${o.blockchain}`).join(", ") },
  { header: t("link"), cell: (l) => <a href={l.url}>{l.id}</a> },
  {
    header: t("actions"),
    hideHeader: true,
    cell: (l) => (
      <ActionForm
        action={deleteLinkAction}
        hiddenFields={{ id: l.id }}
        submitLabel={t("delete")}
        variant="danger"
        small
        confirmText={t("deleteConfirm", { title: l.title })}
        label={t("deleteLabel", { title: l.title })}
      />
    ),
  },
];

// /dashboard/links – create, share and delete reusable payment links
export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const { created } = await searchParams;
  const t = await getTranslations("dashboard.links");
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
      <h1>{t("heading")}</h1>
      <CreateDialog openLabel={t("create.open")} title={t("create.open")}>
        <p>{t("create.intro")}</p>
        <CreateLinkForm action={createLinkAction}>
          <Field label={t("create.title")} name="title" required maxLength={200} placeholder={t("create.titlePlaceholder")} />
          <Row>
            <Field label={t("create.price")} name="price" required inputMode="decimal" placeholder="24.00" />
            <SelectField
              label={t("create.pricedIn")}
              name="price_currency"
              options={[...Object.keys(fiatCurrencies).map((c) => ({ value: c, label: c })), { value: "token", label: t("create.token") }]}
            />
            <Field label={t("create.maxQuantity")} name="max_quantity" type="number" min={1} max={1000} defaultValue={1} />
          </Row>
          {linkOptions.length > 0 ? (
            <CheckboxGroup legend={t("create.payWith")} name="options" options={linkOptions} defaultChecked={defaultOption ? [defaultOption] : []} />
          ) : (
            <Alert kind="warn">{t.rich("create.noWallet", { link: (chunks) => <a href="/dashboard/wallets">{chunks}</a> })}</Alert>
          )}
          <p className={uiStyles.hint}>{t.rich("create.onlyWalletNetworks", { link: (chunks) => <a href="/dashboard/wallets">{chunks}</a> })}</p>
        </CreateLinkForm>
      </CreateDialog>
      <Card title={t("yours")}>
        <DataTable
          caption={t("heading")}
          columns={columns(t)}
          rows={links}
          rowKey={(l) => l.id}
          rowData={(l) => ({ "data-link-id": l.id, "data-highlight": l.id === created ? "true" : undefined })}
          empty={t("empty")}
        />
      </Card>
      <Card title={t("button.title")}>
        <p>{t("button.intro")}</p>
        <PayButtonBuilder links={links.filter((l) => l.is_active).map((l) => ({ id: l.id, title: l.title, url: l.url }))} />
      </Card>
    </>
  );
}
