import { and, eq, gt, isNull, notExists, sql } from "drizzle-orm";
import { paymentOrders, receiptContacts, refundAddressLinks, refundNotices, refunds } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** The receipt address and its language (the latest page's); `refundContactEmail` given (the payment still due) sets the refund contact too, else it stays as it was. */
export async function upsertReceiptContact(db: DbOrTx, values: typeof receiptContacts.$inferInsert) {
  await db
    .insert(receiptContacts)
    .values(values)
    .onConflictDoUpdate({
      target: receiptContacts.paymentOrderId,
      set: values.refundContactEmail
        ? { email: values.email, refundContactEmail: values.refundContactEmail, locale: values.locale }
        : { email: values.email, locale: values.locale },
    });
}

export async function findReceiptContact(db: DbOrTx, paymentOrderId: number) {
  const [row] = await db.select().from(receiptContacts).where(eq(receiptContacts.paymentOrderId, paymentOrderId)).limit(1);
  return row ?? null;
}

// ─── refund-address links ───

export async function insertRefundAddressLink(db: DbOrTx, values: typeof refundAddressLinks.$inferInsert) {
  await db.insert(refundAddressLinks).values(values);
}

/** Every still-usable link of the order stops working (a new one was mailed). */
export async function spendOrderRefundAddressLinks(db: DbOrTx, paymentOrderId: number, now: Date) {
  await db
    .update(refundAddressLinks)
    .set({ usedAt: now })
    .where(and(eq(refundAddressLinks.paymentOrderId, paymentOrderId), isNull(refundAddressLinks.usedAt)));
}

/** The order's unused, unexpired link with this token hash, or null (read only). */
export async function findUsableRefundAddressLink(db: DbOrTx, paymentOrderId: number, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(refundAddressLinks)
    .where(
      and(
        eq(refundAddressLinks.paymentOrderId, paymentOrderId),
        eq(refundAddressLinks.tokenHash, tokenHash),
        isNull(refundAddressLinks.usedAt),
        gt(refundAddressLinks.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Spends the order's link atomically; null when it is not usable (or someone spent it first). */
export async function spendRefundAddressLink(db: DbOrTx, paymentOrderId: number, tokenHash: string, now: Date) {
  const [row] = await db
    .update(refundAddressLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(refundAddressLinks.paymentOrderId, paymentOrderId),
        eq(refundAddressLinks.tokenHash, tokenHash),
        isNull(refundAddressLinks.usedAt),
        gt(refundAddressLinks.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
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
    .select({ refund: refunds, email: receiptContacts.email, locale: receiptContacts.locale, orderId: paymentOrders.orderId, decimals: paymentOrders.decimals })
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
