import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
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
    /** Path token of the merchant's sandbox webhook inbox (/api/sandbox/inbox/{token}/). */
    inboxToken: text("inbox_token").notNull(),
    /** How far below the amount a payment may fall and still pay the order, in basis points (copied onto each new order). */
    paymentToleranceBps: integer("payment_tolerance_bps").notNull().default(0),
    /** When the merchant proved they read mail at `email` (a verification link); null: not yet. */
    emailVerifiedAt: ts("email_verified_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("merchants_inbox_token_key").on(t.inboxToken),
    uniqueIndex("merchants_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("merchants_email_lower_key").on(sql`lower(${t.email})`),
  ],
);
export type Merchant = typeof merchants.$inferSelect;
export type NewMerchant = typeof merchants.$inferInsert;

/**
 * Who may act in a merchant account (issue 28). `user_id` names the person's login, which is still a
 * `merchants` row (username, email, password, second factors, sessions): every login is also its own
 * account, owned by itself; memberships give it roles in other accounts (docs/decisions.md).
 * `role`: owner | admin | developer | viewer (lib/auth/roles.ts).
 */
export const memberships = pgTable(
  "memberships",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("memberships_account_user_key").on(t.merchantId, t.userId), index("memberships_user_idx").on(t.userId)],
);
export type Membership = typeof memberships.$inferSelect;

/** An emailed invitation to join an account with a role: single use, expiring; only the token's SHA-256 is kept. */
export const invitations = pgTable(
  "invitations",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: integer("invited_by").references(() => merchants.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedBy: integer("accepted_by").references(() => merchants.id, { onDelete: "set null" }),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("invitations_token_hash_key").on(t.tokenHash), index("invitations_account_idx").on(t.merchantId, t.createdAt)],
);
export type Invitation = typeof invitations.$inferSelect;

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
  (t) => [
    uniqueIndex("refresh_tokens_hash_key").on(t.tokenHash),
    index("refresh_tokens_family_idx").on(t.familyId),
    // Retention (lib/retention): expired sessions are deleted in batches oldest first.
    index("refresh_tokens_expires_idx").on(t.expiresAt),
  ],
);
export type RefreshToken = typeof refreshTokens.$inferSelect;

/**
 * One row per login (a refresh-token family, issue 28 item 5): what the sessions page shows. The
 * family's tokens live in refresh_tokens and its revocation there too; this keeps where the login
 * came from and when it was last seen (sign-in, refresh, a dashboard page).
 */
export const loginSessions = pgTable(
  "login_sessions",
  {
    familyId: text("family_id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** api (POST /api/auth/login) | dashboard */
    kind: text("kind").notNull(),
    userAgent: text("user_agent"),
    clientIp: text("client_ip"),
    createdAt: ts("created_at").notNull(),
    lastSeenAt: ts("last_seen_at").notNull(),
    lastSeenIp: text("last_seen_ip"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("login_sessions_merchant_idx").on(t.merchantId, t.lastSeenAt)],
);
export type LoginSession = typeof loginSessions.$inferSelect;

/** Failed logins, for the 10-failures-in-15-minutes throttle (per username and per client address). */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: serial("id").primaryKey(),
    /** `user:<lowercased username>`, `ip:<address>` or `pair:<lowercased username>|<address>` */
    subject: text("subject").notNull(),
    occurredAt: ts("occurred_at").notNull(),
  },
  (t) => [index("login_failures_subject_idx").on(t.subject, t.occurredAt)],
);

/**
 * Addresses a merchant has signed in from. While a username is under attack (many recent failures
 * from anywhere) a login from one of these still gets to try its password; others back off.
 */
