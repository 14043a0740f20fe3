import "server-only";
import { settleInvoices } from "@/lib/invoices/settle-invoices";
import { sendDueReceipts } from "@/lib/receipts/receipt-mail";
import { defineTask } from "@/lib/jobs/tasks";
import { sendDueSubscriptionMails } from "@/lib/subscriptions/customer-mail";

/**
 * Invoices (lib/invoices/settle-invoices.ts): confirmed invoice orders count toward their
 * invoices (partially paid, paid), open invoices past due become overdue, and the stores'
 * reminders go out. Exclusive: one instance at a time (each step is also safe to repeat).
 */
export const settleInvoicesTask = defineTask({
  name: "settle-invoices",
  intervalMs: 15_000,
  concurrency: "exclusive",
  async run(db) {
    await settleInvoices(db);
  },
});

/**
 * Receipts by e-mail (lib/receipts): a receipt to the customer of each confirmed order who left an
 * address on the payment page, and a notice for each refund confirmed since; and a subscription's
 * customer mail (lib/subscriptions/customer-mail.ts: the manage link once authorized, a receipt per
 * confirmed charge, past-due and cancel notices). Exclusive (each mail is also claimed before it goes).
 */
export const sendReceiptsTask = defineTask({
  name: "send-receipts",
  intervalMs: 15_000,
  concurrency: "exclusive",
  async run(db) {
    await sendDueReceipts(db);
    await sendDueSubscriptionMails(db);
  },
});
