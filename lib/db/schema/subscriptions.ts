/** Subscription plans, subscriptions and their history (lib/subscriptions). */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { baseUnits, timestamps, ts } from "./columns";
import { merchants } from "./accounts";

export const subscriptionPlans = pgTable(
  "subscription_plans",
  {
    id: serial("id").primaryKey(),
    /** Public id, PLN-…. */
    planId: text("plan_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    blockchainId: integer("blockchain_id").notNull(),
    currency: text("currency").notNull(),
    /** Token-priced plans: the amount per period in token units ("9.99"); null for fiat-priced plans. */
    amount: text("amount"),
    /** Fiat-priced plans: the price per period, converted at each period's rate. */
    priceAmount: text("price_amount"),
    priceCurrency: text("price_currency"),
    /** The most one period may take, in token base units: the cap the customer agrees to. */
    maxAmountPerPeriod: baseUnits("max_amount_per_period").notNull(),
    intervalDays: integer("interval_days").notNull(),
    trialDays: integer("trial_days").notNull().default(0),
    /** Days a failed charge is retried before the subscription is past due. */
    graceDays: integer("grace_days").notNull().default(3),
    /** Days past due before the subscription is canceled. */
    pastDueDays: integer("past_due_days").notNull().default(7),
    /** Periods after which the subscription ends; null for open-ended. */
    periods: integer("periods"),
    /** active | archived: an archived plan takes no new subscribers. */
    status: text("status").notNull().default("active"),
    /**
     * The plan's public subscribe page /subscribe/plan/{plan_id}, where any customer starts their own
     * subscription: off unless the merchant switches it on (a public page creates rows anyone can ask for).
     */
    publicLink: boolean("public_link").notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex("subscription_plans_plan_id_key").on(t.planId), index("subscription_plans_merchant_idx").on(t.merchantId, t.createdAt)],
);
export type SubscriptionPlan = typeof subscriptionPlans.$inferSelect;
export type NewSubscriptionPlan = typeof subscriptionPlans.$inferInsert;

export const subscriptionStatuses = ["trialing", "active", "past_due", "paused", "canceled", "ended"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    /** Public id, SUB-…; its hash is the pull contract's id and CREATE2 salt. */
    subscriptionId: text("subscription_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    planId: integer("plan_id")
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: "restrict" }),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    blockchainId: integer("blockchain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    /** The customer's wallet (the only one debited). */
    subscriberAddress: text("subscriber_address").notNull(),
    /** The merchant's wallet when the customer subscribed (the only one paid). */
    merchantAddress: text("merchant_address").notNull(),
    operatorAddress: text("operator_address").notNull(),
    maxAmountPerPeriod: baseUnits("max_amount_per_period").notNull(),
    periodSeconds: bigint("period_seconds", { mode: "number" }).notNull(),
    /** Start of period 0 (the end of the trial). */
    startsAt: ts("starts_at").notNull(),
    endsAt: ts("ends_at"),
    /** bytes32 hex: the contract's id and CREATE2 salt. */
    termsId: text("terms_id").notNull(),
    pullAddress: text("pull_address").notNull(),
    customerEmail: text("customer_email"),
    /** The customer's language (lib/i18n/locales.ts): set by the store, or recorded from the subscribe page when they authorize; null: the store's. */
    customerLocale: text("customer_locale"),
    /**
     * When the customer's allowance was first seen in place (a permit accepted, an approve checked, or
     * the first charge mined): mail to `customer_email` starts from here (lib/subscriptions/customer-mail.ts).
     */
    authorizedAt: ts("authorized_at"),
    /** The first period index not yet charged (mirrors the contract's nextPeriod). */
    nextPeriod: integer("next_period").notNull().default(0),
    /** Periods charged so far (periods missed while past due or paused are not). */
    periodsCharged: integer("periods_charged").notNull().default(0),
    /** When the engine next looks at it: the next period's start, or a retry. */
    nextAttemptAt: ts("next_attempt_at"),
    /** When the running period's first charge attempt failed (grace runs from here). */
    failingSince: ts("failing_since"),
    canceledAt: ts("canceled_at"),
    cancelReason: text("cancel_reason"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("subscriptions_subscription_id_key").on(t.subscriptionId),
    uniqueIndex("subscriptions_pull_address_key").on(t.blockchainId, t.pullAddress),
    index("subscriptions_merchant_idx").on(t.merchantId, t.createdAt),
    index("subscriptions_due_idx").on(t.nextAttemptAt),
    // The customers to welcome by mail (lib/subscriptions/customer-mail.ts) are found by this.
    index("subscriptions_authorized_idx")
      .on(t.authorizedAt)
      .where(sql`customer_email is not null`),
  ],
);
export type Subscription = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;

/** A subscription's history: each status change and charge, oldest first. */
export const subscriptionEvents = pgTable(
  "subscription_events",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id").notNull(),
    /** created | charged | payment_failed | past_due | canceled | ended | paused | resumed */
    kind: text("kind").notNull(),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    detail: jsonb("detail"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    index("subscription_events_subscription_idx").on(t.subscriptionId, t.id),
    // The notices the customer is mailed (lib/subscriptions/customer-mail.ts) are found by these.
    index("subscription_events_notice_idx")
      .on(t.createdAt)
      .where(sql`kind in ('past_due', 'canceled')`),
  ],
);
export type SubscriptionEvent = typeof subscriptionEvents.$inferSelect;

export const subscriptionChargeStatuses = ["sending", "pending", "confirmed", "failed", "reorged"] as const;
export type SubscriptionChargeStatus = (typeof subscriptionChargeStatuses)[number];

/**
 * One charge of one period: written before its transaction is sent (status `sending`), then the
 * mined transfer (`pending` until the merchant wallet's confirmation threshold, then `confirmed`),
 * `failed` when the mined transaction reverted, `reorged` when its block left the chain and the
 * transaction is nowhere on the new one (the period is charged again while it runs).
 */
export const subscriptionCharges = pgTable(
  "subscription_charges",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id").notNull(),
    blockchainId: integer("blockchain_id").notNull(),
    /** The contract's period index. */
    period: integer("period").notNull(),
    status: text("status").$type<SubscriptionChargeStatus>().notNull(),
    /** Token base units moved (or to be moved). */
    amount: baseUnits("amount").notNull(),
    /** Fiat plans: the price converted, the rate locked for it, the feeds read and when. */
    priceAmount: text("price_amount"),
    priceCurrency: text("price_currency"),
    rate: text("rate"),
    rateSource: jsonb("rate_source"),
    ratedAt: ts("rated_at"),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    gasUsed: bigint("gas_used", { mode: "bigint" }),
    /** Confirmations as last counted, and the merchant wallet's threshold when it was charged. */
    confirmations: integer("confirmations").notNull().default(0),
    confirmationThreshold: integer("confirmation_threshold").notNull(),
    confirmedAt: ts("confirmed_at"),
    reorgedAt: ts("reorged_at"),
    ...timestamps,
  },
  (t) => [
    // One live charge per period; failed and reorged ones stay beside the charge that replaced them.
    uniqueIndex("subscription_charges_period_key")
      .on(t.subscriptionId, t.period)
      .where(sql`status in ('sending', 'pending', 'confirmed')`),
    index("subscription_charges_subscription_idx").on(t.subscriptionId, t.id),
    index("subscription_charges_confirmed_idx")
      .on(t.confirmedAt)
      .where(sql`status = 'confirmed'`),
    index("subscription_charges_open_idx")
      .on(t.blockchainId, t.blockNumber)
      .where(sql`status in ('pending', 'confirmed')`),
  ],
);
export type SubscriptionCharge = typeof subscriptionCharges.$inferSelect;
export type NewSubscriptionCharge = typeof subscriptionCharges.$inferInsert;

export const subscriptionMailKinds = ["authorized", "charge_receipt", "past_due", "canceled"] as const;
export type SubscriptionMailKind = (typeof subscriptionMailKinds)[number];

/**
 * The mail a subscription's customer was sent (lib/subscriptions/customer-mail.ts), one row per
 * thing told: the row is the claim, inserted before the mail goes, so two instances or a run after
 * a restart never send one twice. `sourceId` is what the mail is about: the subscription's row for
 * `authorized`, the charge for `charge_receipt`, the history entry for `past_due` and `canceled`.
 */
export const subscriptionMails = pgTable(
  "subscription_mails",
  {
    id: serial("id").primaryKey(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    merchantId: integer("merchant_id").notNull(),
    kind: text("kind").$type<SubscriptionMailKind>().notNull(),
    sourceId: integer("source_id").notNull(),
    sentAt: ts("sent_at").notNull(),
  },
  (t) => [uniqueIndex("subscription_mails_kind_source_key").on(t.kind, t.sourceId), index("subscription_mails_subscription_idx").on(t.subscriptionId)],
);