export const knownLoginAddresses = pgTable(
  "known_login_addresses",
  {
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    lastLoginAt: ts("last_login_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.address] })],
);

/**
 * A merchant's second factors (issue 28). `kind`: `totp` today (at most one per merchant); passkeys
 * will be further rows of another kind with their own columns. A TOTP row without `enabled_at` is
 * an enrolment awaiting its first code; only an enabled one is asked for at login.
 */
export const secondFactors = pgTable(
  "second_factors",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** TOTP: the shared secret, AES-256-GCM under a key derived from AUTH_SECRET (lib/auth/totp.ts). */
    secretCiphertext: text("secret_ciphertext"),
    /** TOTP: the last time step a code was accepted for; a code of that step or earlier is refused (replay). */
    lastUsedStep: bigint("last_used_step", { mode: "number" }),
    enabledAt: ts("enabled_at"),
    /** Passkey: the WebAuthn credential id (base64url), unique across accounts. */
    credentialId: text("credential_id"),
    /** Passkey: the COSE public key (base64url). */
    publicKey: text("public_key"),
    /** Passkey: the authenticator's signature counter at its last accepted use (replay check when it counts). */
    signCount: bigint("sign_count", { mode: "number" }),
    /** Passkey: the transports the browser reported (JSON array), given back as hints at sign-in. */
    transports: text("transports"),
    /** Passkey: the owner's label for it. */
    name: text("name"),
    lastUsedAt: ts("last_used_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("second_factors_one_totp_key").on(t.merchantId).where(sql`${t.kind} = 'totp'`),
    uniqueIndex("second_factors_credential_id_key").on(t.credentialId),
  ],
);

/**
 * WebAuthn challenges handed out by the passkey options endpoints (issue 28), each spent once by the
 * matching verification (deleted there): a replayed registration or assertion finds none. `purpose`:
 * register | login | proof. Only the challenge's SHA-256 is kept.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull(),
    challengeHash: text("challenge_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("webauthn_challenges_hash_key").on(t.challengeHash), index("webauthn_challenges_merchant_idx").on(t.merchantId)],
);
export type SecondFactor = typeof secondFactors.$inferSelect;

/** Single-use recovery codes of a merchant's second factor, SHA-256 hashed (they are random, 50 bits each). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("recovery_codes_merchant_hash_key").on(t.merchantId, t.codeHash)],
);

/**
 * Single-use links sent by email (lib/mail/account-emails.ts): only the token's SHA-256 is kept.
 * `purpose`: verify_email | password_reset. `email`: the address the link was sent to (a verification
 * proves that address, not whatever the account holds later).
 */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull(),
    tokenHash: text("token_hash").notNull(),
    email: text("email").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("email_tokens_hash_key").on(t.tokenHash), index("email_tokens_merchant_idx").on(t.merchantId, t.purpose)],
);
export type EmailToken = typeof emailTokens.$inferSelect;

/**
 * Mail the gateway wrote (lib/mail/mailer.ts): everything in the sandbox or with no SMTP_URL, shown
 * on the dashboard's outbox page to the one login it is addressed to (issue 49): never to the other
 * members of a store, since a reset or invitation link in it is that person's credential.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    /** The store the mail concerns (an invitation's store, a login's own account); null for none. */
    merchantId: integer("merchant_id").references(() => merchants.id, { onDelete: "cascade" }),
    /** The login the mail is addressed to, the only one whose outbox shows it; null: a person with no login yet (an invitation). */
    recipientUserId: integer("recipient_user_id").references(() => merchants.id, { onDelete: "cascade" }),
    /** verify_email | password_reset | password_changed | new_sign_in | payout_address_changed | two_factor_disabled | invitation */
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    /** SMTP: sent | failed; null: outbox only (no SMTP_URL). */
    smtpStatus: text("smtp_status"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("mail_outbox_merchant_idx").on(t.merchantId, t.createdAt), index("mail_outbox_recipient_idx").on(t.recipientUserId, t.createdAt)],
);
export type MailOutboxMessage = typeof mailOutbox.$inferSelect;

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
    /**
     * The login that made the key (issue 49): a key never carries more than its maker's role allows,
     * and is narrowed or revoked when the maker's role shrinks or they leave the account.
     */
    createdBy: integer("created_by").references(() => merchants.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at"),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("api_keys_hash_key").on(t.keyHash),
    index("api_keys_merchant_idx").on(t.merchantId, t.createdAt),
    index("api_keys_creator_idx").on(t.merchantId, t.createdBy),
  ],
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

