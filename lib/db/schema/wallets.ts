/** Merchants' payout wallets (lib/wallets). */
import { boolean, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { merchants } from "./accounts";

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
