import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations } from "next-intl/server";
import { InvoiceCheckout } from "@/components/pay/invoice-checkout";
import invoiceStyles from "@/components/pay/invoice-checkout.module.css";
import { LocaleSwitcher } from "@/components/pay/locale-switcher";
import styles from "@/components/pay/pay.module.css";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import { pickMessages } from "@/lib/i18n/pick-messages";
import { getPublicInvoiceView } from "@/lib/invoices/pay-invoice";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("invoice");
  return { title: t("pageTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

async function findInvoiceView(invoiceId: string) {
  if (!/^INV-[0-9A-Za-z]{22}$/.test(invoiceId)) return null;
  try {
    return await getPublicInvoiceView(await getDb(), invoiceId);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

const payable = new Set(["sent", "partially_paid", "overdue"]);

// GET /invoice/{invoice_id} – the hosted invoice: the document, its PDF, and a form that pays it through the checkout
export default async function InvoicePage({ params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const invoice = await findInvoiceView(invoiceId);
  if (!invoice) notFound();
  const t = await getTranslations("invoice");
  const methods = invoice.accepted_methods.map((m) => ({ ...m, network: findBlockchainBySlug(m.blockchain)?.name ?? m.blockchain }));
  const money = (value: string) => `${value} ${invoice.currency}`;
  return (
    <>
      <LocaleSwitcher returnTo={`/invoice/${invoice.id}`} />
      <main
        className={`${styles.page} ${invoiceStyles.branded}`}
        data-color-scheme="auto"
        style={
          invoice.brand.accent_color
            ? ({
                "--brand-accent": invoice.brand.accent_color,
                "--brand-accent-hover": `color-mix(in srgb, ${invoice.brand.accent_color} 82%, #000)`,
              } as React.CSSProperties)
            : undefined
        }
      >
        <header className={styles.header}>
          {invoice.brand.logo_url && (
            // eslint-disable-next-line @next/next/no-img-element -- the store's PNG, re-encoded on upload, served by this app
            <img className={invoiceStyles.logo} src={invoice.brand.logo_url} alt={invoice.shop_name} />
          )}
          <p className={styles.shop}>{invoice.shop_name}</p>
          <h1 className={styles.title}>{t("heading", { number: invoice.number })}</h1>
          <p className={styles.network}>
            <span className={invoiceStyles.status} data-testid="invoice-status">
              {t(`status_${invoice.status as "sent" | "partially_paid" | "overdue" | "paid" | "void"}`)}
            </span>{" "}
            {t("dueOn", { date: invoice.due_at.slice(0, 10) })}
          </p>
        </header>
        <section className={styles.card} aria-label={t("heading", { number: invoice.number })}>
          <div className={invoiceStyles.parties}>
            <div>
              <p className={invoiceStyles.label}>{t("from")}</p>
              <p>{invoice.shop_name}</p>
            </div>
            <div>
              <p className={invoiceStyles.label}>{t("billedTo")}</p>
              <p>{invoice.client.name}</p>
              {invoice.client.address && <p>{invoice.client.address}</p>}
              {invoice.client.tax_id && <p>{t("taxId", { taxId: invoice.client.tax_id })}</p>}
            </div>
          </div>
          <table className={invoiceStyles.table}>
            <thead>
              <tr>
                <th scope="col">{t("description")}</th>
                <th scope="col">{t("quantity")}</th>
                <th scope="col">{t("unitPrice")}</th>
                <th scope="col">{t("amount")}</th>
              </tr>
            </thead>
            <tbody>
              {invoice.items.map((item, i) => (
                <tr key={i}>
                  <td>{item.description}</td>
                  <td>{item.quantity}</td>
                  <td>{item.unit_price}</td>
                  <td>{item.amount}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  {t("subtotal")}
                </th>
                <td>{invoice.subtotal}</td>
              </tr>
              {invoice.taxes.map((tax, i) => (
                <tr key={i}>
                  <th scope="row" colSpan={3}>{`${tax.name} (${tax.rate} %)`}</th>
                  <td>{tax.amount}</td>
                </tr>
              ))}
              <tr className={invoiceStyles.strong}>
                <th scope="row" colSpan={3}>
                  {t("total")}
                </th>
                <td>{money(invoice.total)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  {t("paid")}
                </th>
                <td data-testid="invoice-paid">{money(invoice.amount_paid)}</td>
              </tr>
              <tr className={invoiceStyles.strong}>
                <th scope="row" colSpan={3}>
                  {t("amountDue")}
                </th>
                <td data-testid="invoice-due">{money(invoice.amount_due)}</td>
              </tr>
            </tfoot>
          </table>
          {invoice.notes && (
            <>
              <p className={invoiceStyles.label}>{t("notes")}</p>
              <p>{invoice.notes}</p>
            </>
          )}
          <div className={invoiceStyles.actions}>
            <a className={`${styles.button} ${styles.secondary} ${styles.small}`} href={`/invoice/${invoice.id}/pdf`} download>
              {t("downloadPdf")}
            </a>
            {invoice.status === "paid" && (
              <a className={`${styles.button} ${styles.secondary} ${styles.small}`} href={`/invoice/${invoice.id}/pdf?kind=receipt`} download>
                {t("downloadReceipt")}
              </a>
            )}
          </div>
        </section>
        {invoice.status === "paid" && (
          <p className={`${styles.card} ${styles.notice}`} role="status">
            {t("paidNotice")}
          </p>
        )}
        {(invoice.brand.support_email || invoice.brand.support_url) && (
          <p className={invoiceStyles.support}>
            {t("support")} {invoice.brand.support_email && <a href={`mailto:${invoice.brand.support_email}`}>{invoice.brand.support_email}</a>}
            {invoice.brand.support_email && invoice.brand.support_url && " · "}
            {invoice.brand.support_url && <a href={invoice.brand.support_url}>{invoice.brand.support_url.replace(/^https:\/\//, "")}</a>}
          </p>
        )}
        {invoice.status === "void" && (
          <p className={`${styles.card} ${styles.notice}`} role="status">
            {t("voidNotice", { shop: invoice.shop_name })}
          </p>
        )}
        {payable.has(invoice.status) && (
          <NextIntlClientProvider messages={pickMessages(await getMessages(), ["invoice", "errors"])}>
            <InvoiceCheckout invoice={invoice} methods={methods} />
          </NextIntlClientProvider>
        )}
      </main>
    </>
  );
}
