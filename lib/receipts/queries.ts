import { and, eq, isNull, notExists, sql } from "drizzle-orm";
import { paymentOrders, receiptContacts, refundNotices, refunds } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function upsertReceiptContact(db: DbOrTx, values: typeof receiptContacts.$inferInsert) {
  await db
    .insert(receiptContacts)
    .values(values)
    .onConflictDoUpdate({ target: receiptContacts.paymentOrderId, set: { email: values.email } });
}

/** Confirmed orders whose customer left an address and has no receipt yet, with their store's name. */
export async function findReceiptsDue(db: DbOrTx, limit: number) {
  return db
    .select({ contact: receiptContacts, order: paymentOrders })
    .from(receiptContacts)
    .innerJoin(paymentOrders, eq(paymentOrders.id, receiptContacts.paymentOrderId))
    .where(and(isNull(receiptContacts.receiptSentAt), eq(paymentOrders.status, "confirmed")))
    .limit(limit);
}

/** Claims a receipt (false when another run did): at most one per order. */
export async function claimReceipt(db: DbOrTx, paymentOrderId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(receiptContacts)
    .set({ receiptSentAt: now })
    .where(and(eq(receiptContacts.paymentOrderId, paymentOrderId), isNull(receiptContacts.receiptSentAt)))
    .returning({ id: receiptContacts.paymentOrderId });
  return rows.length > 0;
}

/** Confirmed refunds of orders whose customer left an address, not yet told. */
export async function findRefundNoticesDue(db: DbOrTx, limit: number) {
  return db
    .select({ refund: refunds, email: receiptContacts.email, orderId: paymentOrders.orderId, decimals: paymentOrders.decimals })
    .from(refunds)
    .innerJoin(receiptContacts, eq(receiptContacts.paymentOrderId, refunds.paymentOrderId))
    .innerJoin(paymentOrders, eq(paymentOrders.id, refunds.paymentOrderId))
    .where(
      and(
        eq(refunds.status, "confirmed"),
        notExists(
          db
            .select({ one: sql`1` })
            .from(refundNotices)
            .where(eq(refundNotices.refundId, refunds.id)),
        ),
      ),
    )
    .limit(limit);
}

export async function claimRefundNotice(db: DbOrTx, refundId: number, now: Date): Promise<boolean> {
  const rows = await db.insert(refundNotices).values({ refundId, sentAt: now }).onConflictDoNothing().returning({ id: refundNotices.refundId });
  return rows.length > 0;
}
