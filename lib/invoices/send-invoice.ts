import "server-only";
import { storeLook } from "@/lib/branding/branding";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import type { Invoice } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { customerMailLocale, sendCustomerMail } from "@/lib/mail/customer-mail";
import { invoiceMail, type InvoiceMailFacts } from "@/lib/mail/customer-templates";
import { isFiatCurrency } from "@/lib/pricing/convert";
import { findActiveWalletChainIds } from "@/lib/wallets/queries";
import { recordInvoiceEvent } from "./invoice-events";
import { amountDue, getInvoiceOrThrow, invoiceUrl, notInState } from "./invoices";
import { updateMerchantInvoice } from "./queries";

export function mailFacts(invoice: Invoice): InvoiceMailFacts {
  return {
    number: invoice.number,
    amountDue: amountDue(invoice),
    currency: invoice.currency,
    fiat: isFiatCurrency(invoice.currency),
    dueAt: invoice.dueAt,
    url: invoiceUrl(invoice.invoiceId),
  };
}

/**
 * Mails an invoice to its client, in the client's language (`locale`, else the store's): a draft becomes sent (announced as invoice.sent); an invoice
 * already sent and still open is mailed again. Every accepted method needs the store's active
 * wallet on its chain (the client could not pay otherwise).
 */
export async function sendInvoice(db: Db, merchantId: number, invoiceId: string, now = new Date()): Promise<Invoice> {
  const current = await getInvoiceOrThrow(db, merchantId, invoiceId);
  const walletChains = await findActiveWalletChainIds(db, merchantId);
  for (const [i, method] of current.acceptedMethods.entries()) {
    if (!walletChains.has(findBlockchainBySlug(method.blockchain)?.id ?? -1)) {
      throw new ApiError(
        "WALLET_NOT_CONFIGURED",
        `accepted_methods[${i}]: no active wallet is configured for ${method.blockchain}; add one, or leave ${method.currency} on ${method.blockchain} out.`,
      );
    }
  }
  const look = await storeLook(db, merchantId);
  if (!look) throw notFound("Invoice");
  let invoice: Invoice;
  if (current.status === "draft") {
    const sent = await db.transaction(async (tx) => {
      const row = await updateMerchantInvoice(tx, merchantId, invoiceId, ["draft"], { status: "sent", sentAt: now, updatedAt: now });
      if (row) await recordInvoiceEvent(tx, row, "invoice.sent", "merchant", now);
      return row;
    });
    if (!sent) throw notInState(await getInvoiceOrThrow(db, merchantId, invoiceId), "sent");
    invoice = sent;
    await notifyDeliveriesDue();
  } else if (["sent", "partially_paid", "overdue"].includes(current.status)) {
    invoice = current;
  } else {
    throw notInState(current, "sent");
  }
  const locale = await customerMailLocale(db, merchantId, invoice.locale);
  await sendCustomerMail(
    db,
    {
      merchantId,
      kind: "invoice",
      to: invoice.client.email,
      content: invoiceMail(look.name, mailFacts(invoice), locale),
      locale,
      support: { email: look.supportEmail, url: look.supportUrl },
    },
    now,
  );
  return invoice;
}

/** Voids an invoice that is not paid: its page says so and takes no more payments (announced as invoice.voided once it had been sent). */
export async function voidInvoice(db: Db, merchantId: number, invoiceId: string, now = new Date()): Promise<Invoice> {
  const current = await getInvoiceOrThrow(db, merchantId, invoiceId);
  const voided = await db.transaction(async (tx) => {
    const row = await updateMerchantInvoice(tx, merchantId, invoiceId, ["draft", "sent", "partially_paid", "overdue"], {
      status: "void",
      voidedAt: now,
      updatedAt: now,
    });
    if (row && current.status !== "draft") await recordInvoiceEvent(tx, row, "invoice.voided", "merchant", now);
    return row;
  });
  if (!voided) throw notInState(current, "voided");
  await notifyDeliveriesDue();
  return voided;
}
