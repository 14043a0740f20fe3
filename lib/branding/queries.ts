import { eq } from "drizzle-orm";
import { merchants, storeBranding } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function findBranding(db: DbOrTx, merchantId: number) {
  const [row] = await db.select().from(storeBranding).where(eq(storeBranding.merchantId, merchantId)).limit(1);
  return row ?? null;
}

/** The store's branding with its shop name (the customer pages and mail). */
export async function findBrandingWithShop(db: DbOrTx, merchantId: number) {
  const [row] = await db
    .select({ shopName: merchants.shopName, branding: storeBranding })
    .from(merchants)
    .leftJoin(storeBranding, eq(storeBranding.merchantId, merchants.id))
    .where(eq(merchants.id, merchantId))
    .limit(1);
  return row ?? null;
}

export async function upsertBranding(db: DbOrTx, values: typeof storeBranding.$inferInsert, set: Partial<typeof storeBranding.$inferInsert>) {
  const [row] = await db.insert(storeBranding).values(values).onConflictDoUpdate({ target: storeBranding.merchantId, set }).returning();
  return row!;
}
