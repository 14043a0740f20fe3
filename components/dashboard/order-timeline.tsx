import type { PaymentOrder } from "@/lib/db/schema";
import type { TimelineEntry } from "@/lib/dashboard/order-timeline";
import styles from "./dashboard.module.css";
import { formatDate } from "./format";

const eventLabels: Record<string, string> = {
  "payment.pending": "Payment seen",
  "payment.confirmed": "Confirmed",
  "payment.failed": "Failed",
  "payment.expired": "Expired",
  "payment.reorged": "Payment removed by a chain reorganisation",
  "refund.created": "Refund requested",
  "refund.confirmed": "Refund confirmed",
};

interface EventData {
  status?: string;
  amount_received?: string;
  failure_reason?: string | null;
  transaction?: { transaction_hash: string; confirmations: number; block_number: number } | null;
}

/**
 * An order's timeline (lib/dashboard/order-timeline.ts: created, transfers, events and the sweep in
 * causal order), then one line per confirmation up to the threshold once a payment counts
 * (`confirmations` null: none yet).
 */
export function OrderTimeline({ order, entries, confirmations }: { order: PaymentOrder; entries: TimelineEntry[]; confirmations: number | null }) {
  const milestones =
    confirmations !== null && (order.status === "processing" || order.status === "confirmed")
      ? Array.from({ length: order.confirmationThreshold }, (_, i) => i + 1)
      : [];
  return (
    <ol className={styles.timeline} aria-label="Order timeline">
      {entries.map((entry) => {
        switch (entry.kind) {
          case "created":
            return (
              <li key={entry.key} data-entry="created">
                <strong>Created</strong> · {formatDate(entry.at)}
              </li>
            );
          case "transfer":
            return (
              <li key={entry.key} data-entry="transfer">
                <strong>
                  Transfer of {entry.amount} {entry.currency} {transferNote(entry.status, entry.counted)}
                </strong>{" "}
                · {formatDate(entry.at)}
                <div className={styles.wrapAnywhere}>
                  from <code>{entry.from}</code> · tx <code>{entry.txHash}</code>
                </div>
              </li>
            );
          case "sweep":
            return (
              <li key={entry.key} data-entry="sweep">
                <strong>Swept to your wallet</strong> · {formatDate(entry.at)}
                <div className={styles.wrapAnywhere}>
                  to <code>{entry.to}</code>
                  {entry.txHash ? (
                    <>
                      {" "}
                      · tx <code>{entry.txHash}</code>
                    </>
                  ) : null}
                </div>
              </li>
            );
          case "event": {
            const e = entry.event;
            const data = e.data as EventData;
            return (
              <li key={entry.key} data-entry="event" data-event={e.type}>
                <strong>{eventLabels[e.type] ?? e.type}</strong> · {formatDate(e.createdAt)}
                {entry.refund ? (
                  <div className={styles.wrapAnywhere}>
                    {entry.refund.amount} {entry.refund.currency} to <code>{entry.refund.to_address}</code>
                    {entry.refund.transaction_hash ? (
                      <>
                        {" "}
                        · tx <code>{entry.refund.transaction_hash}</code>
                      </>
                    ) : null}
                  </div>
                ) : data.transaction ? (
                  <div className={styles.wrapAnywhere}>
                    {data.transaction.confirmations} confirmation{data.transaction.confirmations === 1 ? "" : "s"} at that moment · tx{" "}
                    <code>{data.transaction.transaction_hash}</code>
                  </div>
                ) : null}
                {data.failure_reason ? <div>Reason: {data.failure_reason}</div> : null}
              </li>
            );
          }
        }
      })}
      {milestones.map((m) => (
        <li key={`m${m}`} data-milestone={m}>
          Confirmation {m} of {order.confirmationThreshold}: {(confirmations ?? 0) >= m ? "reached" : "waiting"}
        </li>
      ))}
    </ol>
  );
}

function transferNote(status: string, counted: boolean): string {
  if (status === "failed") return "(reverted)";
  if (status === "dropped") return "(removed by a reorganisation)";
  return counted ? "received" : "received, not counted (another asset or after expiry)";
}
