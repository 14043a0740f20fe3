import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Set from JS (never SQL `now()`) so a fake clock in tests governs every timestamp. */
const timestamps = {
  createdAt: ts("created_at").notNull(),
  updatedAt: ts("updated_at").notNull(),
};

/** Integer base units of a token: up to 2^256, never floating point. */
const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 });

// ─── Accounts ────────────────────────────────────────────────────────────────

export const merchants = pgTable(
  "merchants",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    shopName: text("shop_name").notNull(),
    /** standard | premium | enterprise */
    plan: text("plan").notNull().default("standard"),
    /** Per-account requests/hour; used for enterprise accounts. */
    rateLimitPerHour: integer("rate_limit_per_hour"),
    /** Signs deliveries to per-order webhook_url; kept readable because signing needs it. */
    webhookSecret: text("webhook_secret").notNull(),
    previousWebhookSecret: text("previous_webhook_secret"),
    previousWebhookSecretExpiresAt: ts("previous_webhook_secret_expires_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("merchants_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("merchants_email_lower_key").on(sql`lower(${t.email})`),
  ],
);
export type Merchant = typeof merchants.$inferSelect;
export type NewMerchant = typeof merchants.$inferInsert;

export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** All tokens rotated from one login share a family; reuse of a spent token revokes it. */
    familyId: text("family_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash), index("refresh_tokens_family_idx").on(t.familyId)],
);
export type RefreshToken = typeof refreshTokens.$inferSelect;

/** Failed logins, for the 10-failures-in-15-minutes throttle (per username and per client address). */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: serial("id").primaryKey(),
    /** `user:<lowercased username>` or `ip:<address>` */
    subject: text("subject").notNull(),
    occurredAt: ts("occurred_at").notNull(),
  },
  (t) => [index("login_failures_subject_idx").on(t.subject, t.occurredAt)],
);

// ─── API keys, rate limits ───────────────────────────────────────────────────

export const apiKeys = pgTable(
  "api_keys",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The visible start of the key, e.g. `sk_test_3fA9`. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key: keys carry 256 random bits, so a fast hash is safe and lookups stay O(1). */
    keyHash: text("key_hash").notNull(),
    permissions: text("permissions").array().notNull(),
    expiresAt: ts("expires_at"),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash), index("api_keys_merchant_idx").on(t.merchantId, t.createdAt)],
);
export type ApiKey = typeof apiKeys.$inferSelect;

/** Fixed-window counters: one row per (key, window); one upsert per counted request. */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

// ─── Wallets and orders ──────────────────────────────────────────────────────

export const merchantWallets = pgTable(
  "merchant_wallets",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** Numeric id from the network catalog (lib/chains/catalog.ts). */
    blockchainId: integer("blockchain_id").notNull(),
    walletAddress: text("wallet_address").notNull(),
    confirmationThreshold: integer("confirmation_threshold").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex("merchant_wallets_merchant_chain_key").on(t.merchantId, t.blockchainId)],
);
export type MerchantWallet = typeof merchantWallets.$inferSelect;

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
    /** Exactly the JSON text the merchant sent. */
    orderInfo: text("order_info").notNull(),
    webhookUrl: text("webhook_url"),
    redirectUrl: text("redirect_url"),
    confirmationThreshold: integer("confirmation_threshold").notNull(),
    expiresAt: ts("expires_at").notNull(),
    confirmedAt: ts("confirmed_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("payment_orders_order_id_key").on(t.orderId),
    uniqueIndex("payment_orders_merchant_nonce_key").on(t.merchantId, t.nonce),
    index("payment_orders_merchant_created_idx").on(t.merchantId, t.createdAt),
    index("payment_orders_chain_address_idx").on(t.blockchainId, t.receivingAddress),
    index("payment_orders_status_idx").on(t.status, t.expiresAt),
  ],
);
export type PaymentOrder = typeof paymentOrders.$inferSelect;
export type NewPaymentOrder = typeof paymentOrders.$inferInsert;

// ─── Events (transactional outbox) ───────────────────────────────────────────

export const orderEvents = pgTable(
  "order_events",
  {
    /** `evt_…`; also the webhook body's id */
    id: text("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    /** payment.pending | payment.confirmed | payment.failed | payment.expired | payment.reorged */
    type: text("type").notNull(),
    /** The order exactly as GET returned it at the moment of the transition. */
    data: jsonb("data").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("order_events_merchant_idx").on(t.merchantId, t.createdAt)],
);
export type OrderEvent = typeof orderEvents.$inferSelect;