/**
 * Idempotency-Key answers (lib/idempotency/): one row per merchant and key, kept 24 h. `status`
 * null = the first request is still running (claimed by `lockToken`); then the stored answer.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of method, path and canonical body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    lockToken: text("lock_token").notNull(),
    /** x-request-id of the first request, sent back as Original-Request on replays. */
    requestId: text("request_id").notNull(),
    status: integer("status"),
    responseBody: text("response_body"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;

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
    // The engine (issue 31): each chain tick reads only the orders it has to move, never every open
    // one. Pending deadlines per chain (expiry, the quiet watcher's next wake-up); orders with money
    // in flight (processing, or pending with some received); open native orders (the balance check).
    index("payment_orders_chain_deadline_idx").on(t.blockchainId, t.expiresAt).where(sql`status = 'pending'`),
    index("payment_orders_chain_in_flight_idx").on(t.blockchainId).where(sql`status = 'processing' or (status = 'pending' and amount_received > 0)`),
    index("payment_orders_chain_open_native_idx").on(t.blockchainId, t.id).where(sql`status in ('pending', 'processing') and token_address is null`),
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
 * The lists' maintained counts (issue 31): per merchant, list and key, how many rows the list holds,
 * so a list's `count` is exact and reads a few rows at any history. The key is what the list
 * filters by: orders and transactions by chain (`scope_id`), status (`kind`) and currency; events
 * by type (`kind`); webhook deliveries by endpoint (`scope_id`) and status (`kind`); 0 and '' where
 * a list has no such part. Kept like the per-day totals: statement triggers on each list's table
 * (migration list_counts) append signed changes to `list_count_changes` in the writing transaction;
 * `foldListCounts` moves them into these rows; a reader sums both tables in one statement
 * (lib/db/list-counts.ts).
 */
const listCountKey = {
  merchantId: integer("merchant_id").notNull(),
  list: text("list").notNull(),
  scopeId: integer("scope_id").notNull(),
  kind: text("kind").notNull(),
  currency: text("currency").notNull(),
  rows: bigint("rows", { mode: "number" }).notNull(),
};
export const listCounts = pgTable("list_counts", listCountKey, (t) => [
  primaryKey({ name: "list_counts_pk", columns: [t.merchantId, t.list, t.scopeId, t.kind, t.currency] }),
]);
export const listCountChanges = pgTable(
  "list_count_changes",
  { id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity().primaryKey(), ...listCountKey },
  (t) => [index("list_count_changes_merchant_idx").on(t.merchantId, t.id)],
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
  (t) => [primaryKey({ columns: [t.paymentOrderId, t.blockchainId] }), index("order_method_addresses_chain_address_idx").on(t.blockchainId, t.receivingAddress)],
);

// ─── Payment links ───────────────────────────────────────────────────────────

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
// ─── Refunds ─────────────────────────────────────────────────────────────────

/**
 * A refund of (part of) an order's money, in the order's asset, to an address the customer gave.
 * The gateway never holds funds: the merchant signs the transfer from the wallet the deposit was
 * swept to (the order's deposit_destination); the scanner matches it on chain (lib/refunds/).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: serial("id").primaryKey(),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    amount: baseUnits("amount").notNull(),
    /** The order's token symbol; tokenAddress null for the native coin. */
    currency: text("currency").notNull(),
    tokenAddress: text("token_address"),
    /** The merchant wallet the refund must come from (the order's deposit_destination). */
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    reason: text("reason"),
    /** requested (built, not seen) | pending (seen on chain) | confirmed | failed (the transfer reverted) */
    status: text("status").notNull(),
    txHash: text("tx_hash"),
    /** ERC-20 log index; -1 for a native transfer. */
    logIndex: integer("log_index"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    confirmedAt: ts("confirmed_at"),
    ...timestamps,
  },
  (t) => [
    index("refunds_order_idx").on(t.paymentOrderId, t.id),
    // The scanner's candidate lookup: open refunds on a chain by recipient.
    index("refunds_open_idx").on(t.blockchainId, t.toAddress).where(sql`status in ('requested', 'pending')`),
    // One on-chain transfer settles at most one refund.
    uniqueIndex("refunds_transfer_key").on(t.blockchainId, t.txHash, t.logIndex).where(sql`tx_hash is not null`),
  ],
);
export type Refund = typeof refunds.$inferSelect;
export type NewRefund = typeof refunds.$inferInsert;

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
    /** payment.pending | payment.confirmed | payment.failed | payment.expired | payment.reorged | refund.created | refund.confirmed */
    type: text("type").notNull(),
    /** 1, 2, 3… per order, in the order the transitions happened: receivers order events by it. */
    sequence: integer("sequence").notNull(),
    /** The order exactly as GET returned it at the moment of the transition. */
    data: jsonb("data").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    index("order_events_merchant_idx").on(t.merchantId, t.createdAt, t.sequence, t.id),
    index("order_events_merchant_type_idx").on(t.merchantId, t.type, t.createdAt, t.sequence, t.id),
    uniqueIndex("order_events_order_sequence_key").on(t.paymentOrderId, t.sequence),
  ],
);
export type OrderEvent = typeof orderEvents.$inferSelect;

