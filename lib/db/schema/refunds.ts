/** Refunds (lib/refunds). */
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps, baseUnits } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";

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
    index("refunds_open_idx")
      .on(t.blockchainId, t.toAddress)
      .where(sql`status in ('requested', 'pending')`),
    // One on-chain transfer settles at most one refund.
    uniqueIndex("refunds_transfer_key")
      .on(t.blockchainId, t.txHash, t.logIndex)
      .where(sql`tx_hash is not null`),
  ],
);
export type Refund = typeof refunds.$inferSelect;
export type NewRefund = typeof refunds.$inferInsert;
