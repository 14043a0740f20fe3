import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/auth/secret";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { validationError } from "@/lib/http/errors";
import { isCustomerLocale, type CustomerLocale } from "@/lib/i18n/locales";
import { mailLocale, mailTranslator } from "./customer-templates";
import { sendMail, type MailKind } from "./mailer";
import { findStoreDashboardLocale, findSuppression, insertSuppression } from "./queries";
import { escapeHtml, type MailContent } from "./templates";

/**
 * A store's mail to its customers (invoices, reminders, receipts, refund notices), as a real sender
 * must send it: never to an address that unsubscribed from the store or bounced, with a one-click
 * List-Unsubscribe (RFC 8058) and the same link in the text, and an address the SMTP server refuses
 * for good (5xx) suppressed for every store.
 */
export interface CustomerMail {
  merchantId: number;
  kind: MailKind;
  to: string;
  /** Written in `locale` (lib/mail/customer-templates.ts); the footer is added in the same language. */
  content: MailContent;
  locale: CustomerLocale;
  /**
   * A mail that is the customer's own credential (a refund-address link, issue 52): its outbox copy
   * shows to nobody, not even the store's owner (the issue 49 rule for mail addressed to a person).
   */
  private?: boolean;
  /** The store's support contact (its branding), added to the mail's end. */
  support?: { email: string | null; url: string | null };
}

const normalized = (email: string) => email.trim().toLowerCase();

function signature(merchantId: number, email: string): string {
  return createHmac("sha256", getAuthSecret())
    .update(`unsubscribe:${merchantId}:${normalized(email)}`)
    .digest("base64url");
}

/** The token of a store's unsubscribe link for one address: who and where, signed (no row to look up, nothing to expire). */
export function unsubscribeToken(merchantId: number, email: string): string {
  return `${merchantId}.${Buffer.from(normalized(email)).toString("base64url")}.${signature(merchantId, email)}`;
}

export function unsubscribeUrl(merchantId: number, email: string): string {
  const url = new URL("/unsubscribe", env.APP_URL);
  url.searchParams.set("token", unsubscribeToken(merchantId, email));
  return url.toString();
}

/** The one-click endpoint mail clients POST to (RFC 8058). */
function oneClickUrl(merchantId: number, email: string): string {
  const url = new URL("/api/mail/unsubscribe", env.APP_URL);
  url.searchParams.set("token", unsubscribeToken(merchantId, email));
  return url.toString();
}

/**
 * The language a store's mail to one customer is written in: the one recorded for them (the page
 * they left their address on, or what the store set on the invoice or subscription), else the
 * store's own (the language its login chose for the dashboard), else English.
 */
export async function customerMailLocale(db: DbOrTx, merchantId: number, recorded: string | null | undefined): Promise<CustomerLocale> {
  if (isCustomerLocale(recorded)) return recorded;
  return mailLocale(await findStoreDashboardLocale(db, merchantId));
}

export async function isSuppressed(db: DbOrTx, merchantId: number, email: string): Promise<boolean> {
  return findSuppression(db, { merchantId, email: normalized(email), storeOrEvery: true });
}

async function suppress(db: DbOrTx, merchantId: number | null, email: string, reason: "unsubscribed" | "bounced", now: Date): Promise<void> {
  if (!(await findSuppression(db, { merchantId, email: normalized(email), storeOrEvery: false })))
    await insertSuppression(db, { merchantId, email: normalized(email), reason, createdAt: now });
}

/** Spends an unsubscribe link: the store's mail stops going to the address. Returns the address; an invalid token is 400. */
export async function unsubscribe(db: DbOrTx, token: string, now = new Date()): Promise<{ email: string }> {
  const [merchantPart = "", emailPart = "", signed = ""] = token.split(".");
  const merchantId = Number(merchantPart);
  const email = Buffer.from(emailPart, "base64url").toString("utf8");
  const expected = Number.isSafeInteger(merchantId) && email ? signature(merchantId, email) : "";
  if (!expected || signed.length !== expected.length || !timingSafeEqual(Buffer.from(signed), Buffer.from(expected))) {
    throw validationError({ token: ["This unsubscribe link is invalid."] });
  }
  await suppress(db, merchantId, email, "unsubscribed", now);
  return { email };
}

/** Sends a store's mail to a customer, or nothing when the address is suppressed. Returns whether it went out. */
export async function sendCustomerMail(db: DbOrTx, mail: CustomerMail, now = new Date()): Promise<boolean> {
  if (await isSuppressed(db, mail.merchantId, mail.to)) return false;
  const link = unsubscribeUrl(mail.merchantId, mail.to);
  const support = [mail.support?.email, mail.support?.url].filter(Boolean).join(" · ");
  const t = mailTranslator(mail.locale);
  const footer = `${support ? `${t("footer.questions", { support })}\n` : ""}${t("footer.unsubscribeText", { link })}`;
  const small = (html: string) => `<p style="font-size:12px;color:#555">${html}</p>`;
  const unsubscribeHtml = t.markup("footer.unsubscribeHtml", {
    // The chunks arrive as an array of strings, whatever the type says.
    link: (chunks) => `<a href="${escapeHtml(link)}">${escapeHtml(([] as unknown[]).concat(chunks).join(""))}</a>`,
  });
  const content = {
    subject: mail.content.subject,
    text: `${mail.content.text}\n--\n${footer}\n`,
    // A replacer function: a replacement string would read `$&` and the like in the store's support text as patterns.
    html: mail.content.html.replace(
      "</body>",
      () => `<hr>${support ? small(escapeHtml(t("footer.questions", { support }))) : ""}${small(unsubscribeHtml)}</body>`,
    ),
  };
  // The store's own mail to its customer; the outbox copy shows to the store's owner (nothing in it is a credential), unless private.
  const outcome = await sendMail(
    db,
    {
      merchantId: mail.merchantId,
      recipientUserId: mail.private ? null : mail.merchantId,
      kind: mail.kind,
      to: mail.to,
      content,
      headers: { "List-Unsubscribe": `<${oneClickUrl(mail.merchantId, mail.to)}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    },
    now,
  );
  if (outcome.permanent) await suppress(db, null, mail.to, "bounced", now);
  return outcome.smtpStatus !== "failed";
}
