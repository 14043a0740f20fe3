import "server-only";
import { randomBytes } from "node:crypto";
import { isAddressEqual, type Address } from "viem";
import { sha256Hex } from "@/lib/auth/hash";
import { storeLook } from "@/lib/branding/branding";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { customerMailLocale, sendCustomerMail } from "@/lib/mail/customer-mail";
import { refundAddressLinkMail } from "@/lib/mail/customer-templates";
import { findPublicOrderRow, refundAddressAllowed } from "@/lib/orders/public-order";
import { setOrderRefundAddress } from "@/lib/orders/queries";
import { consume, rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { assertRefundDestination } from "@/lib/refunds/refund-destination";
import { findReceiptContact, findUsableRefundAddressLink, insertRefundAddressLink, spendOrderRefundAddressLinks, spendRefundAddressLink } from "./queries";

const hourMs = 60 * 60 * 1000;
/** How long a mailed refund-address link works: a day, for a customer who reads mail later. */
export const refundAddressLinkTtlMs = 24 * hourMs;
/** Links one order may have mailed in an hour: enough for a lost mail, too few to flood the customer's inbox. */
export const refundAddressLinksPerHour = 3;

const invalidLink = () => validationError({ token: ["This link is invalid, was already used or has expired. Ask for a new one on the payment page."] });

/** `j•••@example.com`: enough for the customer to know which inbox, not enough to learn an address from a public page. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}

async function refundableOrder(db: Db, orderId: string): Promise<PaymentOrder> {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  if (!refundAddressAllowed(order)) {
    throw new ApiError("ORDER_NOT_REFUNDABLE", "A refund address can be left only for an overpaid, underpaid or late payment.");
  }
  return order;
}

/**
 * The payment page's "no wallet to sign with? mail me a link" (issue 52): for an overpaid,
 * underpaid or late order, mails a one-time link to the order's refund contact, the receipt address
 * the customer gave while the payment was still due (lib/receipts/receipt-mail.ts). Never to an
 * address given later: the page's URL is no secret, so whoever holds it could otherwise give their
 * own address and take the refund over. No refund contact: 409 CONFLICT (the page points to the
 * store's support contact). The token is stored hashed, works once, expires after
 * `refundAddressLinkTtlMs`, and a new link spends the order's earlier ones. At most
 * `refundAddressLinksPerHour` an hour per order. The mail's outbox copy shows to nobody (it is the
 * customer's credential). Answers where it went, masked.
 */
export async function requestRefundAddressLink(db: Db, orderId: string, now = new Date()): Promise<{ sent_to: string; expires_at: string }> {
  const order = await refundableOrder(db, orderId);
  const contact = await findReceiptContact(db, order.id);
  if (!contact?.refundContactEmail) {
    throw new ApiError(
      "CONFLICT",
      "No e-mail address was given for this order while the payment was due, so no link can be sent: contact the store to give your refund address.",
    );
  }
  const quota = await consume(db, `refund-address-link:${order.id}`, refundAddressLinksPerHour, hourMs, now);
  if (quota.exceeded) throw rateLimitedError(quota);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + refundAddressLinkTtlMs);
  await db.transaction(async (tx) => {
    await spendOrderRefundAddressLinks(tx, order.id, now);
    await insertRefundAddressLink(tx, {
      paymentOrderId: order.id,
      merchantId: order.merchantId,
      tokenHash: sha256Hex(token),
      email: contact.refundContactEmail!,
      expiresAt,
      createdAt: now,
    });
  });
  const look = await storeLook(db, order.merchantId);
  const url = new URL(`/pay/${order.orderId}/refund-address`, env.APP_URL);
  url.searchParams.set("token", token);
  const locale = await customerMailLocale(db, order.merchantId, contact.locale);
  const sent = await sendCustomerMail(
    db,
    {
      merchantId: order.merchantId,
      kind: "refund_address_link",
      to: contact.refundContactEmail,
      private: true,
      content: refundAddressLinkMail(
        look?.name ?? "",
        {
          orderId: order.orderId,
          network: findBlockchainById(order.blockchainId)?.name ?? `blockchain ${order.blockchainId}`,
          currency: order.currency,
          url: url.toString(),
          expiresHours: refundAddressLinkTtlMs / hourMs,
        },
        locale,
      ),
      locale,
      support: { email: look?.supportEmail ?? null, url: look?.supportUrl ?? null },
    },
    now,
  );
  if (!sent) {
    throw new ApiError("CONFLICT", "The link could not be mailed to the address given for this order: contact the store to give your refund address.");
  }
  return { sent_to: maskEmail(contact.refundContactEmail), expires_at: expiresAt.toISOString() };
}

/** Whether a link still works, without spending it (the link's page asks before showing its form). */
export async function checkRefundAddressLink(db: Db, orderId: string, token: string, now = new Date()): Promise<{ valid: boolean; email: string | null }> {
  const order = await findPublicOrderRow(db, orderId);
  if (!order || !token) return { valid: false, email: null };
  const link = await findUsableRefundAddressLink(db, order.id, sha256Hex(token), now);
  return link && refundAddressAllowed(order) ? { valid: true, email: maskEmail(link.email) } : { valid: false, email: null };
}

/**
 * Spends a mailed link and sets the order's refund address (issue 52). The token must be one of
 * this order's, unused and unexpired (else 400 on `token`, checked first, so a stranger learns
 * nothing about addresses); the address passes the same destination rules and sanctions screening
 * as every refund (400 on `refund_address`, SANCTIONED_ADDRESS), which leave the link unspent. It
 * replaces the order's refund address as a payer's signature would; refunds already built keep
 * their own `to_address`. The merchant sees it came by e-mail link, and to which address.
 */
export async function setRefundAddressByLink(db: Db, orderId: string, token: string, address: string, now = new Date()) {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const tokenHash = sha256Hex(token);
  if (!(await findUsableRefundAddressLink(db, order.id, tokenHash, now))) throw invalidLink();
  if (!refundAddressAllowed(order)) {
    throw new ApiError("ORDER_NOT_REFUNDABLE", "A refund address can be left only for an overpaid, underpaid or late payment.");
  }
  const refundAddress = await assertRefundDestination(db, order.merchantId, address, "refund_address");
  if (isAddressEqual(refundAddress, order.receivingAddress as Address)) {
    throw validationError({ refund_address: ["Enter your own wallet address, not the zero address or the order's deposit address."] });
  }
  const updated = await db.transaction(async (tx) => {
    const spent = await spendRefundAddressLink(tx, order.id, tokenHash, now);
    if (!spent) return null;
    return setOrderRefundAddress(tx, order.id, refundAddress, { source: "email_link", givenBy: spent.email }, now);
  });
  if (!updated) throw invalidLink();
  return {
    order_id: updated.orderId,
    refund_address: updated.refundAddress!,
    refund_address_at: updated.refundAddressAt!.toISOString(),
    refund_address_source: "email_link" as const,
  };
}
