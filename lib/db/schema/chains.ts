/** What the chain engine keeps (lib/chains): scan cursors, detected transfers, sweeps, the transactions the gateway signs. */
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps, baseUnits } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";
import { subscriptionCharges } from "./subscriptions";

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

/**
 * What the scanner read and checked (receipt, second provider) in the blocks it recorded with its
 * cursor, waiting for the engine to attribute it to orders and refunds
 * (lib/engine/attribute-transfers.ts), which deletes each row as it records what it means. Rows
 * exist only between the two stages: a retry of the attribution reads them again, never the chain.
 */
export const scannedTransfers = pgTable(
  "scanned_transfers",
  {
    blockchainId: integer("blockchain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    /** ERC-20 log index; -1 for a top-level native transfer. */
    logIndex: integer("log_index").notNull(),
    toAddress: text("to_address").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    blockTimestamp: ts("block_timestamp").notNull(),
    fromAddress: text("from_address").notNull(),
    /** null for the native coin */
    tokenAddress: text("token_address"),
    amount: baseUnits("amount").notNull(),
    gasUsed: bigint("gas_used", { mode: "bigint" }).notNull(),
    gasPrice: baseUnits("gas_price").notNull(),
    /** The receipt says the transaction reverted: nothing moved. */
    reverted: boolean("reverted").notNull(),
    scannedAt: ts("scanned_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockchainId, t.txHash, t.logIndex, t.toAddress] }),
    index("scanned_transfers_chain_block_idx").on(t.blockchainId, t.blockNumber, t.logIndex),
  ],
);
export type ScannedTransfer = typeof scannedTransfers.$inferSelect;
export type NewScannedTransfer = typeof scannedTransfers.$inferInsert;

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
    /**
     * A subscription's charge (lib/subscriptions/charge-transfer.ts): the pull contract's transfer from
     * the customer's wallet to the merchant's, booked here like a payment; null for every other transfer.
     */
    subscriptionChargeId: integer("subscription_charge_id").references(() => subscriptionCharges.id, { onDelete: "set null" }),
    /** Whether it counts toward its order (right token, before expiry); a subscription charge always counts. */
    counted: boolean("counted").notNull().default(false),
    /**
     * The price recorded when the transfer was detected (lib/transactions/record-prices.ts): US dollars
     * per whole unit of its token or coin, and of the chain's native coin (its gas), 8 decimals, with
     * the feed answers they came from. null while not priced yet, or when the chain has no such feed.
     */
    usdRate: text("usd_rate"),
    nativeUsdRate: text("native_usd_rate"),
    /** lib/pricing/lock-price.ts RateSource[]: the feeds read. */
    usdRateSource: jsonb("usd_rate_source"),
    /** When the price was read; null: not priced yet (the next lifecycle pass of its chain prices it). */
    pricedAt: ts("priced_at"),
    ...timestamps,
  },
  (t) => [
    // One transaction can pay several deposit addresses by internal calls, all with log index -2.
    uniqueIndex("transactions_chain_tx_log_to_key").on(t.blockchainId, t.txHash, t.logIndex, t.toAddress),
    index("transactions_order_idx").on(t.paymentOrderId),
    uniqueIndex("transactions_subscription_charge_key")
      .on(t.subscriptionChargeId)
      .where(sql`subscription_charge_id is not null`),
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
    index("transactions_unconfirmed_idx")
      .on(t.blockchainId)
      .where(sql`status = 'pending'`),
    index("transactions_chain_block_idx").on(t.blockchainId, t.blockNumber),
    // Transfers not priced yet (lib/transactions/record-prices.ts): the newest few, never the history.
    index("transactions_unpriced_idx")
      .on(t.blockchainId, t.id)
      .where(sql`priced_at is null`),
    index("transactions_uncounted_idx")
      .on(t.paymentOrderId)
      .where(sql`not counted and status in ('pending', 'confirmed')`),
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
    gasUsed: bigint("gas_used", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
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
    index("sweeps_chain_block_idx")
      .on(t.blockchainId, t.blockNumber)
      .where(sql`status = 'succeeded'`),
  ],
);
export type Sweep = typeof sweeps.$inferSelect;

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
