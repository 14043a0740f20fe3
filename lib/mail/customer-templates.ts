/**
 * A store's mail to its customers (receipts, refund notices, the refund-address link, invoices and
 * their reminders, a subscription's mail), written in the customer's language: the wording lives in
 * messages/<locale>.json under `mail` (one template per mail, every language from the same keys),
 * dates and amounts as the locale writes them. The footer (support contact, unsubscribe) is added by
 * lib/mail/customer-mail.ts in the same language. Mail to the store's own logins stays in
 * lib/mail/templates.ts.
 */
import { createTranslator } from "next-intl";
import { defaultCustomerLocale, isCustomerLocale, type CustomerLocale } from "@/lib/i18n/locales";
import { displayFiat } from "@/lib/money/display-amount";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import ja from "@/messages/ja.json";
import pt from "@/messages/pt.json";
import zh from "@/messages/zh.json";
import { compose, type MailContent } from "./templates";

const mailMessages: Record<CustomerLocale, { mail: typeof en.mail }> = { en, de, fr, es, pt, ja, zh };

/** A stored or given language, or English for anything the pages do not speak. */
export function mailLocale(value: unknown): CustomerLocale {
  return isCustomerLocale(value) ? value : defaultCustomerLocale;
}

/** next-intl's translator for the `mail` namespace of one language. */
export function mailTranslator(locale: CustomerLocale) {
  return createTranslator({ locale, messages: mailMessages[locale], namespace: "mail" });
}

/** A day as the locale writes it, in UTC ("March 8, 2026", "8. März 2026", "2026年3月8日"). */
export function mailDay(at: Date, locale: CustomerLocale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(at);
}

/**
 * An amount with its currency as the locale writes it, exact: a fiat one (`fiat`, the caller knows)
 * in the locale's currency style ("10,00 €"), a token amount with the decimals it is written with
 * and the locale's separators ("1.234,5 USDC").
 */
export function mailMoney(amount: string, currency: string, locale: CustomerLocale, fiat = false): string {
  if (fiat) return displayFiat(amount, currency, locale);
  const places = /\.(\d+)$/.exec(amount)?.[1]?.length ?? 0;
  if (!/^-?\d+(\.\d+)?$/.test(amount) || places > 100) return `${amount} ${currency}`;
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: places, maximumFractionDigits: places }).format(amount as unknown as number);
  return `${number} ${currency}`;
}

// ─── orders: the pay page's receipt address ───

export function orderReceiptMail(
  shopName: string,
  receipt: { orderId: string; item: string | null; amount: string; currency: string; network: string; paidAt: Date; url: string },
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  const amount = mailMoney(receipt.amount, receipt.currency, locale);
  const values = { shop: shopName, amount, network: receipt.network, date: mailDay(receipt.paidAt, locale), orderId: receipt.orderId };
  return compose(
    t("orderReceipt.subject", { shop: shopName, amount }),
    [receipt.item ? t("orderReceipt.lineWithItem", { ...values, item: receipt.item }) : t("orderReceipt.line", values), t("orderReceipt.link"), receipt.url],
    locale,
  );
}

export function refundSentMail(
  shopName: string,
  refund: { orderId: string; amount: string; currency: string; network: string; txHash: string | null },
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  const amount = mailMoney(refund.amount, refund.currency, locale);
  return compose(
    t("refundSent.subject", { shop: shopName, amount }),
    [
      t("refundSent.line", { shop: shopName, amount, network: refund.network, orderId: refund.orderId }),
      ...(refund.txHash ? [t("transaction", { txHash: refund.txHash })] : []),
    ],
    locale,
  );
}

export function refundAddressLinkMail(
  shopName: string,
  link: { orderId: string; network: string; currency: string; url: string; expiresHours: number },
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  return compose(
    t("refundAddressLink.subject", { shop: shopName }),
    [
      t("refundAddressLink.line", { shop: shopName, orderId: link.orderId, network: link.network, currency: link.currency }),
      link.url,
      t("refundAddressLink.expiry", { hours: link.expiresHours }),
    ],
    locale,
  );
}

// ─── invoices ───

export interface InvoiceMailFacts {
  number: string;
  amountDue: string;
  currency: string;
  /** Whether `currency` is a fiat one (USD, EUR, …) rather than a token. */
  fiat: boolean;
  dueAt: Date;
  url: string;
}

export function invoiceMail(shopName: string, invoice: InvoiceMailFacts, locale: CustomerLocale = defaultCustomerLocale): MailContent {
  const t = mailTranslator(locale);
  return compose(
    t("invoice.subject", { number: invoice.number, shop: shopName }),
    [
      t("invoice.line", {
        shop: shopName,
        number: invoice.number,
        amount: mailMoney(invoice.amountDue, invoice.currency, locale, invoice.fiat),
        due: mailDay(invoice.dueAt, locale),
      }),
      t("invoice.link"),
      invoice.url,
    ],
    locale,
  );
}

