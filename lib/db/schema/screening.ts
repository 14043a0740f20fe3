/** Screening of payer and refund addresses against a sanctions list (lib/screening). */
import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";

/**
 * The crypto addresses of the sanctions list the operator loaded last (`npm run admin --
 * screening:load <file>`): one row per address and listed party. Deployment-wide, not per merchant:
 * the list is the same for every store. A load replaces every row in one transaction.
 */
export const sanctionedAddresses = pgTable(
  "sanctioned_addresses",
  {
    /** Lower-case 0x address. */
    address: text("address").notNull(),
    /** The list's own id of the listed party (SDN uid). */
    listedPartyId: text("listed_party_id").notNull(),
    /** The party's name as the list spells it. */
    listedPartyName: text("listed_party_name").notNull(),
    /** The list's currency tag: ETH, USDT, USDC… (the suffix of "Digital Currency Address - ETH"). */
    currency: text("currency").notNull(),
    /** The programs the party is listed under, comma separated (CYBER2, DPRK3…). */
    programs: text("programs").notNull(),
  },
  (t) => [primaryKey({ columns: [t.address, t.listedPartyId, t.currency] })],
);
export type SanctionedAddress = typeof sanctionedAddresses.$inferSelect;

/** Each load of the list: its publish date says how current screening is. */
export const sanctionsListLoads = pgTable("sanctions_list_loads", {
  id: serial("id").primaryKey(),
  /** Which list ("OFAC SDN"). */
  source: text("source").notNull(),
  /** The list's own publish date (YYYY-MM-DD). */
  publishedOn: text("published_on").notNull(),
  entries: integer("entries").notNull(),
  addresses: integer("addresses").notNull(),
  loadedAt: ts("loaded_at").notNull(),
});
export type SanctionsListLoad = typeof sanctionsListLoads.$inferSelect;

/** A store's screening policy; a store without a row holds (lib/screening/policy.ts). */
export const screeningPolicies = pgTable("screening_policies", {
  merchantId: integer("merchant_id")
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  /** record (flag only) | hold (no payment.confirmed until released) | refund (held, never released: refund it) */
  onMatch: text("on_match").notNull(),
  ...timestamps,
});
export type ScreeningPolicy = typeof screeningPolicies.$inferSelect;

/**
 * A payment whose payer matched the list (or the screening provider): what was matched, what the
 * store's policy did, and who released a hold.
 */
export const screeningFlags = pgTable(
  "screening_flags",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    /** The payer (the transfer's sender), checksummed. */
    address: text("address").notNull(),
    /** sanctions_list | provider */
    matchedBy: text("matched_by").notNull(),
    /** What matched: the listed party's name and id, or the provider's answer. */
    reason: text("reason").notNull(),
    /** The policy applied: record | hold | refund */
    action: text("action").notNull(),
    /** held (no confirmation) | released | recorded */
    status: text("status").notNull(),
    /** Who released it (the audit actor label). */
    releasedBy: text("released_by"),
    releasedAt: ts("released_at"),
    ...timestamps,
  },
  (t) => [
    index("screening_flags_order_idx").on(t.paymentOrderId),
    // A transfer is flagged once, however often it is scanned again.
    uniqueIndex("screening_flags_transfer_key").on(t.blockchainId, t.txHash, t.logIndex),
    index("screening_flags_held_idx")
      .on(t.merchantId, t.id)
      .where(sql`status = 'held'`),
  ],
);
export type ScreeningFlag = typeof screeningFlags.$inferSelect;
