import Link from "next/link";
import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Badge, Card } from "@/components/ui";
import { DataTable, type Column } from "@/components/ui/data-table";
import styles from "@/components/dashboard/dashboard.module.css";
import { OrdersTable } from "@/components/dashboard/orders-table";
import { VolumeChart } from "@/components/dashboard/volume-chart";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { loadOverview, overviewDays, type FiatTotal, type TokenSeries } from "@/lib/dashboard/overview";
import { providerStatus, type ProviderStatusRow } from "@/lib/dashboard/provider-status";
import { orderStatuses } from "@/lib/orders/schemas";
import { ordersWithMoney } from "@/lib/dashboard/orders-with-money";
import { getDb } from "@/lib/db/client";
import { findBlockchainById } from "@/lib/chains/catalog";
import { monthOf, sweepGasTotals } from "@/lib/chains/sweep-cost-queries";
import { relayGasTotals } from "@/lib/gasless/queries";
import { formatAmount } from "@/lib/money/amounts";
import { displayFiat } from "@/lib/money/display-amount";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("dashboard.overview");
  return { title: t("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.overview">>>;

function statusColumns(t: T, s: Awaited<ReturnType<typeof getTranslations<"dashboard.orderTable.statuses">>>): Array<Column<TokenSeries>> {
  return [
    ...orderStatuses.map((status): Column<TokenSeries> => ({ header: s(status), cell: (row) => row.countsByStatus[status] })),
    { header: t("confirmedVolume"), cell: (row) => `${row.confirmedVolume} ${row.currency}` },
  ];
}

function fiatColumns(t: T): Array<Column<FiatTotal>> {
  return [
    { header: t("fiat.currency"), cell: "currency" },
    { header: t("fiat.lastDays", { days: overviewDays }), cell: (f) => `${f.total} ${f.currency}`, align: "end" },
    { header: t("fiat.orders"), cell: "orders", align: "end" },
    { header: t("fiat.daysBefore", { days: overviewDays }), cell: (f) => `${f.previousTotal} ${f.currency}`, align: "end" },
    { header: t("fiat.trend"), cell: (f) => trendText(t, f.changePercent), align: "end" },
  ];
}

function trendText(t: T, changePercent: number | null): string {
  if (changePercent === null) return t("fiat.new");
  if (changePercent === 0) return t("fiat.noChange");
  return `${changePercent > 0 ? "▲ +" : "▼ "}${changePercent}%`;
}

function providerColumns(t: T): Array<Column<ProviderStatusRow>> {
  return [
    { header: t("network.network"), cell: "chain" },
    { header: t("network.provider"), cell: "provider", mono: true },
    { header: t("network.state"), cell: (p) => <Badge status={p.aside ? "failed" : "ok"}>{p.state}</Badge> },
    { header: t("network.errors"), cell: "errorRate", align: "end" },
    { header: t("network.latency"), cell: "latency", align: "end" },
    { header: t("network.headLag"), cell: "headLag", align: "end" },
  ];
}

export default async function OverviewPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
  const month = monthOf(new Date());
  const [{ tokens, recent, setup, fiat, reversed, acrossTokens }, sweepGas, relayGas] = await Promise.all([
    loadOverview(db, merchant.merchantId),
    sweepGasTotals(db, merchant.merchantId, month.from, month.to),
    relayGasTotals(db, merchant.merchantId, month.from, month.to),
  ]);
  const recentOrders = await ordersWithMoney(db, merchant.merchantId, recent);
  const [t, s, format, locale] = await Promise.all([
    getTranslations("dashboard.overview"),
    getTranslations("dashboard.orderTable.statuses"),
    getFormatter(),
    getLocale(),
  ]);
  const steps: Array<[boolean, string, string]> = [
    [setup.walletConfigured, t("setup.wallet"), "/dashboard/wallets"],
    [setup.apiKeyCreated, t("setup.apiKey"), "/dashboard/api-keys"],
    [setup.webhookEndpointDelivered, setup.webhookEndpointAdded ? t("setup.webhookAnswer") : t("setup.webhookAdd"), "/dashboard/webhooks"],
    [setup.firstTestPayment, t("setup.testPayment"), "/dashboard/sandbox"],
  ];
  const done = steps.filter(([ok]) => ok).length;
  const orderCount = tokens.reduce((n, t) => n + t.totalOrders, 0);

  return (
    <>
      <h1>{t("heading")}</h1>
      <div className={styles.grid}>
        <Card title={t("setup.title")}>
          <p>{t("setup.progress", { done, total: steps.length })}</p>
          <ul className={styles.checklist}>
            {steps.map(([ok, label, href]) => (
              <li key={label} data-done={ok}>
                <Badge status={ok ? "ok" : "other"}>{ok ? t("setup.done") : t("setup.toDo")}</Badge> {ok ? <span>{label}</span> : <a href={href}>{label}</a>}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={t("lastDays", { days: overviewDays })}>
          <p className={styles.stat}>{t("orderCount", { count: orderCount })}</p>
          <p>
            {tokens.length === 0
              ? t("noOrders")
              : t("confirmedList", { list: tokens.map((row) => `${row.confirmedVolume} ${row.currency} (${row.blockchain})`).join(" · ") })}
          </p>
          <div data-fiat-across-tokens={acrossTokens.currency}>
            <p className={styles.stat}>
              {displayFiat(acrossTokens.total, acrossTokens.currency, locale)} <span className={styles.statNote}>{t("acrossTokens.received")}</span>
            </p>
            <p>
              {acrossTokens.changePercent === null
                ? t("acrossTokens.nothingBefore", { days: overviewDays })
                : t("acrossTokens.against", {
                    trend: trendText(t, acrossTokens.changePercent),
                    days: overviewDays,
                    previous: displayFiat(acrossTokens.previousTotal, acrossTokens.currency, locale),
                  })}{" "}
              {t("acrossTokens.valuedAs")}
              {acrossTokens.unvaluedOrders > 0 ? ` ${t("acrossTokens.notIncluded", { count: acrossTokens.unvaluedOrders })}` : ""}
            </p>
          </div>
        </Card>
        <Card title={t("reversed.title")}>
          <div data-reversed-payments>
            {reversed.length === 0 ? (
              <p>{t("reversed.none")}</p>
            ) : (
              <>
                {reversed.map((r) => (
                  <p key={`${r.blockchain}:${r.currency}`} className={styles.stat}>
                    {t("orderCount", { count: r.orders })}: {r.amount} {r.currency} ({r.blockchain})
                  </p>
                ))}
                <p>
                  {t("reversed.explain")} <Link href="/dashboard/orders?money=reversed">{t("reversed.seeOrders")}</Link>
                </p>
              </>
            )}
          </div>
        </Card>
        <Card title={t("gas.title", { month: month.label })}>
          <div data-sweep-gas-month>
            {sweepGas.length === 0 ? (
              <p>{t("gas.noSweeps")}</p>
            ) : (
              sweepGas.map((row) => {
                const chain = findBlockchainById(row.blockchainId);
                return (
                  <p key={row.blockchainId}>
                    {t("gas.sweepRow", {
                      chain: chain?.name ?? String(row.blockchainId),
                      gas: format.number(row.gasUsed),
                      cost: formatAmount(row.gasCostWei, 18),
                      symbol: chain?.nativeCurrency.symbol ?? "ETH",
                      count: row.orders,
                    })}
                  </p>
                );
              })
            )}
            <p>{t("gas.sweepExplain")}</p>
          </div>
          <div data-relay-gas-month>
            {relayGas.map((row) => {
              const chain = findBlockchainById(row.blockchainId);
              return (
                <p key={row.blockchainId}>
                  {t("gas.relayRow", {
                    chain: chain?.name ?? String(row.blockchainId),
                    gas: format.number(row.gasUsed),
                    cost: formatAmount(row.costWei, 18),
                    symbol: chain?.nativeCurrency.symbol ?? "ETH",
                    count: row.relays,
                  })}
                </p>
              );
            })}
          </div>
        </Card>
      </div>

      <h2>{t("fiat.title")}</h2>
      <DataTable
        caption={t("fiat.caption", { days: overviewDays })}
        columns={fiatColumns(t)}
        rows={fiat.totals}
        rowKey={(row) => row.currency}
        rowData={(row) => ({ "data-fiat": row.currency })}
        empty={t("fiat.empty")}
      />
      {fiat.tokenPricedOrders > 0 ? <p>{t("fiat.notIncluded", { count: fiat.tokenPricedOrders })}</p> : null}

      <h2>{t("byToken.title")}</h2>
      {tokens.length === 0 ? <p>{t("byToken.empty")}</p> : null}
      {tokens.map((row) => (
        <Card key={row.key} title={t("byToken.series", { currency: row.currency, blockchain: row.blockchain })} headingLevel={3}>
          <VolumeChart series={row} />
          <DataTable
            caption={t("byToken.caption", { currency: row.currency, blockchain: row.blockchain })}
            columns={statusColumns(t, s)}
            rows={[row]}
            rowKey={(r) => r.key}
            empty={null}
          />
        </Card>
      ))}

      <h2>{t("network.title")}</h2>
      <DataTable
        caption={t("network.caption")}
        columns={providerColumns(t)}
        rows={providerStatus()}
        rowKey={(row) => row.key}
        rowData={(row) => ({ "data-provider": row.key })}
        empty={t("network.empty")}
      />

      <h2>{t("recent")}</h2>
      <OrdersTable orders={recentOrders} caption={t("recent")} />
      <p>
        <Link href="/dashboard/orders">{t("allOrders")}</Link>
      </p>
    </>
  );
}
