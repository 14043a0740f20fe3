/** Logins and their credentials (lib/auth): the merchants row (a login that is also its own store), tokens, sessions, second factors, API keys. */
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./columns";

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
    /** The dashboard's language this login chose (lib/i18n/locales.ts); null: negotiated per request (cookie, Accept-Language). */
    dashboardLocale: text("dashboard_locale"),
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
    uniqueIndex("second_factors_one_totp_key")
      .on(t.merchantId)
      .where(sql`${t.kind} = 'totp'`),
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
