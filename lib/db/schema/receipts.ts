/** Receipts by e-mail (lib/receipts): the address a customer left on the payment page, and what was mailed to it. */
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
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
