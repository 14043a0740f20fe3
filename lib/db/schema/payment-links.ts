/** Payment links (lib/payment-links). */
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { merchants } from "./accounts";

export const paymentLinks = pgTable(
  "payment_links",
  {
    id: serial("id").primaryKey(),
    /** Public id, LNK-…: the path of /link/{id}. */
    linkId: text("link_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** Token-priced links: the amount per item in token units ("12.5"); null for fiat-priced links. */
    amount: text("amount"),
    /** Fiat-priced links: the price per item and its currency. */
    priceAmount: text("price_amount"),
    priceCurrency: text("price_currency"),
    /** What the customer may pay with: [{ blockchain, currency }]. */
    options: jsonb("options").notNull(),
    /** Most items one order may buy (1: no quantity choice). */
    maxQuantity: integer("max_quantity").notNull().default(1),
    isActive: boolean("is_active").notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex("payment_links_link_id_key").on(t.linkId), index("payment_links_merchant_idx").on(t.merchantId, t.createdAt)],
);
export type PaymentLink = typeof paymentLinks.$inferSelect;
export type NewPaymentLink = typeof paymentLinks.$inferInsert;
