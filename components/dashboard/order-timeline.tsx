import { useTranslations } from "next-intl";
import type { PaymentOrder } from "@/lib/db/schema";
import type { TimelineEntry } from "@/lib/dashboard/order-timeline";
import styles from "./dashboard.module.css";
import { formatDate } from "./format";

/** The events' names (messages › dashboard.shared.timeline.events). */
const eventKeys = {
  "payment.pending": "pending",
  "payment.confirmed": "confirmed",
  "payment.failed": "failed",
  "payment.expired": "expired",
  "payment.reorged": "reorged",
  "refund.created": "refundCreated",
  "refund.confirmed": "refundConfirmed",
} as const;

type T = ReturnType<typeof useTranslations<"dashboard.shared.timeline">>;

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
  const t = useTranslations("dashboard.shared.timeline");
  const milestones =
    confirmations !== null && (order.status === "processing" || order.status === "confirmed")
      ? Array.from({ length: order.confirmationThreshold }, (_, i) => i + 1)
      : [];
  return (
    <ol className={styles.timeline} aria-label={t("label")}>
      {entries.map((entry) => {
        switch (entry.kind) {
          case "created":
            return (
              <li key={entry.key} data-entry="created">
                <strong>{t("created")}</strong> · {formatDate(entry.at)}
              </li>
            );
          case "transfer":
            return (
              <li key={entry.key} data-entry="transfer">
                <strong>{t("transfer", { amount: `${entry.amount} ${entry.currency}`, note: transferNote(t, entry.status, entry.counted) })}</strong> ·{" "}
                {formatDate(entry.at)}
                <div className={styles.wrapAnywhere}>
                  {t("from")} <code>{entry.from}</code> · tx <code>{entry.txHash}</code>
                </div>
              </li>
            );
          case "sweep":
            return (
              <li key={entry.key} data-entry="sweep">
                <strong>{t("swept")}</strong> · {formatDate(entry.at)}
                <div className={styles.wrapAnywhere}>
                  {t("to")} <code>{entry.to}</code>
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
                <strong>{e.type in eventKeys ? t(`events.${eventKeys[e.type as keyof typeof eventKeys]}`) : e.type}</strong> · {formatDate(e.createdAt)}
                {entry.refund ? (
                  <div className={styles.wrapAnywhere}>
                    {t("refundTo", { amount: `${entry.refund.amount} ${entry.refund.currency}` })} <code>{entry.refund.to_address}</code>
                    {entry.refund.transaction_hash ? (
                      <>
                        {" "}
                        · tx <code>{entry.refund.transaction_hash}</code>
                      </>
                    ) : null}
                  </div>
                ) : data.transaction ? (
                  <div className={styles.wrapAnywhere}>
                    {t("confirmationsThen", { count: data.transaction.confirmations })} · tx <code>{data.transaction.transaction_hash}</code>
                  </div>
                ) : null}
                {data.failure_reason ? <div>{t("reason", { reason: data.failure_reason })}</div> : null}
              </li>
            );
          }
        }
      })}
      {milestones.map((m) => (
        <li key={`m${m}`} data-milestone={m}>
          {t("milestone", {
            number: String(m),
            threshold: String(order.confirmationThreshold),
            state: (confirmations ?? 0) >= m ? t("reached") : t("waiting"),
          })}
        </li>
      ))}
    </ol>
  );
}

function transferNote(t: T, status: string, counted: boolean): string {
  if (status === "failed") return t("reverted");
  if (status === "dropped") return t("removedByReorg");
  return counted ? t("received") : t("receivedNotCounted");
}
