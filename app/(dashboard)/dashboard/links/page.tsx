import type { Metadata } from "next";
import { Card, Row } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { serializeLink } from "@/lib/payment-links/payment-links";
import { listMerchantLinks } from "@/lib/payment-links/queries";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { createLinkAction, deleteLinkAction } from "./actions";

export const metadata: Metadata = { title: "Payment links · Dashboard" };

// /dashboard/links – create, share and delete reusable payment links
export default async function PaymentLinksPage() {
  const merchant = await requirePageMerchant();
  const { rows } = await listMerchantLinks(await getDb(), merchant.merchantId, { limit: 100, offset: 0 });
  const links = rows.map(serializeLink);
  const choices = listBlockchains().flatMap((c) => c.tokens.map((t) => ({ value: `${c.slug}:${t.symbol}`, label: `${t.symbol} on ${c.name}` })));

  return (
    <>
      <h1>Payment links</h1>
      <Card title="Create a payment link">
        <p>A reusable link for a product or a donation: each customer who opens it picks how to pay and gets a fresh order.</p>
        <ActionForm action={createLinkAction} submitLabel="Create link" showResult label="Create a payment link">
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
          <fieldset>
            <legend>The customer may pay with</legend>
            {choices.map((c) => (
              <label key={c.value} style={{ display: "inline-flex", gap: "0.35rem", marginRight: "1rem" }}>
                <input type="checkbox" name="options" value={c.value} defaultChecked={c.value === "base:USDC"} /> {c.label}
              </label>
            ))}
          </fieldset>
        </ActionForm>
      </Card>
      <Card title="Your links">
        {links.length === 0 ? (
          <p>No payment links yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Title</th>
                <th>Price</th>
                <th>Options</th>
                <th>Link</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id}>
                  <td>
                    {l.title}
                    {l.is_active ? "" : " (inactive)"}
                  </td>
                  <td>{l.price_amount ? `${l.price_amount} ${l.price_currency}` : `${l.amount} ${l.options[0]?.currency ?? ""}`}</td>
                  <td>{l.options.map((o) => `${o.currency}/${o.blockchain}`).join(", ")}</td>
                  <td>
                    <a href={l.url}>{l.id}</a>
                  </td>
                  <td>
                    <ActionForm action={deleteLinkAction} submitLabel="Delete" variant="danger" small confirmText={`Delete the link “${l.title}”? Its page will answer 404.`} label={`Delete ${l.title}`}>
                      <input type="hidden" name="id" value={l.id} />
                    </ActionForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
