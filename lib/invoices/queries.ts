import { and, count, desc, eq, inArray, isNull, lte, max, sql } from "drizzle-orm";
import { invoicePayments, invoiceSettings, invoices, merchants, paymentOrders, type Invoice, type NewInvoice } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

// ─── settings ───

export async function findInvoiceSettings(db: DbOrTx, merchantId: number) {
  const [row] = await db.select().from(invoiceSettings).where(eq(invoiceSettings.merchantId, merchantId)).limit(1);
  return row ?? null;
}

export async function upsertInvoiceSettings(db: DbOrTx, values: typeof invoiceSettings.$inferInsert) {
  const changes = {
    numberFormat: values.numberFormat,
    allowPartialPayments: values.allowPartialPayments,
    reminderDaysBefore: values.reminderDaysBefore,
    reminderDaysAfter: values.reminderDaysAfter,
    updatedAt: values.updatedAt,
  };
  const [row] = await db.insert(invoiceSettings).values(values).onConflictDoUpdate({ target: invoiceSettings.merchantId, set: changes }).returning();
  return row!;
}

// ─── invoices ───

/** The store's highest invoice sequence so far (0 for none); call under the store's numbering lock. */
export async function maxInvoiceSequence(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db
    .select({ value: max(invoices.sequence) })
    .from(invoices)
    .where(eq(invoices.merchantId, merchantId));
  return row?.value ?? 0;
}

export async function insertInvoice(db: DbOrTx, values: NewInvoice): Promise<Invoice> {
  const [row] = await db.insert(invoices).values(values).returning();
  return row!;
}

export async function findMerchantInvoice(db: DbOrTx, merchantId: number, invoiceId: string): Promise<Invoice | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.invoiceId, invoiceId)))
    .limit(1);
  return row ?? null;
}

export async function listMerchantInvoices(db: DbOrTx, merchantId: number, status: string | undefined, window: { limit: number; offset: number }) {
  const where = status ? and(eq(invoices.merchantId, merchantId), eq(invoices.status, status)) : eq(invoices.merchantId, merchantId);
  const [rows, [total]] = await Promise.all([
    db.select().from(invoices).where(where).orderBy(desc(invoices.sequence)).limit(window.limit).offset(window.offset),
    db.select({ value: count() }).from(invoices).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

/** Updates the store's invoice if it is in one of `fromStatuses` (given); null when it is not (or not the store's). */
export async function updateMerchantInvoice(
  db: DbOrTx,
  merchantId: number,
  invoiceId: string,
  fromStatuses: readonly string[],
  values: Partial<NewInvoice>,
): Promise<Invoice | null> {
  const [row] = await db
    .update(invoices)
    .set(values)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.invoiceId, invoiceId), inArray(invoices.status, [...fromStatuses])))
    .returning();
  return row ?? null;
}

/** An invoice that was sent (never a draft), with its store's name: the hosted page. */
export async function findSentInvoice(db: DbOrTx, invoiceId: string): Promise<{ invoice: Invoice; shopName: string } | null> {
  const [row] = await db
    .select({ invoice: invoices, shopName: merchants.shopName })
    .from(invoices)
    .innerJoin(merchants, eq(merchants.id, invoices.merchantId))
    .where(and(eq(invoices.invoiceId, invoiceId), sql`${invoices.status} <> 'draft'`))
    .limit(1);
  return row ?? null;
}

/** Open invoices (sent, partially paid, overdue) of every store: reminders and overdue marking. */
export async function findOpenInvoices(db: DbOrTx, dueBefore: Date, limit: number): Promise<Invoice[]> {
  return db
    .select()
    .from(invoices)
    .where(and(inArray(invoices.status, ["sent", "partially_paid", "overdue"]), lte(invoices.dueAt, dueBefore)))
    .orderBy(invoices.dueAt)
    .limit(limit);
}

// ─── payments ───

export async function insertInvoicePayment(db: DbOrTx, values: typeof invoicePayments.$inferInsert) {
  await db.insert(invoicePayments).values(values);
}

/** Payments whose order confirmed and that were not yet added to their invoice. */
export async function findConfirmedUncreditedPayments(db: DbOrTx, limit: number) {
  return db
    .select({ payment: invoicePayments, orderId: paymentOrders.orderId, confirmedAt: paymentOrders.confirmedAt })
    .from(invoicePayments)
    .innerJoin(paymentOrders, eq(paymentOrders.id, invoicePayments.paymentOrderId))
    .where(and(isNull(invoicePayments.creditedAt), eq(paymentOrders.status, "confirmed")))
    .orderBy(invoicePayments.id)
    .limit(limit);
}

/** Marks a payment credited; false when another run did it first. */
export async function markPaymentCredited(db: DbOrTx, paymentId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(invoicePayments)
    .set({ creditedAt: now })
    .where(and(eq(invoicePayments.id, paymentId), isNull(invoicePayments.creditedAt)))
    .returning({ id: invoicePayments.id });
  return rows.length > 0;
}

export async function findInvoiceByRowId(db: DbOrTx, id: number): Promise<Invoice | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).for("update").limit(1);
  return row ?? null;
}

/** Records the client's language from the invoice page, unless the store set one (or an earlier payment recorded it). */
export async function setInvoiceLocaleIfUnset(db: DbOrTx, id: number, locale: string): Promise<void> {
  await db
    .update(invoices)
    .set({ locale })
    .where(and(eq(invoices.id, id), isNull(invoices.locale)));
}

export async function updateInvoiceRow(db: DbOrTx, id: number, values: Partial<NewInvoice>): Promise<Invoice> {
  const [row] = await db.update(invoices).set(values).where(eq(invoices.id, id)).returning();
  return row!;
}

/** Orders opened for the invoice that are still pending or processing, with the part each pays. */
export async function findOpenInvoicePayments(db: DbOrTx, invoiceRowId: number) {
  return db
    .select({ amount: invoicePayments.amount, orderId: paymentOrders.orderId, status: paymentOrders.status, expiresAt: paymentOrders.expiresAt })
    .from(invoicePayments)
    .innerJoin(paymentOrders, eq(paymentOrders.id, invoicePayments.paymentOrderId))
    .where(and(eq(invoicePayments.invoiceId, invoiceRowId), inArray(paymentOrders.status, ["pending", "processing"])));
}