export function invoiceReminderMail(
  shopName: string,
  invoice: InvoiceMailFacts,
  overdue: boolean,
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  const values = {
    number: invoice.number,
    shop: shopName,
    due: mailDay(invoice.dueAt, locale),
    amount: mailMoney(invoice.amountDue, invoice.currency, locale, invoice.fiat),
  };
  return compose(
    overdue ? t("invoiceReminder.overdueSubject", values) : t("invoiceReminder.subject", values),
    [
      overdue ? t("invoiceReminder.overdueLine", values) : t("invoiceReminder.line", values),
      t("invoiceReminder.link"),
      invoice.url,
      t("invoiceReminder.alreadyPaid"),
    ],
    locale,
  );
}

export function invoicePaidMail(shopName: string, invoice: InvoiceMailFacts & { total: string }, locale: CustomerLocale = defaultCustomerLocale): MailContent {
  const t = mailTranslator(locale);
  return compose(
    t("invoicePaid.subject", { number: invoice.number, shop: shopName }),
    [
      t("invoicePaid.line", { number: invoice.number, shop: shopName, total: mailMoney(invoice.total, invoice.currency, locale, invoice.fiat) }),
      t("invoicePaid.link"),
      invoice.url,
    ],
    locale,
  );
}

// ─── a subscription's customer (each mail carries the manage link: its reader's credential) ───

export interface SubscriptionMailFacts {
  subscriptionId: string;
  planName: string;
  /** The most one period may take, in token units, and the token. */
  maxAmount: string;
  currency: string;
  network: string;
  intervalDays: number;
  manageUrl: string;
}

const manageLines = (t: ReturnType<typeof mailTranslator>, s: SubscriptionMailFacts) => [t("subscription.manage"), s.manageUrl];

export function subscriptionAuthorizedMail(
  shopName: string,
  s: SubscriptionMailFacts & { firstChargeAt: Date },
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  return compose(
    t("subscription.authorizedSubject", { plan: s.planName, shop: shopName }),
    [
      t("subscription.authorizedLine", {
        shop: shopName,
        amount: mailMoney(s.maxAmount, s.currency, locale),
        network: s.network,
        days: s.intervalDays,
        plan: s.planName,
        subscriptionId: s.subscriptionId,
        date: mailDay(s.firstChargeAt, locale),
      }),
      t("subscription.authorizedHow"),
      ...manageLines(t, s),
    ],
    locale,
  );
}

export function subscriptionReceiptMail(
  shopName: string,
  s: SubscriptionMailFacts & {
    amount: string;
    /** A fiat plan's price the amount was converted from: its amount and currency ("10.00", "EUR"). */
    price: { amount: string; currency: string } | null;
    period: number;
    periodStart: Date;
    periodEnd: Date;
    txHash: string | null;
    chargedAt: Date;
  },
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  const amount = mailMoney(s.amount, s.currency, locale);
  const charged = s.price ? t("amountWithPrice", { amount, price: mailMoney(s.price.amount, s.price.currency, locale, true) }) : amount;
  return compose(
    t("subscription.receiptSubject", { shop: shopName, amount, plan: s.planName }),
    [
      t("subscription.receiptLine", {
        shop: shopName,
        amount: charged,
        network: s.network,
        plan: s.planName,
        period: s.period + 1,
        start: mailDay(s.periodStart, locale),
        end: mailDay(s.periodEnd, locale),
        date: mailDay(s.chargedAt, locale),
        subscriptionId: s.subscriptionId,
      }),
      ...(s.txHash ? [t("transaction", { txHash: s.txHash })] : []),
      ...manageLines(t, s),
    ],
    locale,
  );
}

export function subscriptionPastDueMail(shopName: string, s: SubscriptionMailFacts, locale: CustomerLocale = defaultCustomerLocale): MailContent {
  const t = mailTranslator(locale);
  return compose(
    t("subscription.pastDueSubject", { shop: shopName, plan: s.planName }),
    [
      t("subscription.pastDueLine", { shop: shopName, plan: s.planName, subscriptionId: s.subscriptionId, network: s.network, currency: s.currency }),
      ...manageLines(t, s),
    ],
    locale,
  );
}

export function subscriptionCanceledMail(
  shopName: string,
  s: SubscriptionMailFacts & { by: "you" | "store" | "unpaid" },
  locale: CustomerLocale = defaultCustomerLocale,
): MailContent {
  const t = mailTranslator(locale);
  const key = ({ you: "subscription.canceledByYou", store: "subscription.canceledByStore", unpaid: "subscription.canceledUnpaid" } as const)[s.by];
  return compose(
    t("subscription.canceledSubject", { shop: shopName, plan: s.planName }),
    [t(key, { plan: s.planName, shop: shopName, subscriptionId: s.subscriptionId }), t("subscription.revoke"), s.manageUrl],
    locale,
  );
}