/**
 * Account-level security events (issue 13): payout wallet added or changed. Kept for the merchant
 * and announced as `wallet.updated` webhooks to every active endpoint (deliveries with no order event).
 */
export const accountEvents = pgTable(
  "account_events",
  {
    /** `evt_…`; also the webhook body's id */
    id: text("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** wallet.updated */
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    /** Who did it: access_token | session */
    actor: text("actor").notNull(),
    clientIp: text("client_ip"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("account_events_merchant_idx").on(t.merchantId, t.createdAt)],
);
export type AccountEvent = typeof accountEvents.$inferSelect;

/**
 * The audit log (issue 28): every security-relevant change of an account, who made it, from where,
 * and the old and new values where they are safe to keep (never a secret). Append-only: the
 * product has no update or delete path and a trigger (migration) refuses both. No foreign key to
 * merchants on purpose: an account's record outlives the account.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id").notNull(),
    /** e.g. `auth.login_succeeded`, `api_key.created` (lib/audit/actions.ts) */
    action: text("action").notNull(),
    /** access_token | api_key | session | public | system */
    actorKind: text("actor_kind").notNull(),
    /** Who, in words: the username, or the API key's name and prefix. */
    actor: text("actor"),
    /** What the change was about, e.g. `api_key:12`, `wallet:3`, `webhook_endpoint:5`. */
    target: text("target"),
    clientIp: text("client_ip"),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("audit_log_merchant_idx").on(t.merchantId, t.createdAt), index("audit_log_merchant_action_idx").on(t.merchantId, t.action, t.createdAt)],
);
export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;

// ─── Chain scanning, transfers, sweeps ───────────────────────────────────────

/** Where each blockchain's scanner stands; reset when the chain's genesis changes (devnet restart). */
export const chainCursors = pgTable("chain_cursors", {
  blockchainId: integer("blockchain_id").primaryKey(),
  genesisHash: text("genesis_hash").notNull(),
  /** Last block fully scanned. */
  lastBlock: bigint("last_block", { mode: "bigint" }).notNull(),
  lastBlockHash: text("last_block_hash").notNull(),
  updatedAt: ts("updated_at").notNull(),
});
export type ChainCursor = typeof chainCursors.$inferSelect;

