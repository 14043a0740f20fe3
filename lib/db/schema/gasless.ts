/** Gasless payments (lib/gasless): EIP-3009 relays. */
import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, baseUnits } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";
import { subscriptions } from "./subscriptions";

/**
 * A customer's signed EIP-3009 transferWithAuthorization the gateway relays (pays the gas of) to an
 * order's deposit address. One row per accepted authorization: the (chain, token, signer, nonce)
 * key refuses a replay before anything is sent; the chain's authorizationState refuses it again.
 */
export const gaslessRelays = pgTable(
  "gasless_relays",
  {
    id: serial("id").primaryKey(),
    /** The order paid; null for a subscription's permit (`subscriptionId`). */
    paymentOrderId: integer("payment_order_id").references(() => paymentOrders.id, { onDelete: "cascade" }),
    /**
     * A subscription whose permit and pull-contract deploy the gateway relayed (lib/subscriptions/charge.ts
     * submitPermit): counted against the same hourly budgets as payments; null for a payment's relay.
     */
    subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "cascade" }),
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
