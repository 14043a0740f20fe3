import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge, Card, DescriptionList, LinkButton } from "@/components/ui";
import styles from "@/components/dashboard/dashboard.module.css";
import { DeliveriesList } from "@/components/dashboard/deliveries-list";
import { chainSlug, explorerUrl, formatDate } from "@/components/dashboard/format";
import { getDb } from "@/lib/db/client";
import { loadOrderDetail } from "@/lib/dashboard/order-detail";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { formatAmount } from "@/lib/orders/amounts";
import { paymentUrl } from "@/lib/orders/serialize";
import { apiStatus, notCountedReason, serializeTransactionListItem } from "@/lib/transactions/serialize";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";

const notCountedLabels = { wrong_asset: "no: another asset", after_expiry: "no: arrived after expiry", reverted: "no: reverted", reorged: "no: reorged out" } as const;

function countedLabel(transfer: Transaction, order: PaymentOrder): string {
  const reason = notCountedReason(transfer, order);
  return reason ? notCountedLabels[reason] : "yes";
}
import { createRefundAction, redeliverAction } from "./actions";
import { RefundForm, SignRefundButton } from "@/components/dashboard/refund-panel";

export const metadata: Metadata = { title: "Order · Dashboard" };

const eventLabels: Record<string, string> = {
  "payment.pending": "Payment seen",
  "payment.confirmed": "Confirmed",
  "payment.failed": "Failed",
  "payment.expired": "Expired",
  "payment.reorged": "Payment removed by a chain reorganisation",
  "refund.created": "Refund requested",
  "refund.confirmed": "Refund confirmed",
};

/** Refunds are for confirmed orders and failed ones that still hold the customer's money. */
const refundable = (order: PaymentOrder) => order.status === "confirmed" || (order.status === "failed" && (order.failureReason === "underpaid" || order.failureReason === "late_payment"));

interface EventData {
  status?: string;
  amount_received?: string;
  failure_reason?: string | null;
  transaction?: { transaction_hash: string; confirmations: number; block_number: number } | null;
}

