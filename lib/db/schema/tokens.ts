/** Which of the catalog's currencies a store takes, per chain (lib/tokens). */
import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { merchants } from "./accounts";

/**
 * A currency a store switched off on a chain: orders, accepted methods and payment links in it are
 * refused. No row: the catalog's currency is on. Keyed by symbol, so the switch survives a catalog
 * address change (a sandbox devnet redeployed).
 */
export const merchantDisabledTokens = pgTable(
  "merchant_disabled_tokens",
  {
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    blockchainId: integer("blockchain_id").notNull(),
    /** The catalog symbol (USDC, USDT, ETH…). */
    symbol: text("symbol").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.blockchainId, t.symbol] })],
);
export type MerchantDisabledToken = typeof merchantDisabledTokens.$inferSelect;
