import Link from "next/link";
import type { ReactNode } from "react";
import type { Metadata } from "next";
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
import { notCountedLabels, orderMoney } from "@/lib/orders/order-money";
import type { serializeRefund } from "@/lib/refunds/serialize";
import type { GaslessRelay, PaymentOrder, Transaction } from "@/lib/db/schema";
import { formatEther, formatGwei } from "viem";
import { createRefundAction, enterRefundAddressAction, redeliverAction } from "./actions";
import { EnterRefundAddressForm, RefundForm, SignRefundButton } from "@/components/dashboard/refund-panel";

export const metadata: Metadata = { title: "Order · Dashboard" };

const countsLabels = {
  wrong_asset: "no: another asset",
  after_expiry: "no: arrived after expiry",
  reverted: "no: reverted",
  reorged: "no: reorged out",
} as const;

/** Orders with several (chain, token) methods: which one the customer paid by, and what was offered (issue 27). */
function methodRows(order: PaymentOrder): [string, ReactNode][] {
  const methods = serializeAcceptedMethods(order);
  if (methods.length < 2) return [];
  const paid = serializePaymentMethod(order);
  return [
    [
      "Paid by",
      <span key="p" data-testid="payment-method">
        {paid ? `${paid.currency} on ${paid.blockchain}` : "no payment yet (the customer can still choose)"}
      </span>,
    ],
    ["Accepted methods", methods.map((m) => `${m.amount} ${m.currency} on ${m.blockchain}`).join(", ")],
  ];
}

/** A transfer to the deposit address as the table shows it: the API's list item, its block, whether it counts, its explorer link. */
function transferRow(transfer: Transaction, order: PaymentOrder) {
  const reason = notCountedReason(transfer, order);
  return {
    ...serializeTransactionListItem(transfer),
    id: transfer.id,
    block: transfer.blockNumber.toString(),
    counts: reason ? countsLabels[reason] : "yes",
    explorer: explorerUrl(transfer.blockchainId, "tx", transfer.txHash),
  };
}

const transferColumns: Array<Column<ReturnType<typeof transferRow>>> = [
  {
    header: "Hash",
    cell: (t) => (
      <>
        <Link href={`/dashboard/transactions/${t.transaction_hash}`} className="mono">
          {t.transaction_hash}
        </Link>
        {t.explorer ? (
          <>
            {" "}
            (
            <a href={t.explorer} target="_blank" rel="noopener noreferrer">
              explorer
            </a>
            )
          </>
        ) : null}
      </>
    ),
  },
  { header: "Status", cell: (t) => <Badge status={t.status} /> },
  { header: "Amount", cell: (t) => `${t.amount} ${t.currency}` },
  { header: "Block", cell: "block" },
  { header: "Counts toward the order", cell: "counts" },
];

/** A gasless payment the gateway relayed (paid the gas of) for this order: lib/gasless. */
function relayRow(relay: GaslessRelay, nativeSymbol: string) {
  return {
    id: relay.id,
    hash: relay.txHash,
    status: relay.status,
    gasUsed: relay.gasUsed?.toString() ?? `up to ${relay.gasLimit}`,
    gasPrice: relay.effectiveGasPrice ? `${formatGwei(BigInt(relay.effectiveGasPrice))} gwei` : "",
    cost: relay.costWei ? `${formatEther(BigInt(relay.costWei))} ${nativeSymbol}` : "",
    from: relay.fromAddress,
    at: relay.createdAt,
  };
}

const relayColumns: Array<Column<ReturnType<typeof relayRow>>> = [
  { header: "Relayed transaction", cell: (r) => (r.hash ? <span className="mono">{r.hash}</span> : "not sent yet") },
  { header: "Status", cell: (r) => <Badge status={r.status} /> },
  { header: "Signed by", cell: "from", mono: true },
  { header: "Gas used", cell: "gasUsed" },
  { header: "Gas price", cell: "gasPrice" },
  { header: "Cost", cell: "cost" },
  { header: "Relayed", cell: (r) => formatDate(r.at) },
];

/** How the customer's refund address was given, for the merchant to judge it (issue 52). */
function refundAddressProvenance(order: { refundAddressSource: string | null; refundAddressSignedBy: string | null; refundAddressGivenBy: string | null }) {
  const source = order.refundAddressSource ?? (order.refundAddressSignedBy ? "payer_signature" : null);
  if (source === "payer_signature")
    return (
      <>
        (signed by payer <code>{order.refundAddressSignedBy}</code>)
      </>
    );
  if (source === "email_link")
    return `(given through the one-time link e-mailed to ${order.refundAddressGivenBy ?? "the customer"}, the address given while paying)`;
  if (source === "merchant") return `(entered by ${order.refundAddressGivenBy ?? "a member"} after contact with the customer; see the audit log)`;
  return "(not signed by the payer: left before signatures were required; confirm it with the customer)";
}

