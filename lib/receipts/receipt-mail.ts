import "server-only";
import { storeLook } from "@/lib/branding/branding";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { Db, DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { notFound } from "@/lib/http/errors";
import type { CustomerLocale } from "@/lib/i18n/locales";
import { customerMailLocale, sendCustomerMail } from "@/lib/mail/customer-mail";
import { orderReceiptMail, refundSentMail } from "@/lib/mail/customer-templates";
import { formatAmount } from "@/lib/money/amounts";
import { findOrderByPublicId } from "@/lib/orders/queries";
import { claimReceipt, claimRefundNotice, findReceiptsDue, findRefundNoticesDue, upsertReceiptContact } from "./queries";

/** Rows one pass handles of each kind; the next pass takes the rest. */
const batch = 200;

/**
 * The customer leaves (or changes) the address their receipt goes to, from the payment page. Any
 * order, in any state: the receipt goes once the order is confirmed, and a refund notice for each
 * refund confirmed later, written in `locale` (the page's language; null: the store's, else
 * English, which the answer names). Given while the payment is due,
 * it is also the order's refund contact (lib/receipts/refund-address-link.ts).
 */
export async function setReceiptEmail(
  db: DbOrTx,
  orderId: string,
  email: string,
  locale: CustomerLocale | null,
  now = new Date(),
): Promise<{ email: string; locale: CustomerLocale }> {
  const order = await findOrderByPublicId(db, orderId);
  if (!order) throw notFound("Payment order");
  const address = email.trim().toLowerCase();
  // While the payment is still due, the address is also the refund contact (a refund-address link
  // goes only there); once money arrived, a new address is for receipts only (issue 52).
  const paymentDue = order.status === "pending" && BigInt(order.amountReceived) === 0n;
  await upsertReceiptContact(db, {
    paymentOrderId: order.id,
    merchantId: order.merchantId,
    email: address,
    refundContactEmail: paymentDue ? address : null,
    locale,
    createdAt: now,
  });
  return { email: address, locale: await customerMailLocale(db, order.merchantId, locale) };
}

const network = (blockchainId: number) => findBlockchainById(blockchainId)?.name ?? `blockchain ${blockchainId}`;

/**
 * One pass: a receipt to each confirmed order's customer who left an address, and a notice for each
 * confirmed refund of such an order. Each is claimed before it is mailed, so a crash between the two
 * loses one mail rather than sending it twice.
 */
export async function sendDueReceipts(db: Db, now = new Date()): Promise<{ receipts: string[]; refundNotices: number[] }> {
  const sent = { receipts: [] as string[], refundNotices: [] as number[] };
  for (const { contact, order } of await findReceiptsDue(db, batch)) {
    if (!(await claimReceipt(db, order.id, now))) continue;
    const look = await storeLook(db, order.merchantId);
    const url = new URL(`/pay/${order.orderId}/receipt`, env.APP_URL).toString();
    const locale = await customerMailLocale(db, order.merchantId, contact.locale);
    const content = orderReceiptMail(
      look?.name ?? "",
      {
        orderId: order.orderId,
        item: order.itemName,
        amount: formatAmount(BigInt(order.amount), order.decimals),
        currency: order.currency,
        network: network(order.blockchainId),
        paidAt: order.confirmedAt ?? now,
        url,
      },
      locale,
    );
    await sendCustomerMail(
      db,
      {
        merchantId: order.merchantId,
        kind: "order_receipt",
        to: contact.email,
        content,
        locale,
        support: { email: look?.supportEmail ?? null, url: look?.supportUrl ?? null },
      },
      now,
    );
    sent.receipts.push(order.orderId);
  }
  for (const { refund, email, locale: recorded, orderId, decimals } of await findRefundNoticesDue(db, batch)) {
    if (!(await claimRefundNotice(db, refund.id, now))) continue;
    const look = await storeLook(db, refund.merchantId);
    const locale = await customerMailLocale(db, refund.merchantId, recorded);
    const content = refundSentMail(
      look?.name ?? "",
      {
        orderId,
        amount: formatAmount(BigInt(refund.amount), decimals),
        currency: refund.currency,
        network: network(refund.blockchainId),
        txHash: refund.txHash,
      },
      locale,
    );
    await sendCustomerMail(
      db,
      {
        merchantId: refund.merchantId,
        kind: "refund_sent",
        to: email,
        content,
        locale,
        support: { email: look?.supportEmail ?? null, url: look?.supportUrl ?? null },
      },
      now,
    );
    sent.refundNotices.push(refund.id);
  }
  return sent;
}