/** Every transfer seen to a deposit address: unique by (blockchain, tx hash, log index), so rescans never double-credit. */
export const transactions = pgTable(
  "transactions",
  {
    id: serial("id").primaryKey(),
    blockchainId: integer("blockchain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    /** ERC-20 log index; -1 for a native transfer (top-level or internal). */
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    blockTimestamp: ts("block_timestamp").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    /** null for the native coin */
    tokenAddress: text("token_address"),
    currency: text("currency").notNull(),
    amount: baseUnits("amount").notNull(),
    gasUsed: bigint("gas_used", { mode: "bigint" }),
    gasPrice: baseUnits("gas_price"),
    /** gas used × effective gas price, in the native coin's base units */
    fee: baseUnits("fee"),
    /** pending | confirmed | failed | dropped */
    status: text("status").notNull(),
    paymentOrderId: integer("payment_order_id").references(() => paymentOrders.id, { onDelete: "set null" }),
    merchantId: integer("merchant_id").references(() => merchants.id, { onDelete: "cascade" }),
    /** Whether it counts toward its order (right token, before expiry). */
    counted: boolean("counted").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    // One transaction can pay several deposit addresses by internal calls, all with log index -2.
    uniqueIndex("transactions_chain_tx_log_to_key").on(t.blockchainId, t.txHash, t.logIndex, t.toAddress),
    index("transactions_order_idx").on(t.paymentOrderId),
    index("transactions_merchant_idx").on(t.merchantId, t.createdAt, t.id),
    index("transactions_merchant_status_idx").on(t.merchantId, t.status, t.createdAt, t.id),
    // The list's chain filter, alone and with a status: the page and its bounded count read one range (issue 31).
    index("transactions_merchant_chain_idx").on(t.merchantId, t.blockchainId, t.createdAt, t.id),
    index("transactions_merchant_chain_status_idx").on(t.merchantId, t.blockchainId, t.status, t.createdAt, t.id),
    // The accounting export (lib/dashboard/movements-csv.ts) reads payments in block time order, in keyset batches.
    index("transactions_merchant_block_time_idx").on(t.merchantId, t.blockTimestamp, t.id),
    index("transactions_hash_idx").on(t.txHash),
    // The engine (issue 31): transfers still waiting for confirmations; the recent blocks a reorg
    // re-check compares; live transfers that did not count (late, another asset): never the history.
    index("transactions_unconfirmed_idx").on(t.blockchainId).where(sql`status = 'pending'`),
    index("transactions_chain_block_idx").on(t.blockchainId, t.blockNumber),
    index("transactions_uncounted_idx").on(t.paymentOrderId).where(sql`not counted and status in ('pending', 'confirmed')`),
  ],
);
export type Transaction = typeof transactions.$inferSelect;
export type NewTransaction = typeof transactions.$inferInsert;

/**
 * Deploy-and-flush of a settled order's forwarder to the merchant's wallet: confirmed orders, and
 * failed or expired ones that received money (underpaid, late, wrong asset). Re-armed when money
 * arrives after a sweep.
 */
export const sweeps = pgTable(
  "sweeps",
  {
    id: serial("id").primaryKey(),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    /** pending | submitted | succeeded | failed | skipped (not worth or not safe to sweep: lib/chains/sweep-policy.ts) */
    status: text("status").notNull(),
    txHash: text("tx_hash"),
    /** Where a succeeded sweep's transaction was mined: re-checked for a window after (a reorg re-queues it). */
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: ts("next_attempt_at").notNull(),
    /** Gas of this order's sweep transactions still on chain (its share of each batch: the batch's gas over its deposits). */
    gasUsed: bigint("gas_used", { mode: "bigint" }).notNull().default(sql`0`),
    /** The same in wei (gas share × the transaction's effective gas price). */
    gasCostWei: baseUnits("gas_cost_wei").notNull().default("0"),
    /** The share of the transaction in tx_hash, taken back off the totals if a reorg drops it. */
    lastGasUsed: bigint("last_gas_used", { mode: "bigint" }),
    lastGasCostWei: baseUnits("last_gas_cost_wei"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("sweeps_order_key").on(t.paymentOrderId),
    index("sweeps_due_idx").on(t.status, t.nextAttemptAt),
    // The reorg re-check of recent sweeps (issue 31): the newest blocks of a chain, not every sweep ever made.
    index("sweeps_chain_block_idx").on(t.blockchainId, t.blockNumber).where(sql`status = 'succeeded'`),
  ],
);
export type Sweep = typeof sweeps.$inferSelect;

// ─── Webhooks ────────────────────────────────────────────────────────────────

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Subscribed event types; empty = all. */
    events: text("events").array().notNull(),
    description: text("description"),
    isActive: boolean("is_active").notNull().default(true),
    /** Kept readable: signing needs it. */
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /** Why delivery stopped on its own (e.g. the receiver answered 410 Gone). */
    disabledReason: text("disabled_reason"),
    ...timestamps,
  },
  (t) => [index("webhook_endpoints_merchant_idx").on(t.merchantId)],
);
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    /** `msg_…`: the Standard Webhooks `webhook-id`, the same on every retry. */
    messageId: text("message_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** null for test sends */
    eventId: text("event_id").references(() => orderEvents.id, { onDelete: "cascade" }),
    /** null for deliveries to an order's webhook_url */
    endpointId: integer("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    url: text("url").notNull(),
    /** The exact bytes sent and signed, identical across retries. */
    body: text("body").notNull(),
    /** pending | succeeded | failed */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    completedAt: ts("completed_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("webhook_deliveries_message_key").on(t.messageId),
    // The outbox claim (issue 31): only deliveries still to make are in it, so claiming costs the
    // same beside ten million delivered rows as beside none.
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt, t.id).where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_endpoint_status_idx").on(t.endpointId, t.status, t.createdAt, t.id),
    index("webhook_deliveries_event_idx").on(t.eventId),
    // Retention (lib/retention): delivered payloads past the retention period, oldest first.
    index("webhook_deliveries_completed_idx").on(t.completedAt).where(sql`status = 'succeeded'`),
  ],
);
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: ts("attempted_at").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    requestHeaders: jsonb("request_headers").notNull(),
    /** First 2 KiB of the response body. */
    responseBody: text("response_body"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

/** What the sandbox capture URL received. */
export const sandboxInboxMessages = pgTable(
  "sandbox_inbox_messages",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    receivedAt: ts("received_at").notNull(),
    method: text("method").notNull(),
    headers: jsonb("headers").notNull(),
    body: text("body").notNull(),
    /** Result of checking both signatures against the merchant's secrets. */
    signatureValid: boolean("signature_valid"),
    signatureDetails: jsonb("signature_details"),
  },
  (t) => [index("sandbox_inbox_merchant_idx").on(t.merchantId, t.receivedAt)],
);
export type SandboxInboxMessage = typeof sandboxInboxMessages.$inferSelect;