const refundColumns: Array<Column<ReturnType<typeof serializeRefund>>> = [
  { header: "Amount", cell: (r) => `${r.amount} ${r.currency}` },
  { header: "To", cell: "to_address", mono: true },
  { header: "Status", cell: (r) => <Badge status={r.status} /> },
  {
    header: "Transaction",
    cell: (r) =>
      r.transaction_hash ? (
        <span className="mono">{r.transaction_hash}</span>
      ) : r.status === "requested" ? (
        <>
          <SignRefundButton transaction={r.transaction} />
          <details>
            <summary>Transaction to send from {r.from_address}</summary>
            <code>{JSON.stringify(r.transaction)}</code>
          </details>
        </>
      ) : null,
  },
  { header: "Requested", cell: (r) => formatDate(r.created_at) },
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

  return (
    <>
      <p>
        <Link href="/dashboard/orders">← Orders</Link>
      </p>
      <h1>
        Order <span className="mono">{order.orderId}</span> <Badge status={order.status} />
        {order.atRiskReason ? <Badge status="at_risk">at risk</Badge> : null}
      </h1>
      {order.atRiskReason ? (
        <Alert kind="warn">
          At risk since {formatDate(order.atRiskAt)}: a chain reorganisation took away this order&apos;s payment after it was confirmed (its transfer below
          reads reorged). The order stays confirmed, as announced; check that the money reached you before shipping more. A payment.reorged webhook was sent.
        </Alert>
      ) : null}
      {money.reversed && !order.atRiskReason ? (
        <Alert kind="warn">
          <span data-testid="reversed-pending">
            A chain reorganisation took this order&apos;s payment back (its transfer below reads reorged): the order is pending again and waits for the payment
            to return. A payment.reorged webhook was sent.
          </span>
        </Alert>
      ) : null}
      <Card title="Details">
        <DescriptionList
          items={[
            ["Amount", amount(order.amount)],
            [
              "Counted",
              <span key="c" data-testid="amount-counted">
                {amount(money.counted.toString())}
              </span>,
            ],
            [
              "Arrived",
              <span key="ar" data-testid="amount-arrived">
                {amount(money.arrived.toString())}
                {money.uncounted.map((u) => (
                  <span key={`${u.txHash}-${u.reason}-${u.amount}`}>
                    <br />
                    {formatAmount(u.amount, u.decimals)} {u.currency} did not count: {notCountedLabels[u.reason]} (<span className="mono">{u.txHash}</span>)
                  </span>
                ))}
              </span>,
            ],
            ["Blockchain", chainSlug(order.blockchainId)],
            ["Receiving address", <code key="a">{order.receivingAddress}</code>],
            ...methodRows(order),
            ["Nonce", order.nonce],
            ["Created", formatDate(order.createdAt)],
            ["Expires", formatDate(order.expiresAt)],
            ["Confirmed", formatDate(order.confirmedAt)],
            ["Failure reason", order.failureReason],
            ["At risk", order.atRiskReason ? `yes: ${order.atRiskReason}, since ${formatDate(order.atRiskAt)}` : "no"],
            ["Confirmations required", order.confirmationThreshold],
            ["Order info", <code key="i">{order.orderInfo}</code>],
            ["Webhook URL", order.webhookUrl],
            [
              "Customer's refund address",
              order.refundAddress ? (
                <span key="r" data-testid="refund-address-provenance">
                  <code>{order.refundAddress}</code> {refundAddressProvenance(order)}
                </span>
              ) : null,
            ],
          ]}
        />
        <p style={{ marginTop: "1rem" }}>
          <LinkButton href={paymentUrl(order.orderId)} target="_blank" rel="noopener">
            Open payment page
          </LinkButton>
        </p>
      </Card>

      <Card title="Timeline">
        <OrderTimeline order={order} entries={timeline} confirmations={summary ? summary.confirmations : null} />
      </Card>

      <Card title="Transactions">
        <DataTable
          caption="Transactions of this order"
          columns={transferColumns}
          rows={transfers.map((t) => transferRow(t, order))}
          rowKey={(t) => t.id}
          empty="No transfer to the deposit address seen yet."
        />
      </Card>

      <Card title="Where the money went">
        {sweep ? (
          <p>
            Flush of the deposit address to your wallet <span className="mono">{order.depositDestination}</span>: <Badge status={sweep.status} />
            {sweep.txHash ? (
              <>
                {" "}
                in <span className="mono">{sweep.txHash}</span>
              </>
            ) : null}
            {sweep.lastError ? <> ({sweep.lastError})</> : null}
            {sweep.gasUsed > 0n ? (
              <>
                <br />
                <span data-sweep-gas>
                  Sweep cost: {sweep.gasUsed.toLocaleString("en-US")} gas, {formatAmount(BigInt(sweep.gasCostWei), 18)}{" "}
                  {findBlockchainById(order.blockchainId)?.nativeCurrency.symbol ?? "ETH"} (this order&apos;s share of its batch transaction, paid by the
                  gateway).
                </span>
              </>
            ) : null}
          </p>
        ) : (
          <p>
            Nothing to forward yet: a flush is queued once the order settles with money in its deposit address (confirmed, underpaid, paid late or in another
            asset).
          </p>
        )}
      </Card>

      {relays.length > 0 ? (
        <Card title="Paid without gas">
          <p>The customer signed the transfer and the gateway sent it, paying its gas: what that cost is below.</p>
          <DataTable
            caption="Gasless relays of this order"
            columns={relayColumns}
            rows={relays.map((r) => relayRow(r, nativeSymbol))}
            rowKey={(r) => r.id}
            rowData={(r) => ({ "data-relay": r.id })}
            empty="No relays."
          />
        </Card>
      ) : null}

      <Card title="Refunds">
        <DataTable
          caption="Refunds of this order"
          columns={refundColumns}
          rows={refunds}
          rowKey={(r) => r.id}
          rowData={(r) => ({ "data-refund": r.id })}
          empty="No refunds."
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
          <p>
            Confirmed orders, and failed ones that were underpaid or paid late, can be refunded. The refund is a transfer you sign with the wallet the payment
            was swept to.
          </p>
        )}
      </Card>

      <Card title="Webhook deliveries">
        <DeliveriesList deliveries={deliveries.rows} attempts={deliveries.attempts} redeliver={redeliverAction} />
      </Card>
    </>
  );
}
