import { and, count, desc, eq, sql } from "drizzle-orm";
import { merchants, paymentLinks, storeBranding, type NewPaymentLink, type PaymentLink } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function insertLink(db: DbOrTx, link: NewPaymentLink): Promise<PaymentLink> {
  const [row] = await db.insert(paymentLinks).values(link).returning();
  return row!;
}

export async function findMerchantLink(db: DbOrTx, merchantId: number, linkId: string): Promise<PaymentLink | null> {
  const [row] = await db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.merchantId, merchantId), eq(paymentLinks.linkId, linkId)))
    .limit(1);
  return row ?? null;
}

/** An active link by public id, with its shop's name (the public page: the store's display name when its branding sets one). */
export async function findActiveLink(db: DbOrTx, linkId: string): Promise<{ link: PaymentLink; shopName: string } | null> {
  const [row] = await db
    .select({ link: paymentLinks, shopName: sql<string>`coalesce(${storeBranding.displayName}, ${merchants.shopName})` })
    .from(paymentLinks)
    .innerJoin(merchants, eq(merchants.id, paymentLinks.merchantId))
    .leftJoin(storeBranding, eq(storeBranding.merchantId, paymentLinks.merchantId))
    .where(and(eq(paymentLinks.linkId, linkId), eq(paymentLinks.isActive, true)))
    .limit(1);
  return row ?? null;
}

export async function listMerchantLinks(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const where = eq(paymentLinks.merchantId, merchantId);
  const [rows, [total]] = await Promise.all([
    db.select().from(paymentLinks).where(where).orderBy(desc(paymentLinks.createdAt), desc(paymentLinks.id)).limit(window.limit).offset(window.offset),
    db.select({ value: count() }).from(paymentLinks).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

export async function updateMerchantLink(db: DbOrTx, merchantId: number, linkId: string, values: Partial<NewPaymentLink>): Promise<PaymentLink | null> {
  const [row] = await db
    .update(paymentLinks)
    .set(values)
    .where(and(eq(paymentLinks.merchantId, merchantId), eq(paymentLinks.linkId, linkId)))
    .returning();
  return row ?? null;
}

export async function deleteMerchantLink(db: DbOrTx, merchantId: number, linkId: string): Promise<boolean> {
  const rows = await db
    .delete(paymentLinks)
    .where(and(eq(paymentLinks.merchantId, merchantId), eq(paymentLinks.linkId, linkId)))
    .returning({ id: paymentLinks.id });
  return rows.length > 0;
}