/**
 * Every transaction the gateway signs with its own key on a live network (lib/chains/tx-sender.ts),
 * recorded before it is broadcast: the nonces in flight survive a restart, a stuck one is replaced
 * (same nonce, higher fee: one more row) and exactly one of a nonce's rows ends `mined`. Keyed by
 * the EVM chain id, not the catalog's blockchain id: sandbox slugs sharing one devnet share nonces.
 */
export const sentTransactions = pgTable(
  "sent_transactions",
  {
    id: serial("id").primaryKey(),
    chainId: integer("chain_id").notNull(),
    /** Lower-case sending address. */
    sender: text("sender").notNull(),
    nonce: bigint("nonce", { mode: "bigint" }).notNull(),
    hash: text("hash").notNull(),
    /** What the transaction does ("sweep") and the id of that record (the sweep's id; a batch of sweeps: its lowest sweep id). */
    purpose: text("purpose").notNull(),
    purposeId: integer("purpose_id").notNull(),
    maxFeePerGas: baseUnits("max_fee_per_gas").notNull(),
    maxPriorityFeePerGas: baseUnits("max_priority_fee_per_gas").notNull(),
    /** The signed transaction, broadcast again when a node forgot it. */
    raw: text("raw").notNull(),
    /** in_flight | mined | replaced (another of its nonce was mined) | superseded (its nonce was used by a transaction not on record) | rejected (the node refused it) */
    status: text("status").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    /**
     * When a mined one's receipt was handed to its purpose's caller. Another call may settle it first
     * (it settles every nonce of the sender): until reported, the purpose's next call is answered
     * with it instead of sending again.
     */
    reportedAt: ts("reported_at"),
    sentAt: ts("sent_at").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("sent_transactions_hash_key").on(t.hash), index("sent_transactions_sender_idx").on(t.chainId, t.sender, t.status)],
);
export type SentTransaction = typeof sentTransactions.$inferSelect;

// ─── Gasless payments (EIP-3009 relays) ──────────────────────────────────────

/**
 * A customer's signed EIP-3009 transferWithAuthorization the gateway relays (pays the gas of) to an
 * order's deposit address. One row per accepted authorization: the (chain, token, signer, nonce)
 * key refuses a replay before anything is sent; the chain's authorizationState refuses it again.
 */
export const gaslessRelays = pgTable(
  "gasless_relays",
  {
    id: serial("id").primaryKey(),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    /** Lower-case token contract and signer (`from`). */
    tokenAddress: text("token_address").notNull(),
    fromAddress: text("from_address").notNull(),
    /** The authorization's bytes32 nonce, lower-case hex. */
    authorizationNonce: text("authorization_nonce").notNull(),
    value: baseUnits("value").notNull(),
    /** sending | mined | reverted (mined, but the token refused the authorization). One never sent is deleted. */
    status: text("status").notNull(),
    /** Counted against the merchant's and the global hourly relay budgets until the receipt gives gasUsed. */
    gasLimit: bigint("gas_limit", { mode: "bigint" }).notNull(),
    txHash: text("tx_hash"),
    gasUsed: bigint("gas_used", { mode: "bigint" }),
    /** Wei per gas actually paid, and gasUsed × that: the relayer's cost in the chain's native coin. */
    effectiveGasPrice: baseUnits("effective_gas_price"),
    costWei: baseUnits("cost_wei"),
    lastError: text("last_error"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("gasless_relays_authorization_key").on(t.blockchainId, t.tokenAddress, t.fromAddress, t.authorizationNonce),
    index("gasless_relays_order_idx").on(t.paymentOrderId),
    index("gasless_relays_merchant_idx").on(t.merchantId, t.createdAt),
    // The global hourly budget (all merchants) and its gauge read the last hour of every merchant's relays.
    index("gasless_relays_created_idx").on(t.createdAt),
  ],
);
export type GaslessRelay = typeof gaslessRelays.$inferSelect;
