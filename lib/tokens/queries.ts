import { and, eq } from "drizzle-orm";
import { merchantDisabledTokens } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function findDisabledTokens(db: DbOrTx, merchantId: number): Promise<{ blockchainId: number; symbol: string }[]> {
  return db
    .select({ blockchainId: merchantDisabledTokens.blockchainId, symbol: merchantDisabledTokens.symbol })
    .from(merchantDisabledTokens)
    .where(eq(merchantDisabledTokens.merchantId, merchantId));
}

/** Whether the store switched this currency off on this chain. */
export async function isTokenDisabled(db: DbOrTx, merchantId: number, blockchainId: number, symbol: string): Promise<boolean> {
  const [row] = await db
    .select({ symbol: merchantDisabledTokens.symbol })
    .from(merchantDisabledTokens)
    .where(
      and(eq(merchantDisabledTokens.merchantId, merchantId), eq(merchantDisabledTokens.blockchainId, blockchainId), eq(merchantDisabledTokens.symbol, symbol)),
    )
    .limit(1);
  return row !== undefined;
}

/** Switches a currency off (true when it was on) or on (true when it was off). */
export async function setTokenDisabled(db: DbOrTx, merchantId: number, blockchainId: number, symbol: string, disabled: boolean, now: Date): Promise<boolean> {
  if (disabled) {
    const rows = await db.insert(merchantDisabledTokens).values({ merchantId, blockchainId, symbol, createdAt: now }).onConflictDoNothing().returning();
    return rows.length > 0;
  }
  const rows = await db
    .delete(merchantDisabledTokens)
    .where(
      and(eq(merchantDisabledTokens.merchantId, merchantId), eq(merchantDisabledTokens.blockchainId, blockchainId), eq(merchantDisabledTokens.symbol, symbol)),
    )
    .returning();
  return rows.length > 0;
}
