import Link from "next/link";
import type { ReactNode } from "react";
import type { Metadata } from "next";
import { getFormatter, getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Alert, Badge, Card, DescriptionList, LinkButton } from "@/components/ui";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DeliveriesList } from "@/components/dashboard/deliveries-list";
import { OrderTimeline } from "@/components/dashboard/order-timeline";
import { chainSlug, explorerUrl, formatDate } from "@/components/dashboard/format";
import { getDb } from "@/lib/db/client";
import { findBlockchainById } from "@/lib/chains/catalog";
import { loadOrderDetail } from "@/lib/dashboard/order-detail";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { formatAmount } from "@/lib/money/amounts";
import { paymentUrl } from "@/lib/orders/serialize";
import { serializeAcceptedMethods, serializePaymentMethod } from "@/lib/orders/payment-methods";
import { notCountedReason, serializeTransactionListItem } from "@/lib/transactions/serialize";
import { isRefundable } from "@/lib/refunds/create-refund";
import { orderMoney } from "@/lib/orders/order-money";
import type { serializeRefund } from "@/lib/refunds/serialize";
import type { GaslessRelay, PaymentOrder, Transaction } from "@/lib/db/schema";
import { formatEther, formatGwei } from "viem";
import { createRefundAction, enterRefundAddressAction, redeliverAction } from "./actions";
import { EnterRefundAddressForm, RefundForm, SignRefundButton } from "@/components/dashboard/refund-panel";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.orderDetail"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.orderDetail">>>;

/** Orders with several (chain, token) methods: which one the customer paid by, and what was offered (issue 27). */
function methodRows(t: T, order: PaymentOrder): [string, ReactNode][] {
  const methods = serializeAcceptedMethods(order);
  if (methods.length < 2) return [];
  const paid = serializePaymentMethod(order);
  return [
    [
      t("paidBy"),
      <span key="p" data-testid="payment-method">
        {paid ? t("methodOn", { currency: paid.currency, blockchain: String(paid.blockchain) }) : t("noPaymentYet")}
      </span>,
    ],
    [t("acceptedMethods"), methods.map((m) => t("amountOn", { amount: m.amount, currency: m.currency, blockchain: String(m.blockchain) })).join(", ")],
  ];
}

/** A transfer to the deposit address as the table shows it: the API's list item, its block, whether it counts, its explorer link. */
function transferRow(t: T, transfer: Transaction, order: PaymentOrder) {
  const reason = notCountedReason(transfer, order);
  return {
    ...serializeTransactionListItem(transfer),
    id: transfer.id,
    block: transfer.blockNumber.toString(),
    counts: reason ? t(`counts.${reason}`) : t("counts.yes"),
    explorer: explorerUrl(transfer.blockchainId, "tx", transfer.txHash),
  };
}

const transferColumns = (t: T): Array<Column<ReturnType<typeof transferRow>>> => [
  {
    header: t("transfers.hash"),
    cell: (row) => (
      <>
        <Link href={`/dashboard/transactions/${row.transaction_hash}`} className="mono">
          {row.transaction_hash}
        </Link>
        {row.explorer ? (
          <>
            {" "}
            (
            <a href={row.explorer} target="_blank" rel="noopener noreferrer">
              {t("transfers.explorer")}
            </a>
            )
          </>
        ) : null}
      </>
    ),
  },
  { header: t("transfers.status"), cell: (row) => <Badge status={row.status} /> },
  { header: t("transfers.amount"), cell: (row) => `${row.amount} ${row.currency}` },
  { header: t("transfers.block"), cell: "block" },
  { header: t("transfers.counts"), cell: "counts" },
];

/** A gasless payment the gateway relayed (paid the gas of) for this order: lib/gasless. */
function relayRow(t: T, relay: GaslessRelay, nativeSymbol: string) {
  return {
    id: relay.id,
    hash: relay.txHash,
    status: relay.status,
    gasUsed: relay.gasUsed?.toString() ?? t("relays.upTo", { limit: String(relay.gasLimit) }),
    gasPrice: relay.effectiveGasPrice ? `${formatGwei(BigInt(relay.effectiveGasPrice))} gwei` : "",
    cost: relay.costWei ? `${formatEther(BigInt(relay.costWei))} ${nativeSymbol}` : "",
    from: relay.fromAddress,
    at: relay.createdAt,
  };
}