export default async function OrderDetailPage({ params }: { params: Promise<{ orderId: string }> }) {
  const merchant = await requirePageMerchant();
  const { orderId } = await params;
  const detail = await loadOrderDetail(await getDb(), merchant.merchantId, decodeURIComponent(orderId));
  if (!detail) notFound();
  const { order, events, transfers, deliveries, summary, sweep, refunds } = detail;
  const overpaid = BigInt(order.amountReceived) - BigInt(order.amount);
  const amount = (units: string) => `${formatAmount(BigInt(units), order.decimals)} ${order.currency}`;
  const confirmations = summary?.confirmations ?? 0;
  const milestones = summary ? Array.from({ length: order.confirmationThreshold }, (_, i) => i + 1) : [];

  return (
    <>
      <p>
        <Link href="/dashboard/orders">← Orders</Link>
      </p>
      <h1>
        Order <span className="mono">{order.orderId}</span> <Badge status={order.status} />
      </h1>
      <Card title="Details">
        <DescriptionList
          items={[
            ["Amount", amount(order.amount)],
            ["Received", amount(order.amountReceived)],
            ["Blockchain", chainSlug(order.blockchainId)],
            ["Receiving address", <code key="a">{order.receivingAddress}</code>],
            ["Nonce", order.nonce],
            ["Created", formatDate(order.createdAt)],
            ["Expires", formatDate(order.expiresAt)],
            ["Confirmed", formatDate(order.confirmedAt)],
            ["Failure reason", order.failureReason],
            ["Confirmations required", order.confirmationThreshold],
            ["Order info", <code key="i">{order.orderInfo}</code>],
            ["Webhook URL", order.webhookUrl],
            ["Customer's refund address", order.refundAddress ? <code key="r">{order.refundAddress}</code> : null],
          ]}
        />
        <p style={{ marginTop: "1rem" }}>
          <LinkButton href={paymentUrl(order.orderId)} target="_blank" rel="noopener">
            Open payment page
          </LinkButton>
        </p>
      </Card>

      <Card title="Timeline">
        <ol className={styles.timeline} aria-label="Order timeline">
          <li>
            <strong>Created</strong> · {formatDate(order.createdAt)}
          </li>
          {events.map((e) => {
            const data = e.data as EventData;
            return (
              <li key={e.id} data-event={e.type}>
                <strong>{eventLabels[e.type] ?? e.type}</strong> · {formatDate(e.createdAt)}
                {data.transaction ? (
                  <div>
                    {data.transaction.confirmations} confirmation{data.transaction.confirmations === 1 ? "" : "s"} at that moment · tx{" "}
                    <code>{data.transaction.transaction_hash}</code>
                  </div>
                ) : null}
                {data.failure_reason ? <div>Reason: {data.failure_reason}</div> : null}
              </li>
            );
          })}
          {order.status === "processing" || order.status === "confirmed"
            ? milestones.map((m) => (
                <li key={`m${m}`} data-milestone={m}>
                  Confirmation {m} of {order.confirmationThreshold}: {confirmations >= m ? "reached" : "waiting"}
                </li>
              ))
            : null}
        </ol>
      </Card>

      <Card title="Transactions">
        {transfers.length === 0 ? (
          <p>No transfer to the deposit address seen yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Transactions of this order</caption>
              <thead>
                <tr>
                  <th scope="col">Hash</th>
                  <th scope="col">Status</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Block</th>
                  <th scope="col">Counts toward the order</th>
                </tr>
              </thead>
              <tbody>
                {transfers.map((t) => {
                  const link = explorerUrl(t.blockchainId, "tx", t.txHash);
                  return (
                    <tr key={t.id}>
                      <td>
                        <Link href={`/dashboard/transactions/${t.txHash}`} className="mono">
                          {t.txHash}
                        </Link>
                        {link ? (
                          <>
                            {" "}
                            (<a href={link} target="_blank" rel="noopener noreferrer">explorer</a>)
                          </>
                        ) : null}
                      </td>
                      <td>
                        <Badge status={apiStatus(t.status)} />
                      </td>
                      <td>
                        {serializeTransactionListItem(t).amount} {t.currency}
                      </td>
                      <td>{t.blockNumber.toString()}</td>
                      <td>{countedLabel(t, order)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
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
          </p>
        ) : (
          <p>Nothing to forward yet: a flush is queued once the order settles with money in its deposit address (confirmed, underpaid, paid late or in another asset).</p>
        )}
      </Card>

      <Card title="Refunds">
        {refunds.length === 0 ? (
          <p>No refunds.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Refunds of this order</caption>
              <thead>
                <tr>
                  <th scope="col">Amount</th>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                  <th scope="col">Transaction</th>
                  <th scope="col">Requested</th>
                </tr>
              </thead>
              <tbody>
                {refunds.map((r) => (
                  <tr key={r.id} data-refund={r.id}>
                    <td>
                      {r.amount} {r.currency}
                    </td>
                    <td className="mono">{r.to_address}</td>
                    <td>
                      <Badge status={r.status} />
                    </td>
                    <td>
                      {r.transaction_hash ? (
                        <span className="mono">{r.transaction_hash}</span>
                      ) : r.status === "requested" ? (
                        <>
                          <SignRefundButton transaction={r.transaction} />
                          <details>
                            <summary>Transaction to send from {r.from_address}</summary>
                            <code>{JSON.stringify(r.transaction)}</code>
                          </details>
                        </>
                      ) : null}
                    </td>
                    <td>{formatDate(new Date(r.created_at))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {refundable(order) ? (
          <RefundForm
            orderId={order.orderId}
            currency={order.currency}
            refundAddress={order.refundAddress}
            overpaid={order.status === "confirmed" && overpaid > 0n ? formatAmount(overpaid, order.decimals) : null}
            action={createRefundAction}
          />
        ) : (
          <p>Confirmed orders, and failed ones that were underpaid or paid late, can be refunded. The refund is a transfer you sign with the wallet the payment was swept to.</p>
        )}
      </Card>

      <Card title="Webhook deliveries">
        <DeliveriesList deliveries={deliveries.rows} attempts={deliveries.attempts} redeliver={redeliverAction} />
      </Card>
    </>
  );
}
