/** Mail (lib/mail): single-use email links and the outbox. */
import { index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { merchants } from "./accounts";

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

/**
 * Addresses a store's customer mail no longer goes to (lib/mail/customer-mail.ts): `unsubscribed`
 * (the List-Unsubscribe link of one store's mail: that store only) or `bounced` (the SMTP server
 * refused the address permanently: `merchantId` null, every store).
 */
export const mailSuppressions = pgTable(
  "mail_suppressions",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id").references(() => merchants.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    email: text("email").notNull(),
    reason: text("reason").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("mail_suppressions_email_idx").on(t.email, t.merchantId)],
);
