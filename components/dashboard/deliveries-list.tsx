import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui";
import { ActionForm } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";
import type { WebhookAttempt, WebhookDelivery } from "@/lib/db/schema";
import { formatDate } from "./format";

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A delivery log: each delivery with its payload and every attempt's request and response, and a redeliver button. */
export function DeliveriesList({
  deliveries,
  attempts,
  redeliver,
}: {
  deliveries: WebhookDelivery[];
  attempts: WebhookAttempt[];
  redeliver: (form: FormData) => Promise<ActionResult<unknown>>;
}) {
  const t = useTranslations("dashboard.shared.deliveries");
  if (deliveries.length === 0) return <p>{t("empty")}</p>;
  return (
    <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
      {deliveries.map((d) => {
        const mine = attempts.filter((a) => a.deliveryId === d.id);
        return (
          <li key={d.id} data-delivery-id={d.id} data-status={d.status} style={{ borderBottom: "1px solid var(--border)", padding: "0.6rem 0" }}>
            <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem", alignItems: "center" }}>
              <Badge status={d.status} />
              <strong>{d.eventType}</strong>
              <span className="mono">{d.url}</span>
              <span>{t("attemptsThisCycle", { count: d.attempts })}</span>
              {d.lastStatusCode !== null ? <span>{t("lastHttp", { code: String(d.lastStatusCode) })}</span> : null}
              <span>{formatDate(d.createdAt)}</span>
            </div>
            {d.lastError ? <p style={{ margin: "0.3rem 0", color: "var(--danger)" }}>{d.lastError}</p> : null}
            <details>
              <summary>{t("requestAndResponse", { count: mine.length })}</summary>
              <p>
                webhook-id <code>{d.messageId}</code>
              </p>
              <h4>{t("payload")}</h4>
              <pre>{prettyJson(d.body)}</pre>
              {mine.map((a, i) => (
                <div key={a.id}>
                  <h4>
                    {t("attempt", { number: String(i + 1) })} · {formatDate(a.attemptedAt)} · {a.statusCode !== null ? `HTTP ${a.statusCode}` : t("noResponse")}{" "}
                    · {a.durationMs} ms
                  </h4>
                  <p>{t("requestHeaders")}</p>
                  <pre>{JSON.stringify(a.requestHeaders, null, 2)}</pre>
                  <p>{t("responseBody")}</p>
                  <pre>{a.error ? t("error", { error: a.error }) : (a.responseBody ?? t("empty_body"))}</pre>
                </div>
              ))}
            </details>
            {d.endpointId !== null || d.eventId !== null ? (
              <ActionForm
                action={redeliver}
                hiddenFields={{ id: d.id }}
                small
                submitLabel={t("redeliver")}
                label={t("redeliverLabel", { id: String(d.id) })}
                successMessage={t("redelivered")}
              />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
