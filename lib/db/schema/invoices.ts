/** Invoices (lib/invoices): bills a store sends to a client, paid through the hosted checkout. */
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";

/**
 * One row per store that changed its invoice settings (defaults apply without one): how numbers
 * read, whether clients may pay part of an invoice, and when reminders go out.
 */
export const invoiceSettings = pgTable("invoice_settings", {
  merchantId: integer("merchant_id")
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  /** The number's pattern: {seq} (optionally {seq:N} zero-padded to N digits) and {yyyy}. */
  numberFormat: text("number_format").notNull(),
  allowPartialPayments: boolean("allow_partial_payments").notNull(),
  /** Days before the due date a reminder goes out (e.g. [3]). */
  reminderDaysBefore: jsonb("reminder_days_before").$type<number[]>().notNull(),
  /** Days after the due date an overdue reminder goes out (e.g. [1, 7]). */
  reminderDaysAfter: jsonb("reminder_days_after").$type<number[]>().notNull(),
  ...timestamps,
});
export type InvoiceSettings = typeof invoiceSettings.$inferSelect;

export interface InvoiceLineItem {
  description: string;
  quantity: string;
  unit_price: string;
}
export interface InvoiceTaxLine {
  name: string;
  /** Percent of the subtotal, as a decimal string ("20", "7.5"). */
  rate: string;
}
export interface InvoiceClient {
  name: string;
  email: string;
  address: string | null;
  tax_id: string | null;
}
export interface InvoiceMethod {
  blockchain: string;
  currency: string;
}

/**
 * An invoice. `sequence` is the store's own running count (unique per store); `number` is it written
 * in the store's format when the invoice was created. Amounts are decimal strings in `currency`
 * (ISO 4217 fiat or a token symbol). status: draft | sent | partially_paid | paid | overdue | void.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    /** Public id, INV-…: the path of the hosted page /invoice/{id}. Unguessable: the page is public. */
    invoiceId: text("invoice_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    sequence: integer("sequence").notNull(),
    number: text("number").notNull(),
    status: text("status").notNull(),
    client: jsonb("client").$type<InvoiceClient>().notNull(),
    items: jsonb("items").$type<InvoiceLineItem[]>().notNull(),
    taxes: jsonb("taxes").$type<InvoiceTaxLine[]>().notNull(),
    currency: text("currency").notNull(),
    subtotal: text("subtotal").notNull(),
    taxTotal: text("tax_total").notNull(),
    total: text("total").notNull(),
    amountPaid: text("amount_paid").notNull(),
    dueAt: ts("due_at").notNull(),
    notes: text("notes"),
    acceptedMethods: jsonb("accepted_methods").$type<InvoiceMethod[]>().notNull(),
    /**
     * The client's language (lib/i18n/locales.ts) for the invoice's mail: set by the store, or, left
     * unset, recorded from the invoice page when the client first pays from it; null: the store's.
     */
    locale: text("locale"),
    sentAt: ts("sent_at"),
    paidAt: ts("paid_at"),
    voidedAt: ts("voided_at"),
    /** Reminders already mailed, by key ("before:3", "after:1"): each goes once. */
    remindersSent: jsonb("reminders_sent").$type<string[]>().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("invoices_invoice_id_key").on(t.invoiceId),
    uniqueIndex("invoices_merchant_sequence_key").on(t.merchantId, t.sequence),
    index("invoices_merchant_idx").on(t.merchantId, t.createdAt),
    index("invoices_open_due_idx").on(t.status, t.dueAt),
  ],
);
export type Invoice = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;

/**
 * The orders opened to pay an invoice from its hosted page, each for part or all of what is due.
 * `amount` is the part in the invoice's currency; `creditedAt` is set once the order confirmed and
 * the amount was added to the invoice's amount_paid (once).
 */
export const invoicePayments = pgTable(
  "invoice_payments",
  {
    id: serial("id").primaryKey(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    amount: text("amount").notNull(),
    creditedAt: ts("credited_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("invoice_payments_order_key").on(t.paymentOrderId), index("invoice_payments_uncredited_idx").on(t.creditedAt, t.invoiceId)],
);
export type InvoicePayment = typeof invoicePayments.$inferSelect;
