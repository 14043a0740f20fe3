import { and, asc, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { sandboxInboxMessages, webhookDeliveries, type SandboxInboxMessage } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { dueRows } from "./deliveries";

type NewInboxMessage = typeof sandboxInboxMessages.$inferInsert;
interface Window {
  limit: number;
  offset: number;
}

export async function insertInboxMessage(db: DbOrTx, values: NewInboxMessage): Promise<SandboxInboxMessage> {
  const [row] = await db.insert(sandboxInboxMessages).values(values).returning();
  return row!;
}

/** Keeps only the newest `keep` messages of a merchant's inbox. */
export async function pruneInbox(db: DbOrTx, merchantId: number, keep: number): Promise<void> {
  const newest = db
    .select({ id: sandboxInboxMessages.id })
    .from(sandboxInboxMessages)
    .where(eq(sandboxInboxMessages.merchantId, merchantId))
    .orderBy(desc(sandboxInboxMessages.id))
    .limit(keep);
  await db.delete(sandboxInboxMessages).where(and(eq(sandboxInboxMessages.merchantId, merchantId), sql`${sandboxInboxMessages.id} not in ${newest}`));
}

export async function listInboxMessages(db: DbOrTx, merchantId: number, window: Window) {
  const where = eq(sandboxInboxMessages.merchantId, merchantId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(sandboxInboxMessages)
      .where(where)
      .orderBy(desc(sandboxInboxMessages.receivedAt), desc(sandboxInboxMessages.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(sandboxInboxMessages).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

/** When the next pending delivery falls due (null: none pending), so an idle delivery loop can sleep until then. */
export async function nextDeliveryDueAt(db: DbOrTx): Promise<Date | null> {
  const [row] = await db
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(and(dueRows, isNotNull(webhookDeliveries.nextAttemptAt)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(1);
  return row?.at ?? null;
}
