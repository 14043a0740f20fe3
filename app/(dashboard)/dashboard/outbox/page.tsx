import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge, Card, uiStyles } from "@/components/ui";
import { formatDate } from "@/components/dashboard/format";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { outboxShown } from "@/lib/mail/mailer";
import { listOutboxMessages } from "@/lib/mail/queries";

export const metadata: Metadata = { title: "Outbox · Dashboard" };

/**
 * The mail the gateway wrote to the signed-in person (sandbox, or no SMTP_URL): like the webhook
 * inbox, for mail. Only mail addressed to this login, whichever store the dashboard is acting in: a
 * reset or invitation link is the reader's credential, so another member of the store never sees it.
 */
export default async function OutboxPage() {
  const merchant = await requirePageMerchant();
  if (!outboxShown()) notFound();
  const messages = await listOutboxMessages(await getDb(), merchant.userId, 20);
  return (
    <>
      <h1>Outbox</h1>
      <Card title="Mail to you">
        <p>
          Verification links, password resets and security notices this deployment wrote to you (to your login, whichever store you are acting in). In the
          sandbox, or without an SMTP server, this is where they go.
        </p>
        {messages.length === 0 ? (
          <p>No mail yet.</p>
        ) : (
          <ul style={{ listStyle: "none", padding: 0 }} aria-label="Outbox messages">
            {messages.map((m) => (
              <li key={m.id} data-outbox-id={m.id} style={{ borderBottom: "1px solid var(--border)", padding: "0.5rem 0" }}>
                {m.smtpStatus ? (
                  <Badge status={m.smtpStatus === "sent" ? "ok" : "invalid"}>{m.smtpStatus === "sent" ? "also sent by SMTP" : "SMTP failed"}</Badge>
                ) : null}{" "}
                <strong>{m.subject}</strong> · to {m.toAddress} · {formatDate(m.createdAt)}
                <details>
                  <summary>Message</summary>
                  <pre style={{ whiteSpace: "pre-wrap" }}>{m.text}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
        <p className={uiStyles.hint}>Newest 20 shown.</p>
      </Card>
    </>
  );
}