const relayColumns = (t: T): Array<Column<ReturnType<typeof relayRow>>> => [
  { header: t("relays.transaction"), cell: (r) => (r.hash ? <span className="mono">{r.hash}</span> : t("relays.notSent")) },
  { header: t("relays.status"), cell: (r) => <Badge status={r.status} /> },
  { header: t("relays.signedBy"), cell: "from", mono: true },
  { header: t("relays.gasUsed"), cell: "gasUsed" },
  { header: t("relays.gasPrice"), cell: "gasPrice" },
  { header: t("relays.cost"), cell: "cost" },
  { header: t("relays.relayed"), cell: (r) => formatDate(r.at) },
];

/** How the customer's refund address was given, for the merchant to judge it (issue 52). */
function refundAddressProvenance(
  t: T,
  order: { refundAddressSource: string | null; refundAddressSignedBy: string | null; refundAddressGivenBy: string | null },
) {
  const source = order.refundAddressSource ?? (order.refundAddressSignedBy ? "payer_signature" : null);
  if (source === "payer_signature") return t.rich("signedByPayer", { payer: order.refundAddressSignedBy ?? "", code: (chunks) => <code>{chunks}</code> });
  if (source === "email_link") return t("refundAddressByEmailLink", { email: order.refundAddressGivenBy ?? "—" });
  if (source === "merchant") return t("refundAddressByMember", { member: order.refundAddressGivenBy ?? "—" });
  return t("notSignedByPayer");
}

const refundColumns = (t: T): Array<Column<ReturnType<typeof serializeRefund>>> => [
  { header: t("refunds.amount"), cell: (r) => `${r.amount} ${r.currency}` },
  { header: t("refunds.to"), cell: "to_address", mono: true },
  { header: t("refunds.status"), cell: (r) => <Badge status={r.status} /> },
  {
    header: t("refunds.transaction"),
    cell: (r) =>
      r.transaction_hash ? (
        <span className="mono">{r.transaction_hash}</span>
      ) : r.status === "requested" ? (
        <>
          <SignRefundButton transaction={r.transaction} />
          <details>
            <summary>{t("refunds.toSend", { from: r.from_address })}</summary>
            <code>{JSON.stringify(r.transaction)}</code>
          </details>
        </>
      ) : null,
  },
  { header: t("refunds.requested"), cell: (r) => formatDate(r.created_at) },
];

