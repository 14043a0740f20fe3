import "server-only";
import { storeLook } from "@/lib/branding/branding";
import type { Invoice } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { customerMailLocale, sendCustomerMail } from "@/lib/mail/customer-mail";
import { invoicePaidMail, invoiceReminderMail } from "@/lib/mail/customer-templates";
import { fromUnits, toUnits } from "./amounts";
import { recordInvoiceEvent } from "./invoice-events";
import { currencyPlaces, getInvoiceSettings } from "./invoices";
import { findConfirmedUncreditedPayments, findInvoiceByRowId, findOpenInvoices, markPaymentCredited, updateInvoiceRow } from "./queries";
import { mailFacts } from "./send-invoice";

const dayMs = 24 * 60 * 60 * 1000;
/** Rows one pass handles of each kind; the next pass takes the rest. */
const batch = 200;
/** The furthest ahead a reminder may fall (reminder_days_before is at most 60). */
const reminderHorizonMs = 61 * dayMs;

export interface SettleResult {
  credited: number;
  paid: string[];
  overdue: string[];
  reminders: string[];
}

/** What an open invoice is once `paid` of its total has arrived, at `now`. */
function openStatus(invoice: Invoice, paid: bigint, total: bigint, now: Date): Invoice["status"] {
  if (paid >= total) return "paid";
  if (invoice.dueAt.getTime() <= now.getTime()) return "overdue";
  return paid > 0n ? "partially_paid" : "sent";
}

/**
 * Adds each confirmed invoice order's part to its invoice, once (the payment row is marked in the
 * same transaction): the invoice becomes partially paid, or paid (invoice.paid, and a receipt to
 * the client). A void invoice keeps its state (the store refunds what arrived).
 */
async function creditConfirmedPayments(db: Db, now: Date, result: SettleResult): Promise<void> {
  const payments = await findConfirmedUncreditedPayments(db, batch);
  for (const { payment } of payments) {
    const paidNow = await db.transaction(async (tx) => {
      const invoice = await findInvoiceByRowId(tx, payment.invoiceId);
      if (!invoice || !(await markPaymentCredited(tx, payment.id, now))) return null;
      const places = currencyPlaces(invoice.currency, invoice.acceptedMethods);
      const paid = toUnits(invoice.amountPaid, places) + toUnits(payment.amount, places);
      const status = invoice.status === "void" ? "void" : openStatus(invoice, paid, toUnits(invoice.total, places), now);
      const updated = await updateInvoiceRow(tx, invoice.id, {
        amountPaid: fromUnits(paid, places),
        status,
        paidAt: status === "paid" ? now : invoice.paidAt,
        updatedAt: now,
      });
      result.credited++;
      if (status !== "paid" || invoice.status === "paid") return null;
      await recordInvoiceEvent(tx, updated, "invoice.paid", "system", now);
      return updated;
    });
    if (paidNow) {
      result.paid.push(paidNow.invoiceId);
      const look = await storeLook(db, paidNow.merchantId);
      if (look) {
        const locale = await customerMailLocale(db, paidNow.merchantId, paidNow.locale);
        const content = invoicePaidMail(look.name, { ...mailFacts(paidNow), total: paidNow.total }, locale);
        await sendCustomerMail(
          db,
          {
            merchantId: paidNow.merchantId,
            kind: "invoice_paid",
            to: paidNow.client.email,
            content,
            locale,
            support: { email: look.supportEmail, url: look.supportUrl },
          },
          now,
        );
      }
    }
  }
}

/** The reminders of the store's schedule that are due for `invoice` at `now` and were not sent: keys like before:3, after:7. */
function dueReminders(invoice: Invoice, schedule: { before: number[]; after: number[] }, now: Date): string[] {
  const due = invoice.dueAt.getTime();
  const t = now.getTime();
  const keys = [
    ...schedule.before.filter((days) => t >= due - days * dayMs && t < due).map((days) => `before:${days}`),
    ...schedule.after.filter((days) => t >= due + days * dayMs).map((days) => `after:${days}`),
  ];
  return keys.filter((key) => !invoice.remindersSent.includes(key));
}

/**
 * Open invoices past their due date become overdue (invoice.overdue); each open invoice gets the
 * reminders its store's schedule has due, one mail per pass however many fell due meanwhile (all
 * of them are marked sent, so a paused gateway does not send a burst).
 */
async function markOverdueAndRemind(db: Db, now: Date, result: SettleResult): Promise<void> {
  const open = await findOpenInvoices(db, new Date(now.getTime() + reminderHorizonMs), batch);
  const looks = new Map<number, Awaited<ReturnType<typeof storeLook>>>();
  for (const invoice of open) {
    const settings = await getInvoiceSettings(db, invoice.merchantId);
    const reminders = dueReminders(invoice, { before: settings.reminder_days_before, after: settings.reminder_days_after }, now);
    const becomesOverdue = invoice.status !== "overdue" && invoice.dueAt.getTime() <= now.getTime();
    if (!becomesOverdue && reminders.length === 0) continue;
    const updated = await db.transaction(async (tx) => {
      const current = await findInvoiceByRowId(tx, invoice.id);
      if (!current || current.status !== invoice.status || current.amountPaid !== invoice.amountPaid) return null; // moved meanwhile: the next pass decides
      const row = await updateInvoiceRow(tx, invoice.id, {
        status: becomesOverdue ? "overdue" : current.status,
        remindersSent: [...current.remindersSent, ...reminders],
        updatedAt: now,
      });
      if (becomesOverdue) await recordInvoiceEvent(tx, row, "invoice.overdue", "system", now);
      return row;
    });
    if (!updated) continue;
    if (becomesOverdue) result.overdue.push(invoice.invoiceId);
    if (reminders.length === 0) continue;
    if (!looks.has(invoice.merchantId)) looks.set(invoice.merchantId, await storeLook(db, invoice.merchantId));
    const look = looks.get(invoice.merchantId);
    const overdue = updated.dueAt.getTime() <= now.getTime();
    const locale = await customerMailLocale(db, invoice.merchantId, updated.locale);
    await sendCustomerMail(
      db,
      {
        merchantId: invoice.merchantId,
        kind: "invoice_reminder",
        to: updated.client.email,
        content: invoiceReminderMail(look?.name ?? "", mailFacts(updated), overdue, locale),
        locale,
        support: { email: look?.supportEmail ?? null, url: look?.supportUrl ?? null },
      },
      now,
    );
    result.reminders.push(invoice.invoiceId);
  }
}

/** One pass of the invoices task (lib/engine/invoice-tasks.ts): credit confirmed payments, then overdue marking and reminders. */
export async function settleInvoices(db: Db, now = new Date()): Promise<SettleResult> {
  const result: SettleResult = { credited: 0, paid: [], overdue: [], reminders: [] };
  await creditConfirmedPayments(db, now, result);
  await markOverdueAndRemind(db, now, result);
  if (result.paid.length || result.overdue.length) await notifyDeliveriesDue();
  return result;
}
