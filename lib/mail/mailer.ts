import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import type { DbOrTx } from "@/lib/db/types";
import { env, isSandbox } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { insertOutboxMessage } from "./queries";
import type { MailContent } from "./templates";

export type MailKind =
  | "verify_email"
  | "password_reset"
  | "password_changed"
  | "new_sign_in"
  | "payout_address_changed"
  | "two_factor_disabled"
  | "invitation"
  | "invoice"
  | "invoice_reminder"
  | "invoice_paid"
  | "order_receipt"
  | "refund_sent"
  | "refund_address_link"
  | "subscription_authorized"
  | "subscription_receipt"
  | "subscription_notice";

export interface OutgoingMail {
  /** The store the mail concerns; null for none. */
  merchantId: number | null;
  /**
   * The login the mail is addressed to: only that login's outbox shows it (issue 49: a reset or
   * invitation link is its reader's credential, never a store's). Null: nobody's outbox (a person
   * with no login yet).
   */
  recipientUserId: number | null;
  kind: MailKind;
  to: string;
  content: MailContent;
  /** Extra headers (List-Unsubscribe on a store's mail to its customers). */
  headers?: Record<string, string>;
}

/** What became of a mail: SMTP `sent` or `failed` (a `permanent` failure: the server refused the address for good), or null without SMTP. */
export interface MailOutcome {
  smtpStatus: "sent" | "failed" | null;
  permanent: boolean;
}

/** An SMTP server that does not answer must not hold up the request that sends the mail for minutes. */
const smtpTimeoutsMs = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** Whether mail leaves this deployment at all (an SMTP server is configured). */
export function mailIsDelivered(): boolean {
  return Boolean(env.SMTP_URL);
}

/** Whether mail is written to the outbox (and the dashboard shows it): in the sandbox, or without SMTP_URL. */
export function outboxShown(): boolean {
  return isSandbox || !env.SMTP_URL;
}

let cached: { url: string; transport: Transporter } | null = null;

function transportFor(smtpUrl: string): Transporter {
  if (cached?.url === smtpUrl) return cached.transport;
  cached?.transport.close();
  // nodemailer reads its options from the URL's query; ours are defaults the URL may override.
  const url = new URL(smtpUrl);
  for (const [key, ms] of Object.entries(smtpTimeoutsMs)) if (!url.searchParams.has(key)) url.searchParams.set(key, String(ms));
  cached = { url: smtpUrl, transport: nodemailer.createTransport(url.toString()) };
  return cached.transport;
}

const inFlight = new Set<Promise<void>>();

/**
 * Runs a mail-sending task without waiting for it: for a step whose answer time must not tell
 * whether mail was sent (a reset request for an address with an account or without). Errors are
 * logged, never thrown.
 */
export function mailInBackground(kind: MailKind, task: () => Promise<unknown>): void {
  const running: Promise<void> = task()
    .then(() => undefined)
    .catch((error) => log.error("mail.send_failed", { kind, ...describeError(error) }))
    .finally(() => inFlight.delete(running));
  inFlight.add(running);
}

/** Waits for every background send of this process (tests, shutdown). */
export async function settleBackgroundMail(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/**
 * Sends one email: through SMTP_URL when set, and into the dashboard outbox in the sandbox or when
 * there is no SMTP_URL. Never throws for a mail that could not be delivered (the use-case that sent
 * it has done its work; the failure is logged and marked on the outbox copy); a database error does.
 */
export async function sendMail(db: DbOrTx, mail: OutgoingMail, now = new Date()): Promise<MailOutcome> {
  let smtpStatus: "sent" | "failed" | null = null;
  let permanent = false;
  if (env.SMTP_URL) {
    try {
      await transportFor(env.SMTP_URL).sendMail({
        from: env.MAIL_FROM,
        to: mail.to,
        subject: mail.content.subject,
        text: mail.content.text,
        html: mail.content.html,
        headers: mail.headers,
      });
      smtpStatus = "sent";
    } catch (error) {
      smtpStatus = "failed";
      // 5xx: the server refuses this mail for good (an unknown mailbox); 4xx and lost connections may pass later.
      const code = (error as { responseCode?: unknown }).responseCode;
      permanent = typeof code === "number" && code >= 500 && code < 600;
      log.error("mail.smtp_failed", { kind: mail.kind, merchantId: mail.merchantId, ...describeError(error) });
    }
  }
  if (outboxShown()) {
    await insertOutboxMessage(db, {
      merchantId: mail.merchantId,
      recipientUserId: mail.recipientUserId,
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.content.subject,
      text: mail.content.text,
      html: mail.content.html,
      smtpStatus,
      createdAt: now,
    });
  }
  return { smtpStatus, permanent };
}