export default async function OrderDetailPage({ params }: { params: Promise<{ orderId: string }> }) {
  const merchant = await requirePageMerchant();
  const { orderId } = await params;
  const detail = await loadOrderDetail(await getDb(), merchant.merchantId, decodeURIComponent(orderId));
  if (!detail) notFound();
  const { order, timeline, transfers, deliveries, summary, sweep, refunds, relays } = detail;
  const nativeSymbol = findBlockchainById(order.blockchainId)?.nativeCurrency.symbol ?? "";
  const overpaid = BigInt(order.amountReceived) - BigInt(order.amount);
  const amount = (units: string) => `${formatAmount(BigInt(units), order.decimals)} ${order.currency}`;
  const money = orderMoney(order, transfers);
  const [t, format, notCounted] = await Promise.all([
    getTranslations("dashboard.orderDetail"),
    getFormatter(),
    getTranslations("dashboard.orderTable.notCounted"),
  ]);

  return (
    <>
      <p>
        <Link href="/dashboard/orders">← {t("back")}</Link>
      </p>
      <h1>
        {t.rich("heading", { id: order.orderId, mono: (chunks) => <span className="mono">{chunks}</span> })} <Badge status={order.status} />
        {order.atRiskReason ? <Badge status="at_risk">{t("atRiskBadge")}</Badge> : null}
      </h1>
      {order.atRiskReason ? <Alert kind="warn">{t("atRiskAlert", { since: formatDate(order.atRiskAt) })}</Alert> : null}
      {money.reversed && !order.atRiskReason ? (
        <Alert kind="warn">
          <span data-testid="reversed-pending">{t("reversedPending")}</span>
        </Alert>
      ) : null}
      <Card title={t("details")}>
        <DescriptionList
          items={[
            [t("amount"), amount(order.amount)],
            [
              t("counted"),
              <span key="c" data-testid="amount-counted">
                {amount(money.counted.toString())}
              </span>,
            ],
            [
              t("arrived"),
              <span key="ar" data-testid="amount-arrived">
                {amount(money.arrived.toString())}
                {money.uncounted.map((u) => (
                  <span key={`${u.txHash}-${u.reason}-${u.amount}`}>
                    <br />
                    {t.rich("didNotCount", {
                      amount: formatAmount(u.amount, u.decimals),
                      currency: u.currency,
                      reason: notCounted(u.reason),
                      hash: u.txHash,
                      mono: (chunks) => <span className="mono">{chunks}</span>,
                    })}
                  </span>
                ))}
              </span>,
            ],
            [t("blockchain"), chainSlug(order.blockchainId)],
            [t("receivingAddress"), <code key="a">{order.receivingAddress}</code>],
            ...methodRows(t, order),
            [t("nonce"), order.nonce],
            [t("created"), formatDate(order.createdAt)],
            [t("expires"), formatDate(order.expiresAt)],
            [t("confirmed"), formatDate(order.confirmedAt)],
            [t("failureReason"), order.failureReason],
            [t("atRisk"), order.atRiskReason ? t("atRiskYes", { reason: order.atRiskReason, since: formatDate(order.atRiskAt) }) : t("no")],
            [t("confirmationsRequired"), order.confirmationThreshold],
            [t("orderInfo"), <code key="i">{order.orderInfo}</code>],
            [t("webhookUrl"), order.webhookUrl],
            [
              t("refundAddress"),
              order.refundAddress ? (
                <span key="r" data-testid="refund-address-provenance">
                  <code>{order.refundAddress}</code> {refundAddressProvenance(t, order)}
                </span>
              ) : null,
            ],
          ]}
        />
        <p style={{ marginTop: "1rem" }}>
          <LinkButton href={paymentUrl(order.orderId)} target="_blank" rel="noopener">
            {t("openPaymentPage")}
          </LinkButton>
        </p>
      </Card>

      <Card title={t("timeline")}>
        <OrderTimeline order={order} entries={timeline} confirmations={summary ? summary.confirmations : null} />
      </Card>

      <Card title={t("transfers.title")}>
        <DataTable
          caption={t("transfers.caption")}
          columns={transferColumns(t)}
          rows={transfers.map((transfer) => transferRow(t, transfer, order))}
          rowKey={(row) => row.id}
          empty={t("transfers.empty")}
        />
      </Card>

      <Card title={t("sweep.title")}>
        {sweep ? (
          <p>
            {t.rich("sweep.flush", { wallet: order.depositDestination, mono: (chunks) => <span className="mono">{chunks}</span> })}{" "}
            <Badge status={sweep.status} />
            {sweep.txHash ? <> {t.rich("sweep.inTransaction", { hash: sweep.txHash, mono: (chunks) => <span className="mono">{chunks}</span> })}</> : null}
            {sweep.lastError ? <> ({sweep.lastError})</> : null}
            {sweep.gasUsed > 0n ? (
              <>
                <br />
                <span data-sweep-gas>
                  {t("sweep.cost", {
                    gas: format.number(sweep.gasUsed),
                    cost: formatAmount(BigInt(sweep.gasCostWei), 18),
                    symbol: findBlockchainById(order.blockchainId)?.nativeCurrency.symbol ?? "ETH",
                  })}
                </span>
              </>
            ) : null}
          </p>
        ) : (
          <p>{t("sweep.nothing")}</p>
        )}
      </Card>

      {relays.length > 0 ? (
        <Card title={t("relays.title")}>
          <p>{t("relays.explain")}</p>
          <DataTable
            caption={t("relays.caption")}
            columns={relayColumns(t)}
            rows={relays.map((r) => relayRow(t, r, nativeSymbol))}
            rowKey={(r) => r.id}
            rowData={(r) => ({ "data-relay": r.id })}
            empty={t("relays.empty")}
          />
        </Card>
      ) : null}

      <Card title={t("refunds.title")}>
        <DataTable
          caption={t("refunds.caption")}
          columns={refundColumns(t)}
          rows={refunds}
          rowKey={(r) => r.id}
          rowData={(r) => ({ "data-refund": r.id })}
          empty={t("refunds.empty")}
        />
        {isRefundable(order) ? (
          <>
            <RefundForm
              orderId={order.orderId}
              currency={order.currency}
              refundAddress={order.refundAddress}
              overpaid={order.status === "confirmed" && overpaid > 0n ? formatAmount(overpaid, order.decimals) : null}
              action={createRefundAction}
            />
            <EnterRefundAddressForm orderId={order.orderId} action={enterRefundAddressAction} />
          </>
        ) : (
          <p>{t("refunds.notRefundable")}</p>
        )}
      </Card>

      <Card title={t("deliveries")}>
        <DeliveriesList deliveries={deliveries.rows} attempts={deliveries.attempts} redeliver={redeliverAction} />
      </Card>
    </>
  );
}
