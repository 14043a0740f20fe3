import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.orders"))("metaTitle") };
}

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
  const [t, statusName] = await Promise.all([getTranslations("dashboard.orders"), getTranslations("dashboard.orderTable.statuses")]);
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
      <h1>{t("heading")}</h1>
      <CreateDialog openLabel={isSandbox ? t("create.openTest") : t("create.open")} title={isSandbox ? t("create.titleTest") : t("create.title")}>
        <p>{isSandbox ? t("create.explainTest") : t("create.explain")}</p>
        <CreateOrderForm action={createOrderAction} chains={choices.chains} defaultChain={choices.defaultChain} fiatCurrencies={Object.keys(fiatCurrencies)} />
      </CreateDialog>
      <FilterForm label={t("filter.label")} clearHref="/dashboard/orders">
        <FilterInput label={t("filter.search")} name="q" type="search" value={filters.q} placeholder={t("filter.searchPlaceholder")} />
        <FilterSelect
          label={t("filter.status")}
          name="status"
          options={orderStatuses.map((s) => ({ value: s, label: statusName(s) }))}
          value={filters.status}
        />
        <FilterSelect
          label={t("filter.blockchain")}
          name="blockchain"
          options={listBlockchains().map((c) => ({ value: c.slug, label: c.name }))}
          value={filters.blockchain}
        />
        <FilterInput label={t("filter.currency")} name="currency" value={filters.currency} placeholder="USDC" />
        <FilterSelect
          label={t("filter.payment")}
          name="money"
          options={moneyFilterOptions.map((o) => ({ value: o.value, label: t(`filter.money.${o.value as "reversed" | "not_counted"}`) }))}
          value={filters.money}
        />
        <FilterInput label={t("filter.from")} name="from" type="date" value={filters.from} />
        <FilterInput label={t("filter.to")} name="to" type="date" value={filters.to} />
      </FilterForm>

      <p aria-live="polite">{exact ? t("count", { count }) : t("countAbout", { count })}</p>
      <OrdersTable orders={orders} caption={t("heading")} highlight={created} />
      <Pager page={pageNumber} lastPage={Math.max(1, Math.ceil(count / ordersPageSize))} href={linkTo} />

      <Card title={t("export.title")}>
        <form method="get" action="/dashboard/orders/export" aria-label={t("export.label")}>
          <Row>
            <FilterInput label={t("export.from")} id="export-from" name="from" type="date" required value={filters.from ?? monthAgo} />
            <FilterInput label={t("export.to")} id="export-to" name="to" type="date" required value={filters.to ?? today} />
            <Button type="submit" variant="secondary">
              {t("export.download")}
            </Button>
          </Row>
          <p className={uiStyles.hint}>{t("export.hint")}</p>
        </form>
      </Card>
    </>
  );
}
