import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { Button, Card, Row, uiStyles } from "@/components/ui";
import { FilterForm, FilterInput, FilterSelect } from "@/components/ui/filter-form";
import { Pager } from "@/components/ui/pager";
import { OrdersTable } from "@/components/dashboard/orders-table";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { moneyFilterOptions, ordersPageSize, parseOrderFilters, toOrderSearch } from "@/lib/dashboard/order-filters";
import { ordersWithMoney } from "@/lib/dashboard/orders-with-money";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { searchOrders } from "@/lib/orders/queries";
import { orderStatuses } from "@/lib/orders/schemas";
import { CreateOrderForm } from "@/components/dashboard/create-order-form";
import { CreateDialog } from "@/components/dashboard/create-dialog";
import { paymentChoices } from "@/lib/dashboard/payment-choices";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { isSandbox } from "@/lib/env";
import { createOrderAction } from "./actions";

export const metadata: Metadata = { title: "Orders · Dashboard" };

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const params = await searchParams;
  const filters = parseOrderFilters(params);
  const created = typeof params.created === "string" ? params.created : undefined;
  const pageNumber = filters.page ?? 1;
  const db = await getDb();
  const [{ rows, count, exact }, choices] = await Promise.all([
    searchOrders(db, merchant.merchantId, toOrderSearch(filters), { limit: ordersPageSize, offset: (pageNumber - 1) * ordersPageSize }),
    paymentChoices(db, merchant.merchantId),
  ]);
  const orders = await ordersWithMoney(db, merchant.merchantId, rows);
  const linkTo = (p: number) => {
    const params = new URLSearchParams(
      Object.entries(filters)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    params.set("page", String(p));
    return `/dashboard/orders?${params.toString()}`;
  };
  const now = requestTime().getTime();
  const today = new Date(now).toISOString().slice(0, 10);
  const monthAgo = new Date(now - 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

  return (
    <>
      <h1>Orders</h1>
      <CreateDialog openLabel={isSandbox ? "Create a test order" : "Create an order"} title={isSandbox ? "Create an order (sandbox)" : "Create an order"}>
        <p>Creates a {isSandbox ? "test" : "live"} order and its payment page. Price it in the token, or in a fiat currency converted at the on-chain rate.</p>
        <CreateOrderForm action={createOrderAction} chains={choices.chains} defaultChain={choices.defaultChain} fiatCurrencies={Object.keys(fiatCurrencies)} />
      </CreateDialog>
      <FilterForm label="Filter orders" clearHref="/dashboard/orders">
        <FilterInput label="Search" name="q" type="search" value={filters.q} placeholder="Order id, address, nonce, SKU or item" />
        <FilterSelect label="Status" name="status" options={orderStatuses} value={filters.status} />
        <FilterSelect
          label="Blockchain"
          name="blockchain"
          options={listBlockchains().map((c) => ({ value: c.slug, label: c.name }))}
          value={filters.blockchain}
        />
        <FilterInput label="Currency" name="currency" value={filters.currency} placeholder="USDC" />
        <FilterSelect label="Payment" name="money" options={moneyFilterOptions} value={filters.money} />
        <FilterInput label="From" name="from" type="date" value={filters.from} />
        <FilterInput label="To" name="to" type="date" value={filters.to} />
      </FilterForm>

      <p aria-live="polite">
        {exact ? "" : "About "}
        {count} order{count === 1 ? "" : "s"}
      </p>
      <OrdersTable orders={orders} caption="Orders" highlight={created} />
      <Pager page={pageNumber} lastPage={Math.max(1, Math.ceil(count / ordersPageSize))} href={linkTo} />

      <Card title="Export CSV">
        <form method="get" action="/dashboard/orders/export" aria-label="Export orders as CSV">
          <Row>
            <FilterInput label="Created from" id="export-from" name="from" type="date" required value={filters.from ?? monthAgo} />
            <FilterInput label="Created to (inclusive)" id="export-to" name="to" type="date" required value={filters.to ?? today} />
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
