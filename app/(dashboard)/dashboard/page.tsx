import Link from "next/link";
import type { Metadata } from "next";
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

export const metadata: Metadata = { title: "Overview · Dashboard" };

const statusColumns: Array<Column<TokenSeries>> = [
  ...orderStatuses.map((s): Column<TokenSeries> => ({ header: s, cell: (t) => t.countsByStatus[s] })),
  { header: "confirmed volume", cell: (t) => `${t.confirmedVolume} ${t.currency}` },
];

const fiatColumns: Array<Column<FiatTotal>> = [
  { header: "currency", cell: "currency" },
  { header: `last ${overviewDays} days`, cell: (f) => `${f.total} ${f.currency}`, align: "end" },
  { header: "orders", cell: "orders", align: "end" },
  { header: `${overviewDays} days before`, cell: (f) => `${f.previousTotal} ${f.currency}`, align: "end" },
  { header: "trend", cell: (f) => trendText(f.changePercent), align: "end" },
];

function trendText(changePercent: number | null): string {
  if (changePercent === null) return "new";
  if (changePercent === 0) return "no change";
  return `${changePercent > 0 ? "▲ +" : "▼ "}${changePercent}%`;
}

const providerColumns: Array<Column<ProviderStatusRow>> = [
  { header: "network", cell: "chain" },
  { header: "provider", cell: "provider", mono: true },
  { header: "state", cell: (p) => <Badge status={p.aside ? "failed" : "ok"}>{p.state}</Badge> },
  { header: "errors (last 100 calls)", cell: "errorRate", align: "end" },
  { header: "latency", cell: "latency", align: "end" },
  { header: "head lag", cell: "headLag", align: "end" },
];

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
  const steps: Array<[boolean, string, string]> = [
    [setup.walletConfigured, "Add a receiving wallet", "/dashboard/wallets"],
    [setup.apiKeyCreated, "Create an API key", "/dashboard/api-keys"],
    [
      setup.webhookEndpointDelivered,
      setup.webhookEndpointAdded
        ? "Get a successful (2xx) answer from a webhook endpoint: send it a test event"
        : "Add a webhook endpoint and send it a test event",
      "/dashboard/webhooks",
    ],
    [setup.firstTestPayment, "Receive a first test payment", "/dashboard/sandbox"],
  ];
  const done = steps.filter(([ok]) => ok).length;
  const orderCount = tokens.reduce((n, t) => n + t.totalOrders, 0);

  return (
    <>
      <h1>Overview</h1>
      <div className={styles.grid}>
        <Card title="Setup checklist">
          <p>
            {done} of {steps.length} done
          </p>
          <ul className={styles.checklist}>
            {steps.map(([ok, label, href]) => (
              <li key={label} data-done={ok}>
                <Badge status={ok ? "ok" : "other"}>{ok ? "done" : "to do"}</Badge> {ok ? <span>{label}</span> : <a href={href}>{label}</a>}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={`Last ${overviewDays} days`}>
          <p className={styles.stat}>{orderCount === 1 ? "1 order" : `${orderCount} orders`}</p>
          <p>{tokens.length === 0 ? "No orders yet." : tokens.map((t) => `${t.confirmedVolume} ${t.currency} (${t.blockchain})`).join(" · ") + " confirmed"}</p>
          <div data-fiat-across-tokens={acrossTokens.currency}>
            <p className={styles.stat}>
              {displayFiat(acrossTokens.total, acrossTokens.currency, "en")} <span className={styles.statNote}>received, all tokens</span>
            </p>
            <p>
              {acrossTokens.changePercent === null
                ? `Nothing in the ${overviewDays} days before.`
                : `${trendText(acrossTokens.changePercent)} against the ${overviewDays} days before (${displayFiat(acrossTokens.previousTotal, acrossTokens.currency, "en")}).`}{" "}
              Confirmed payments valued as in the exports: at the rate locked when the order was priced in US dollars, else at the price recorded when the
              payment was detected.
              {acrossTokens.unvaluedOrders > 0
                ? ` Not included: ${acrossTokens.unvaluedOrders === 1 ? "1 order" : `${acrossTokens.unvaluedOrders} orders`} paid in a token with no recorded price.`
                : ""}
            </p>
          </div>
        </Card>
        <Card title="Reversed by a reorg">
          <div data-reversed-payments>
            {reversed.length === 0 ? (
              <p>No payment is reversed.</p>
            ) : (
              <>
                {reversed.map((r) => (
                  <p key={`${r.blockchain}:${r.currency}`} className={styles.stat}>
                    {r.orders === 1 ? "1 order" : `${r.orders} orders`}: {r.amount} {r.currency} ({r.blockchain})
                  </p>
                ))}
                <p>
                  The network took these payments back after they counted; they are not in your wallet until they return.{" "}
                  <Link href="/dashboard/orders?money=reversed">See the orders</Link>
                </p>
              </>
            )}
          </div>
        </Card>
        <Card title={`Gas in ${month.label}`}>
          <div data-sweep-gas-month>
            {sweepGas.length === 0 ? (
              <p>No sweeps this month.</p>
            ) : (
              sweepGas.map((row) => {
                const chain = findBlockchainById(row.blockchainId);
                return (
                  <p key={row.blockchainId}>
                    {chain?.name ?? row.blockchainId}: {row.gasUsed.toLocaleString("en-US")} gas, {formatAmount(row.gasCostWei, 18)}{" "}
                    {chain?.nativeCurrency.symbol ?? "ETH"} for {row.orders === 1 ? "1 order" : `${row.orders} orders`}
                  </p>
                );
              })
            )}
            <p>What the gateway spent moving your payments from their deposit addresses to your wallet (each order&apos;s share of its batch).</p>
          </div>
          <div data-relay-gas-month>
            {relayGas.map((row) => {
              const chain = findBlockchainById(row.blockchainId);
              return (
                <p key={row.blockchainId}>
                  Paid without gas on {chain?.name ?? row.blockchainId}: {row.gasUsed.toLocaleString("en-US")} gas, {formatAmount(row.costWei, 18)}{" "}
                  {chain?.nativeCurrency.symbol ?? "ETH"} for {row.relays === 1 ? "1 payment" : `${row.relays} payments`} the gateway relayed
                </p>
              );
            })}
          </div>
        </Card>
      </div>

      <h2>Fiat totals</h2>
      <DataTable
        caption={`Confirmed orders priced in fiat, by price currency: the last ${overviewDays} days against the ${overviewDays} days before`}
        columns={fiatColumns}
        rows={fiat.totals}
        rowKey={(row) => row.currency}
        rowData={(row) => ({ "data-fiat": row.currency })}
        empty="No confirmed order priced in fiat yet."
      />
      {fiat.tokenPricedOrders > 0 ? (
        <p>
          Not included: {fiat.tokenPricedOrders} confirmed order{fiat.tokenPricedOrders === 1 ? "" : "s"} priced in tokens (no fiat price was locked for{" "}
          {fiat.tokenPricedOrders === 1 ? "it" : "them"}).
        </p>
      ) : null}

      <h2>Volume and orders by token</h2>
      {tokens.length === 0 ? <p>Charts appear once you have orders.</p> : null}
      {tokens.map((t) => (
        <Card key={t.key} title={`${t.currency} on ${t.blockchain}`} headingLevel={3}>
          <VolumeChart series={t} />
          <DataTable caption={`Orders by status, ${t.currency} on ${t.blockchain}`} columns={statusColumns} rows={[t]} rowKey={(row) => row.key} empty={null} />
        </Card>
      ))}

      <h2>Network status</h2>
      <DataTable
        caption="RPC providers of each network, as this server sees them"
        columns={providerColumns}
        rows={providerStatus()}
        rowKey={(row) => row.key}
        rowData={(row) => ({ "data-provider": row.key })}
        empty="No network is configured."
      />

      <h2>Recent orders</h2>
      <OrdersTable orders={recentOrders} caption="Recent orders" />
      <p>
        <Link href="/dashboard/orders">All orders</Link>
      </p>
    </>
  );
}
