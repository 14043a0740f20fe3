import "server-only";
import { and, count, desc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import { auditLog, type NewAuditEntry } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import type { AuditFilter } from "./schemas";

export async function insertAuditEntry(db: DbOrTx, entry: NewAuditEntry): Promise<void> {
  await db.insert(auditLog).values(entry);
}

function filterOf(merchantId: number, filter: AuditFilter, beforeId?: number): SQL | undefined {
  return and(
    eq(auditLog.merchantId, merchantId),
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.createdAt, filter.from) : undefined,
    filter.to ? lt(auditLog.createdAt, filter.to) : undefined,
    beforeId !== undefined ? lt(auditLog.id, beforeId) : undefined,
  );
}

/** Newest first. */
export async function listAuditEntries(db: DbOrTx, merchantId: number, filter: AuditFilter, window: { limit: number; offset: number }) {
  const where = filterOf(merchantId, filter);
  const [rows, [total]] = await Promise.all([
    db.select().from(auditLog).where(where).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(window.limit).offset(window.offset),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** One batch of the CSV export, newest first, keyed on the id so a long export never skips or repeats a row. */
export async function auditExportBatch(db: DbOrTx, merchantId: number, filter: AuditFilter, beforeId: number | undefined, limit: number) {
  return db
    .select()
    .from(auditLog)
    .where(filterOf(merchantId, filter, beforeId))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

/** Entries of one merchant and action up to a moment (tests and the sessions page). */
export async function countAuditEntries(db: DbOrTx, merchantId: number, action: string, until: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), eq(auditLog.action, action), lte(auditLog.createdAt, until)));
  return row?.n ?? 0;
}
