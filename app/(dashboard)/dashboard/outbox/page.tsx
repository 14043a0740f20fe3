import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Badge, Card, uiStyles } from "@/components/ui";
import { formatDate } from "@/components/dashboard/format";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { outboxShown } from "@/lib/mail/mailer";
import { listOutboxMessages } from "@/lib/mail/queries";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.outbox"))("metaTitle") };
}

/**
 * The mail the gateway wrote to the signed-in person (sandbox, or no SMTP_URL): like the webhook
 * inbox, for mail. Only mail addressed to this login, whichever store the dashboard is acting in: a
 * reset or invitation link is the reader's credential, so another member of the store never sees it.
 */
export default async function OutboxPage() {
  const merchant = await requirePageMerchant();
  if (!outboxShown()) notFound();
  const t = await getTranslations("dashboard.outbox");
  const messages = await listOutboxMessages(await getDb(), merchant.userId, 20);
  return (
    <>
      <h1>{t("heading")}</h1>
      <Card title={t("title")}>
        <p>{t("intro")}</p>
        {messages.length === 0 ? (
          <p>{t("empty")}</p>
        ) : (
          <ul style={{ listStyle: "none", padding: 0 }} aria-label={t("messages")}>
            {messages.map((m) => (
              <li key={m.id} data-outbox-id={m.id} style={{ borderBottom: "1px solid var(--border)", padding: "0.5rem 0" }}>
                {m.smtpStatus ? (
                  <Badge status={m.smtpStatus === "sent" ? "ok" : "invalid"}>{m.smtpStatus === "sent" ? t("smtpSent") : t("smtpFailed")}</Badge>
                ) : null}{" "}
                <strong>{m.subject}</strong> · {t("to", { address: m.toAddress })} · {formatDate(m.createdAt)}
                <details>
                  <summary>{t("message")}</summary>
                  <pre style={{ whiteSpace: "pre-wrap" }}>{m.text}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
        <p className={uiStyles.hint}>{t("newest")}</p>
      </Card>
    </>
  );
}
