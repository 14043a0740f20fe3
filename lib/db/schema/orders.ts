/** Payment orders (lib/orders): the orders, their accepted methods' deposit addresses, and the overview's per-day totals. */
import { sql } from "drizzle-orm";
import { bigint, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps, baseUnits } from "./columns";
import { merchants } from "./accounts";

export const paymentOrders = pgTable(
  "payment_orders",
  {
    id: serial("id").primaryKey(),
    orderId: text("order_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    blockchainId: integer("blockchain_id").notNull(),
    currency: text("currency").notNull(),
    /** null for the chain's native coin */
    tokenAddress: text("token_address"),
    decimals: integer("decimals").notNull(),
    amount: baseUnits("amount").notNull(),
    amountReceived: baseUnits("amount_received").notNull().default("0"),
    /** pending | processing | confirmed | expired | failed */
    status: text("status").notNull(),
    /** underpaid | late_payment | reverted */
    failureReason: text("failure_reason"),
    receivingAddress: text("receiving_address").notNull(),
    /** The merchant wallet bound into the deposit forwarder at creation. */
    depositDestination: text("deposit_destination").notNull(),
    depositSalt: text("deposit_salt").notNull(),
    /** Factory that computes/deploys the forwarder. */
    depositFactory: text("deposit_factory").notNull(),
    /** Which factory contract deposit_factory is (lib/chains/catalog.ts DepositFactoryVersion): 1 sweeps alone, 2 in batches. */
    depositFactoryVersion: integer("deposit_factory_version").notNull().default(1),
    /** Exactly the JSON text the merchant sent. */
    orderInfo: text("order_info").notNull(),
    webhookUrl: text("webhook_url"),
    redirectUrl: text("redirect_url"),
    confirmationThreshold: integer("confirmation_threshold").notNull(),
    expiresAt: ts("expires_at").notNull(),
    confirmedAt: ts("confirmed_at"),
    /** Fiat-priced orders: the price as given ("19.90") and its ISO 4217 currency; null for token-priced orders. */
    priceAmount: text("price_amount"),
    priceCurrency: text("price_currency"),
    /** Locked rate: price-currency units per whole token, as shown to the customer. */
    rate: text("rate"),
    /** The feed answers the rate was computed from (lib/pricing/lock-price.ts RateSource[]). */
    rateSource: jsonb("rate_source"),
    /** Orders from a payment link: the link's title and the quantity bought (the pay page and receipt show them); null otherwise. */
    itemName: text("item_name"),
    itemQuantity: integer("item_quantity"),
    /** The merchant's payment tolerance when the order was created, in basis points (lib/orders/lifecycle.ts). */
    paymentToleranceBps: integer("payment_tolerance_bps").notNull().default(0),
    /** Where the customer asked to be refunded (pay page, over/under/late payments). */
    refundAddress: text("refund_address"),
    refundAddressAt: ts("refund_address_at"),
    /**
     * Set when a reorg took away the payment of an order already confirmed (it stays confirmed:
     * the merchant was told; lib/engine/reorg-recheck.ts): why (payment_reorged) and when.
     */
    atRiskReason: text("at_risk_reason"),
    atRiskAt: ts("at_risk_at"),
    /** The paying address whose signature set refund_address (issue 24); null: left unsigned, before signatures were required. */
    refundAddressSignedBy: text("refund_address_signed_by"),
    /**
     * How refund_address was given (issue 52): payer_signature (the paying wallet signed it),
     * email_link (a one-time link mailed to the customer's address given before paying), merchant
     * (a member entered it after contact, with fresh proof; audited); null: left before it was recorded.
     */
    refundAddressSource: text("refund_address_source"),
    /** Who gave it: the signing payer's address, the e-mail address the link went to, or the member's name. */
    refundAddressGivenBy: text("refund_address_given_by"),
    /**
     * Orders that accept several (chain, token) methods (issue 27): each method with its amount, rate
     * and deposit address (lib/orders/payment-methods.ts AcceptedMethod[]); the order's own chain,
     * token, amount and address columns hold the method chosen now. null: the one method of the columns.
     */
    acceptedMethods: jsonb("accepted_methods"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("payment_orders_order_id_key").on(t.orderId),
    uniqueIndex("payment_orders_merchant_nonce_key").on(t.merchantId, t.nonce),
    // The lists (issue 31): each filter and ordering of GET /api/payment-orders/ and the dashboard
    // reads its page from one of these in order, never sorting the merchant's whole history.
    index("payment_orders_merchant_created_idx").on(t.merchantId, t.createdAt, t.id),
    index("payment_orders_merchant_status_idx").on(t.merchantId, t.status, t.createdAt, t.id),
    index("payment_orders_merchant_chain_idx").on(t.merchantId, t.blockchainId, t.createdAt, t.id),
    // The currency filter matches lower(currency); the plain column at the end lets its bounded
    // count read the index alone (PostgreSQL reads an expression's column from the heap otherwise).
    index("payment_orders_merchant_currency_idx").on(t.merchantId, sql`lower(${t.currency})`, t.createdAt, t.id, t.currency),
    // The dashboard's text search (lib/orders/queries.ts orderTextWhere: ilike '%q%' on these
    // columns, ORed): trigram GIN (pg_trgm), one bitmap scan per column instead of reading the
    // merchant's whole history. Text under 3 characters has no trigram and still scans.
    index("payment_orders_search_trgm_idx").using(
      "gin",
      t.orderId.op("gin_trgm_ops"),
      t.receivingAddress.op("gin_trgm_ops"),
      t.orderInfo.op("gin_trgm_ops"),
      t.itemName.op("gin_trgm_ops"),
    ),
    // An order id typed into the search (ORD-… or the start of one): an id's only "-" is its fourth
    // character (lib/ids.ts), so such text can only match an id from its start, a range of this
    // index (text_pattern_ops: `lower(order_id) like 'ord-…%'`) instead of a trigram bitmap.
    index("payment_orders_merchant_order_id_idx").on(t.merchantId, sql`lower(${t.orderId}) text_pattern_ops`),
    // The same for a deposit address typed into the search (0x…): its "x" is only ever the second character.
    index("payment_orders_merchant_address_idx").on(t.merchantId, sql`lower(${t.receivingAddress}) text_pattern_ops`),
    index("payment_orders_merchant_amount_idx").on(t.merchantId, sql`(${t.amount} * power(10::numeric, 36 - ${t.decimals}))`, t.id),
    index("payment_orders_chain_address_idx").on(t.blockchainId, t.receivingAddress),
    index("payment_orders_status_idx").on(t.status, t.expiresAt),
    // Orders at risk (a reorg took a confirmed payment back): the overview's total and the list's filter read these few rows.
    index("payment_orders_merchant_at_risk_idx")
      .on(t.merchantId, t.createdAt, t.id)
      .where(sql`at_risk_reason is not null`),
    // The engine (issue 31): each chain tick reads only the orders it has to move, never every open
    // one. Pending deadlines per chain (expiry, the quiet watcher's next wake-up); orders with money
    // in flight (processing, or pending with some received); open native orders (the balance check).
    index("payment_orders_chain_deadline_idx")
      .on(t.blockchainId, t.expiresAt)
      .where(sql`status = 'pending'`),
    index("payment_orders_chain_in_flight_idx")
      .on(t.blockchainId)
      .where(sql`status = 'processing' or (status = 'pending' and amount_received > 0)`),
    index("payment_orders_chain_open_native_idx")
      .on(t.blockchainId, t.id)
      .where(sql`status in ('pending', 'processing') and token_address is null`),
  ],
);
export type PaymentOrder = typeof paymentOrders.$inferSelect;
export type NewPaymentOrder = typeof paymentOrders.$inferInsert;

/**
 * The overview's per-day totals of a merchant's orders (issue 31): one row per UTC day of
 * creation, chain, token, status and price currency ('' for token-priced orders), so the overview
 * reads a few rows per day instead of every order of the last 60 days. Kept exact by statement
 * triggers on payment_orders (migration order_day_totals) that append signed changes to
 * `order_day_total_changes` in the writing transaction (no row shared by concurrent writers);
 * `foldOrderDayTotals` moves changes into these rows. A reader sums both tables in one statement.
 */
const orderDayKey = {
  merchantId: integer("merchant_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
  blockchainId: integer("blockchain_id").notNull(),
  currency: text("currency").notNull(),
  decimals: integer("decimals").notNull(),
  status: text("status").notNull(),
  priceCurrency: text("price_currency").notNull(),
  orders: bigint("orders", { mode: "number" }).notNull(),
  amount: numeric("amount").notNull(),
  priceAmount: numeric("price_amount").notNull(),
};

export const orderDayTotals = pgTable("order_day_totals", orderDayKey, (t) => [
  primaryKey({ name: "order_day_totals_pk", columns: [t.merchantId, t.day, t.blockchainId, t.currency, t.decimals, t.status, t.priceCurrency] }),
]);

export const orderDayTotalChanges = pgTable(
  "order_day_total_changes",
  { id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity().primaryKey(), ...orderDayKey },
  (t) => [index("order_day_total_changes_merchant_idx").on(t.merchantId, t.id)],
);

/**
 * The deposit address of each chain an order with several methods accepts (one per order and
 * chain): the scanner finds the order by any of them, not only by the chosen method's address.
 */
export const orderMethodAddresses = pgTable(
  "order_method_addresses",
  {
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    receivingAddress: text("receiving_address").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentOrderId, t.blockchainId] }),
    index("order_method_addresses_chain_address_idx").on(t.blockchainId, t.receivingAddress),
  ],
);
