import "server-only";
import { storeLook } from "@/lib/branding/branding";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { Subscription, SubscriptionMailKind } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import type { CustomerLocale } from "@/lib/i18n/locales";
import { customerMailLocale, sendCustomerMail } from "@/lib/mail/customer-mail";
import {
  subscriptionAuthorizedMail,
  subscriptionCanceledMail,
  subscriptionPastDueMail,
  subscriptionReceiptMail,
  type SubscriptionMailFacts,
} from "@/lib/mail/customer-templates";
import type { MailKind } from "@/lib/mail/mailer";
import type { MailContent } from "@/lib/mail/templates";
import { formatAmount } from "@/lib/money/amounts";
import { manageUrl } from "./manage-link";
import { claimSubscriptionMail, findAuthorizedMailsDue, findChargeReceiptsDue, findNoticesDue, markSubscriptionAuthorized } from "./mail-queries";
import { serializeSubscription } from "./serialize";

/**
 * Mail to a subscription's customer, at the address the merchant recorded (`customer_email`),
 * through the stores' customer-mail path (lib/mail/customer-mail.ts: the store's name and support
 * contact, List-Unsubscribe, the suppression list): a welcome with the manage link once the
 * allowance is in place, a receipt for each confirmed charge, and a notice when it becomes past due
 * or is canceled, in the customer's language (`customer_locale`: the store's choice or the subscribe
 * page's, else the store's own). Nothing before the customer authorized (they did not subscribe yet). Each mail is
 * claimed (a row in subscription_mails) before it goes, so two instances or a run after a restart
 * never send one twice; a crash between claim and send loses that one mail instead.
 *
 * Every one carries the manage link, the customer's credential to cancel: the outbox copy is private
 * (addressed to nobody's login), like a refund-address link.
 */

/** Rows one pass handles of each kind; the next pass takes the rest. */
const batch = 200;
/** Authorizations, charges and history entries older than this are not mailed (no flood of old news when mail starts). */
const freshnessMs = 7 * 86_400_000;

/** The customer's allowance is in place (a permit accepted, an approve checked, a first charge mined): their mail may start. */
export async function recordSubscriptionAuthorized(db: DbOrTx, subscription: Pick<Subscription, "id" | "authorizedAt">, now = new Date()): Promise<void> {
  if (!subscription.authorizedAt) await markSubscriptionAuthorized(db, subscription.id, now);
}

function facts(subscription: Subscription, planName: string): SubscriptionMailFacts & { decimals: number } {
  const view = serializeSubscription(subscription, "");
  const chain = findBlockchainById(subscription.blockchainId);
  const decimals = chain?.tokens.find((t) => t.address?.toLowerCase() === subscription.tokenAddress.toLowerCase())?.decimals ?? 0;
  return {
    subscriptionId: subscription.subscriptionId,
    planName,
    maxAmount: view.max_amount,
    currency: view.currency,
    network: chain?.name ?? view.blockchain,
    intervalDays: view.interval_days,
    manageUrl: manageUrl(subscription.subscriptionId),
    decimals,
  };
}

async function claimAndSend(
  db: Db,
  subscription: Subscription,
  claim: { kind: SubscriptionMailKind; sourceId: number; mailKind: MailKind },
  content: (shopName: string, locale: CustomerLocale) => MailContent,
  now: Date,
): Promise<boolean> {
  if (
    !(await claimSubscriptionMail(db, {
      subscriptionId: subscription.id,
      merchantId: subscription.merchantId,
      kind: claim.kind,
      sourceId: claim.sourceId,
      sentAt: now,
    }))
  )
    return false;
  const look = await storeLook(db, subscription.merchantId);
  const locale = await customerMailLocale(db, subscription.merchantId, subscription.customerLocale);
  await sendCustomerMail(
    db,
    {
      merchantId: subscription.merchantId,
      kind: claim.mailKind,
      to: subscription.customerEmail!,
      content: content(look?.name ?? "", locale),
      locale,
      // The manage link in it is the customer's credential: no member's outbox shows it.
      private: true,
      support: { email: look?.supportEmail ?? null, url: look?.supportUrl ?? null },
    },
    now,
  );
  return true;
}

/** Why a canceled entry happened, as the customer is told. */
function canceledBy(detail: unknown): "you" | "store" | "unpaid" {
  const d = (detail ?? {}) as { by?: unknown; reason?: unknown; last_failure?: unknown };
  if (d.by === "customer") return "you";
  if (d.reason === "past_due" && d.last_failure !== undefined) return "unpaid";
  return "store";
}

/** One pass: every subscription mail due, each claimed before it is sent. Returns what was handled ("SUB-…:kind[#period]"; a suppressed address is handled, not mailed). */
export async function sendDueSubscriptionMails(db: Db, now = new Date()): Promise<string[]> {
  const sent: string[] = [];
  const since = new Date(now.getTime() - freshnessMs);
  for (const { subscription, planName } of await findAuthorizedMailsDue(db, since, batch)) {
    const f = facts(subscription, planName);
    const firstChargeAt = subscription.startsAt.getTime() > subscription.authorizedAt!.getTime() ? subscription.startsAt : subscription.authorizedAt!;
    if (
      await claimAndSend(
        db,
        subscription,
        { kind: "authorized", sourceId: subscription.id, mailKind: "subscription_authorized" },
        (shop, locale) => subscriptionAuthorizedMail(shop, { ...f, firstChargeAt }, locale),
        now,
      )
    )
      sent.push(`${subscription.subscriptionId}:authorized`);
  }
  for (const { charge, subscription, planName } of await findChargeReceiptsDue(db, since, batch)) {
    const f = facts(subscription, planName);
    const periodMs = subscription.periodSeconds * 1000;
    const periodStart = new Date(subscription.startsAt.getTime() + charge.period * periodMs);
    const content = (shop: string, locale: CustomerLocale) =>
      subscriptionReceiptMail(
        shop,
        {
          ...f,
          amount: formatAmount(BigInt(charge.amount), f.decimals),
          price: charge.priceAmount && charge.priceCurrency ? { amount: charge.priceAmount, currency: charge.priceCurrency } : null,
          period: charge.period,
          periodStart,
          periodEnd: new Date(periodStart.getTime() + periodMs),
          txHash: charge.txHash,
          chargedAt: charge.confirmedAt ?? now,
        },
        locale,
      );
    if (await claimAndSend(db, subscription, { kind: "charge_receipt", sourceId: charge.id, mailKind: "subscription_receipt" }, content, now))
      sent.push(`${subscription.subscriptionId}:charge_receipt#${charge.period}`);
  }
  for (const { event, subscription, planName } of await findNoticesDue(db, since, batch)) {
    const f = facts(subscription, planName);
    const kind = event.kind as "past_due" | "canceled";
    const content = (shop: string, locale: CustomerLocale) =>
      kind === "past_due" ? subscriptionPastDueMail(shop, f, locale) : subscriptionCanceledMail(shop, { ...f, by: canceledBy(event.detail) }, locale);
    if (await claimAndSend(db, subscription, { kind, sourceId: event.id, mailKind: "subscription_notice" }, content, now))
      sent.push(`${subscription.subscriptionId}:${kind}`);
  }
  return sent;
}
