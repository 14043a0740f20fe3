import { and, asc, count, eq, inArray } from "drizzle-orm";
import { merchantWallets, type MerchantWallet } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

type NewWallet = typeof merchantWallets.$inferInsert;

export async function insertWallet(db: DbOrTx, values: NewWallet): Promise<MerchantWallet> {
  const [row] = await db.insert(merchantWallets).values(values).returning();
  return row!;
}

export async function findWallet(db: DbOrTx, merchantId: number, id: number): Promise<MerchantWallet | null> {
  const [row] = await db
    .select()
    .from(merchantWallets)
    .where(and(eq(merchantWallets.merchantId, merchantId), eq(merchantWallets.id, id)))
    .limit(1);
  return row ?? null;
}

export async function findWalletForChain(db: DbOrTx, merchantId: number, blockchainId: number): Promise<MerchantWallet | null> {
  const [row] = await db
    .select()
    .from(merchantWallets)
    .where(and(eq(merchantWallets.merchantId, merchantId), eq(merchantWallets.blockchainId, blockchainId)))
    .limit(1);
  return row ?? null;
}

export async function updateWallet(
  db: DbOrTx,
  merchantId: number,
  id: number,
  changes: Partial<Pick<MerchantWallet, "walletAddress" | "confirmationThreshold" | "isActive">> & { updatedAt: Date },
): Promise<MerchantWallet | null> {
  const [row] = await db
    .update(merchantWallets)
    .set(changes)
    .where(and(eq(merchantWallets.merchantId, merchantId), eq(merchantWallets.id, id)))
    .returning();
  return row ?? null;
}

/** One page of a merchant's wallets, in blockchain id order, and their total. */
export async function listWallets(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const where = eq(merchantWallets.merchantId, merchantId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(merchantWallets)
      .where(where)
      .orderBy(asc(merchantWallets.blockchainId), asc(merchantWallets.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(merchantWallets).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

export async function countWallets(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(merchantWallets).where(eq(merchantWallets.merchantId, merchantId));
  return row?.value ?? 0;
}

/** Whether `address` (checksummed) is one of the merchant's payout wallets, on any chain. */
export async function isMerchantWalletAddress(db: DbOrTx, merchantId: number, address: string): Promise<boolean> {
  const [row] = await db
    .select({ id: merchantWallets.id })
    .from(merchantWallets)
    .where(and(eq(merchantWallets.merchantId, merchantId), eq(merchantWallets.walletAddress, address)))
    .limit(1);
  return row !== undefined;
}

/** Of `addresses` (checksummed), those that are the merchant's payout wallets, on any chain. */
export async function merchantWalletAddressesAmong(db: DbOrTx, merchantId: number, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .select({ address: merchantWallets.walletAddress })
    .from(merchantWallets)
    .where(and(eq(merchantWallets.merchantId, merchantId), inArray(merchantWallets.walletAddress, addresses)));
  return new Set(rows.map((row) => row.address));
}

/** The blockchain ids the merchant has an active payout wallet on. */
export async function findActiveWalletChainIds(db: DbOrTx, merchantId: number): Promise<Set<number>> {
  const rows = await db
    .select({ blockchainId: merchantWallets.blockchainId })
    .from(merchantWallets)
    .where(and(eq(merchantWallets.merchantId, merchantId), eq(merchantWallets.isActive, true)));
  return new Set(rows.map((row) => row.blockchainId));
}
