import { and, desc, eq, inArray, sql } from "drizzle-orm";
import {
  paymentOrders,
  sanctionedAddresses,
  sanctionsListLoads,
  screeningFlags,
  screeningPolicies,
  type SanctionedAddress,
  type SanctionsListLoad,
  type ScreeningFlag,
} from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import type { ParsedSanctionsList } from "./sdn-list";

const insertChunk = 500;

/** Replaces the whole list with `list` and records the load, in one transaction. */
export async function replaceSanctionsList(db: Db, list: ParsedSanctionsList, now: Date): Promise<SanctionsListLoad> {
  return db.transaction(async (tx) => {
    await tx.delete(sanctionedAddresses);
    for (let i = 0; i < list.addresses.length; i += insertChunk) {
      await tx
        .insert(sanctionedAddresses)
        .values(list.addresses.slice(i, i + insertChunk))
        .onConflictDoNothing();
    }
    const [load] = await tx
      .insert(sanctionsListLoads)
      .values({ source: list.source, publishedOn: list.publishedOn, entries: list.entries, addresses: list.addresses.length, loadedAt: now })
      .returning();
    return load!;
  });
}

/** The list's entries for these addresses (any case). */
export async function findListedAddresses(db: DbOrTx, addresses: string[]): Promise<SanctionedAddress[]> {
  if (addresses.length === 0) return [];
  return db
    .select()
    .from(sanctionedAddresses)
    .where(inArray(sanctionedAddresses.address, [...new Set(addresses.map((a) => a.toLowerCase()))]));
}

export async function findLatestListLoad(db: DbOrTx): Promise<SanctionsListLoad | null> {
  const [row] = await db.select().from(sanctionsListLoads).orderBy(desc(sanctionsListLoads.id)).limit(1);
  return row ?? null;
}

export async function findScreeningPolicy(db: DbOrTx, merchantId: number): Promise<string | null> {
  const [row] = await db.select({ onMatch: screeningPolicies.onMatch }).from(screeningPolicies).where(eq(screeningPolicies.merchantId, merchantId));
  return row?.onMatch ?? null;
}

export async function findScreeningPolicies(db: DbOrTx, merchantIds: number[]): Promise<Map<number, string>> {
  if (merchantIds.length === 0) return new Map();
  const rows = await db.select().from(screeningPolicies).where(inArray(screeningPolicies.merchantId, merchantIds));
  return new Map(rows.map((r) => [r.merchantId, r.onMatch]));
}

export async function upsertScreeningPolicy(db: DbOrTx, merchantId: number, onMatch: string, now: Date): Promise<void> {
  await db
    .insert(screeningPolicies)
    .values({ merchantId, onMatch, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: screeningPolicies.merchantId, set: { onMatch, updatedAt: now } });
}

/** Inserts flags; a transfer already flagged (a rescan) keeps its first flag. Returns the new ones. */
export async function insertScreeningFlags(db: DbOrTx, values: (typeof screeningFlags.$inferInsert)[]): Promise<ScreeningFlag[]> {
  if (values.length === 0) return [];
  return db.insert(screeningFlags).values(values).onConflictDoNothing().returning();
}

/** Of these orders, the ones a flag still holds. */
export async function findHeldOrderIds(db: DbOrTx, orderIds: number[]): Promise<Set<number>> {
  if (orderIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: screeningFlags.paymentOrderId })
    .from(screeningFlags)
    .where(and(inArray(screeningFlags.paymentOrderId, orderIds), eq(screeningFlags.status, "held")));
  return new Set(rows.map((r) => r.id));
}

export async function findOrderFlags(db: DbOrTx, merchantId: number, paymentOrderId: number): Promise<ScreeningFlag[]> {
  return db
    .select()
    .from(screeningFlags)
    .where(and(eq(screeningFlags.merchantId, merchantId), eq(screeningFlags.paymentOrderId, paymentOrderId)))
    .orderBy(screeningFlags.id);
}

/** A store's held payments, newest first, with their order ids. */
export async function listHeldFlags(db: DbOrTx, merchantId: number, limit: number) {
  return db
    .select({
      flag: screeningFlags,
      orderId: paymentOrders.orderId,
      amount: paymentOrders.amount,
      currency: paymentOrders.currency,
      decimals: paymentOrders.decimals,
      orderStatus: paymentOrders.status,
    })
    .from(screeningFlags)
    .innerJoin(paymentOrders, eq(paymentOrders.id, screeningFlags.paymentOrderId))
    .where(and(eq(screeningFlags.merchantId, merchantId), eq(screeningFlags.status, "held")))
    .orderBy(desc(screeningFlags.id))
    .limit(limit);
}

/** Releases an order's held flags of action `hold`; returns the ones released. */
export async function releaseOrderFlags(db: DbOrTx, merchantId: number, paymentOrderId: number, releasedBy: string, now: Date): Promise<ScreeningFlag[]> {
  return db
    .update(screeningFlags)
    .set({ status: "released", releasedBy, releasedAt: now, updatedAt: now })
    .where(
      and(
        eq(screeningFlags.merchantId, merchantId),
        eq(screeningFlags.paymentOrderId, paymentOrderId),
        eq(screeningFlags.status, "held"),
        eq(screeningFlags.action, "hold"),
      ),
    )
    .returning();
}

/** Whether an order is held for a refund (policy `refund`): it may be refunded though not confirmed. */
export async function isHeldForRefund(db: DbOrTx, paymentOrderId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(screeningFlags)
    .where(and(eq(screeningFlags.paymentOrderId, paymentOrderId), eq(screeningFlags.status, "held"), eq(screeningFlags.action, "refund")))
    .limit(1);
  return row !== undefined;
}
