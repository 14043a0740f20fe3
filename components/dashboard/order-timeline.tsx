import type { OrderEvent, PaymentOrder } from "@/lib/db/schema";
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
 * An order's timeline: created, its events (each with the order as it was), then one line per
 * confirmation up to the threshold once a payment counts (`confirmations` null: none yet).
 */
export function OrderTimeline({ order, events, confirmations }: { order: PaymentOrder; events: OrderEvent[]; confirmations: number | null }) {
  const milestones = confirmations !== null && (order.status === "processing" || order.status === "confirmed") ? Array.from({ length: order.confirmationThreshold }, (_, i) => i + 1) : [];
  return (
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
      {milestones.map((m) => (
        <li key={`m${m}`} data-milestone={m}>
          Confirmation {m} of {order.confirmationThreshold}: {(confirmations ?? 0) >= m ? "reached" : "waiting"}
        </li>
      ))}
    </ol>
  );
}
