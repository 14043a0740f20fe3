/** Receipts by e-mail (lib/receipts): the address a customer left on the payment page, and what was mailed to it. */
import { index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";
import { refunds } from "./refunds";

/** One per order whose customer asked for a receipt; `receiptSentAt` once the receipt was mailed (once). */
export const receiptContacts = pgTable(
  "receipt_contacts",
  {
    paymentOrderId: integer("payment_order_id")
      .primaryKey()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /**
     * The address as it stood while the payment was still due (pending, nothing received): the only
     * one a refund-address link is mailed to (issue 52). Changing the receipt address after money
     * arrived leaves it as it was, so whoever holds the page's URL cannot take the refund over.
     */
    refundContactEmail: text("refund_contact_email"),
    /** The language of the page the customer left the address on (lib/i18n/locales.ts): their receipt and refund notices are written in it. */
    locale: text("locale"),
    receiptSentAt: ts("receipt_sent_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("receipt_contacts_unsent_idx").on(t.receiptSentAt)],
);

/** A refund whose customer was told it was sent: one row per refund, written before the mail (at most one notice). */
export const refundNotices = pgTable("refund_notices", {
  refundId: integer("refund_id")
    .primaryKey()
    .references(() => refunds.id, { onDelete: "cascade" }),
  sentAt: ts("sent_at").notNull(),
});

/**
 * A one-time link that lets the customer of an over-, under- or late-paid order name a refund
 * address without the paying wallet (issue 52): mailed to the order's refund contact, stored as
 * the SHA-256 of its token, single use, expiring; a new link spends the order's earlier ones.
 */
export const refundAddressLinks = pgTable(
  "refund_address_links",
  {
    id: serial("id").primaryKey(),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** Where it was mailed. */
    email: text("email").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("refund_address_links_hash_key").on(t.tokenHash), index("refund_address_links_order_idx").on(t.paymentOrderId)],
);
export type RefundAddressLink = typeof refundAddressLinks.$inferSelect;
