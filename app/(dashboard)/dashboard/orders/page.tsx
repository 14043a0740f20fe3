import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { Button, Card, LinkButton, PlainField, Row, uiStyles } from "@/components/ui";
import { OrdersTable } from "@/components/dashboard/orders-table";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { ordersPageSize, parseOrderFilters, toOrderSearch } from "@/lib/dashboard/order-filters";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { searchOrders } from "@/lib/orders/queries";
import { orderStatuses } from "@/lib/orders/schemas";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { isSandbox } from "@/lib/env";
import { createOrderAction } from "./actions";

export const metadata: Metadata = { title: "Orders · Dashboard" };

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const filters = parseOrderFilters(await searchParams);
  const pageNumber = filters.page ?? 1;
  const { rows, count } = await searchOrders(await getDb(), merchant.merchantId, toOrderSearch(filters), {
    limit: ordersPageSize,
    offset: (pageNumber - 1) * ordersPageSize,
  });
  const lastPage = Math.max(1, Math.ceil(count / ordersPageSize));
  const linkTo = (p: number) => {
    const params = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
    params.set("page", String(p));
    return `/dashboard/orders?${params.toString()}`;
  };
  const now = requestTime().getTime();
  const today = new Date(now).toISOString().slice(0, 10);
  const monthAgo = new Date(now - 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

  return (
    <>
      <h1>Orders</h1>
      <Card title={isSandbox ? "Create an order (sandbox)" : "Create an order"}>
        <p>
          Creates a {isSandbox ? "test" : "live"} order and its payment page, as <code>POST /api/payment-orders/</code> does. Price it in the token, or in a
          fiat currency converted at the on-chain rate.
        </p>
        <ActionForm action={createOrderAction} submitLabel="Create order" showResult label="Create an order">
          <Row>
            <SelectField label="Blockchain" name="blockchain" options={listBlockchains().map((c) => ({ value: c.slug, label: c.name }))} />
            <SelectField
              label="Paid in"
              name="currency"
              options={[...new Set(listBlockchains().flatMap((c) => c.tokens.map((t) => t.symbol)))].map((s) => ({ value: s, label: s }))}
              defaultValue="USDC"
            />
            <Field label="Price" name="price" required inputMode="decimal" placeholder="10.50" />
            <SelectField
              label="Priced in"
              name="price_currency"
              options={[{ value: "token", label: "the token" }, ...Object.keys(fiatCurrencies).map((c) => ({ value: c, label: c }))]}
            />
          </Row>
          <Field label="Order info (JSON, optional)" name="order_info" placeholder='{"sku":"A1"}' spellCheck={false} />
        </ActionForm>
      </Card>
      <Card>
        <form method="get" role="search" aria-label="Filter orders">
          <Row>
            <PlainField label="Search" name="q">
              <input id="f-q" name="q" type="search" defaultValue={filters.q ?? ""} placeholder="Order id, address or nonce" />
            </PlainField>
            <PlainField label="Status" name="status">
              <select id="f-status" name="status" defaultValue={filters.status ?? ""}>
                <option value="">Any</option>
                {orderStatuses.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </PlainField>
            <PlainField label="Blockchain" name="blockchain">
              <select id="f-blockchain" name="blockchain" defaultValue={filters.blockchain ?? ""}>
                <option value="">Any</option>
                {listBlockchains().map((c) => (
                  <option key={c.slug} value={c.slug}>
                    {c.name}
                  </option>
                ))}
              </select>
            </PlainField>
            <PlainField label="Currency" name="currency">
              <input id="f-currency" name="currency" defaultValue={filters.currency ?? ""} placeholder="USDC" />
            </PlainField>
            <PlainField label="From" name="from">
              <input id="f-from" name="from" type="date" defaultValue={filters.from ?? ""} />
            </PlainField>
            <PlainField label="To" name="to">
              <input id="f-to" name="to" type="date" defaultValue={filters.to ?? ""} />
            </PlainField>
          </Row>
          <Row>
            <Button type="submit">Apply filters</Button>
            <LinkButton href="/dashboard/orders">Clear</LinkButton>
          </Row>
        </form>
      </Card>

      <p aria-live="polite">
        {count} order{count === 1 ? "" : "s"}
      </p>
      <OrdersTable orders={rows} caption="Orders" />
      <nav className={uiStyles.pager} aria-label="Pages">
        {pageNumber > 1 ? <a href={linkTo(pageNumber - 1)}>← Previous</a> : null}
        <span>
          Page {Math.min(pageNumber, lastPage)} of {lastPage}
        </span>
        {pageNumber < lastPage ? <a href={linkTo(pageNumber + 1)}>Next →</a> : null}
      </nav>

      <Card title="Export CSV">
        <form method="get" action="/dashboard/orders/export" aria-label="Export orders as CSV">
          <Row>
            <PlainField label="Created from" name="export-from">
              <input id="f-export-from" name="from" type="date" required defaultValue={filters.from ?? monthAgo} />
            </PlainField>
            <PlainField label="Created to (inclusive)" name="export-to">
              <input id="f-export-to" name="to" type="date" required defaultValue={filters.to ?? today} />
            </PlainField>
            <Button type="submit" variant="secondary">
              Download CSV
            </Button>
          </Row>
          <p className={uiStyles.hint}>Dates are UTC days; at most 366 days per export.</p>
        </form>
      </Card>
    </>
  );
}
