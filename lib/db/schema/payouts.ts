/** Payouts (lib/payouts): batches of legs a merchant's wallet pays in one transaction. */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps, baseUnits } from "./columns";
import { merchants } from "./accounts";

/**
 * A payout batch: one token on one chain, paid to many addresses by one transaction the merchant's
 * wallet signs through the PayoutDisperser contract (contracts/PayoutDisperser.sol). The gateway
 * never holds the funds; it builds the transaction, asks for approval above the merchant's
 * threshold, and reads the transaction's receipt to settle each leg.
 */
export const payoutBatches = pgTable(
  "payout_batches",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    /** The token symbol; tokenAddress null for the native coin. */
    currency: text("currency").notNull(),
    tokenAddress: text("token_address"),
    decimals: integer("decimals").notNull(),
    /** Fiat the legs were entered in (USD, EUR…), converted at `rate`; null: entered in the token. */
    amountCurrency: text("amount_currency"),
    /** Fiat per whole token, locked when the legs were last saved; null when no feed prices the token. */
    rate: text("rate"),
    /** The whole batch in USD at the token/USD feed, when the chain has one (approval threshold, export). */
    usdValue: text("usd_value"),
    rateSource: jsonb("rate_source"),
    rateLockedAt: ts("rate_locked_at"),
    totalAmount: baseUnits("total_amount").notNull(),
    legCount: integer("leg_count").notNull(),
    note: text("note"),
    /** draft | approved | sent | confirmed | failed | cancelled */
    status: text("status").notNull(),
    approvalRequired: boolean("approval_required").notNull().default(false),
    /** Who made it and who approved it: the audit actor label, and the approver's login. */
    createdBy: text("created_by").notNull(),
    createdByUserId: integer("created_by_user_id"),
    approvedBy: text("approved_by"),
    approvedAt: ts("approved_at"),
    /** The batch transaction, once the merchant reported or the gateway saw it. */
    txHash: text("tx_hash"),
    fromAddress: text("from_address"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    sentAt: ts("sent_at"),
    confirmedAt: ts("confirmed_at"),
    ...timestamps,
  },
  (t) => [
    index("payout_batches_merchant_idx").on(t.merchantId, t.id),
    // The engine's pass: batches with a transaction waiting for its receipt or confirmations.
    index("payout_batches_sent_idx")
      .on(t.blockchainId)
      .where(sql`status = 'sent'`),
    uniqueIndex("payout_batches_tx_key")
      .on(t.blockchainId, t.txHash)
      .where(sql`tx_hash is not null`),
  ],
);
export type PayoutBatch = typeof payoutBatches.$inferSelect;
export type NewPayoutBatch = typeof payoutBatches.$inferInsert;

/** One recipient of a batch; `position` is its index in the contract call and its events. */
export const payoutLegs = pgTable(
  "payout_legs",
  {
    id: serial("id").primaryKey(),
    batchId: integer("batch_id")
      .notNull()
      .references(() => payoutBatches.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    toAddress: text("to_address").notNull(),
    amount: baseUnits("amount").notNull(),
    /** The amount as entered in the batch's fiat currency ("25.00"); null when entered in the token. */
    fiatAmount: text("fiat_amount"),
    reference: text("reference"),
    /** The claim link (payout_claims) this leg pays, if any. */
    claimId: text("claim_id"),
    /** pending (not yet settled on chain) | paid (seen, waiting for confirmations) | confirmed | failed */
    status: text("status").notNull(),
    failureReason: text("failure_reason"),
    ...timestamps,
  },
  (t) => [uniqueIndex("payout_legs_batch_position_key").on(t.batchId, t.position), index("payout_legs_merchant_idx").on(t.merchantId, t.id)],
);
export type PayoutLeg = typeof payoutLegs.$inferSelect;
export type NewPayoutLeg = typeof payoutLegs.$inferInsert;

/** A merchant's payout settings: batches worth more than the threshold need a second member's approval. */
export const payoutSettings = pgTable("payout_settings", {
  merchantId: integer("merchant_id")
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  /** In USD; null: no approval needed. */
  approvalThresholdUsd: text("approval_threshold_usd"),
  ...timestamps,
});
export type PayoutSettings = typeof payoutSettings.$inferSelect;

/**
 * A claim link (a pull payment): an amount of a token the merchant owes someone who gives their own
 * address at /api/payout-claims/{id}/claim (public: the id is the link's secret). Claimed once; the
 * merchant's next batch with `include_claims` pays it.
 */
export const payoutClaims = pgTable(
  "payout_claims",
  {
    /** `CLM-…`: the link's only credential. */
    id: text("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    currency: text("currency").notNull(),
    decimals: integer("decimals").notNull(),
    amount: baseUnits("amount").notNull(),
    reference: text("reference"),
    expiresAt: ts("expires_at").notNull(),
    /** open (waiting for an address) | claimed | paid | cancelled */
    status: text("status").notNull(),
    claimAddress: text("claim_address"),
    claimedAt: ts("claimed_at"),
    /** The batch paying it, while one does. */
    batchId: integer("batch_id").references(() => payoutBatches.id, { onDelete: "set null" }),
    paidAt: ts("paid_at"),
    ...timestamps,
  },
  (t) => [
    index("payout_claims_merchant_idx").on(t.merchantId, t.createdAt),
    // The next batch's lookup: claimed, not in a batch, per chain and token.
    index("payout_claims_due_idx")
      .on(t.merchantId, t.blockchainId, t.currency)
      .where(sql`status = 'claimed' and batch_id is null`),
  ],
);
export type PayoutClaim = typeof payoutClaims.$inferSelect;
