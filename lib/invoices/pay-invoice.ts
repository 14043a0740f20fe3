import "server-only";
import { randomInt } from "node:crypto";
import { publicBrand, storeLook } from "@/lib/branding/branding";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import type { Invoice } from "@/lib/db/schema";
import { lockForTransaction } from "@/lib/db/transaction-locks";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { createOrder } from "@/lib/orders/create-order";
import { paymentUrl } from "@/lib/orders/serialize";
import { isFiatCurrency } from "@/lib/pricing/convert";
import { rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { findActiveWalletChainIds } from "@/lib/wallets/queries";
import { fromUnits, toUnits } from "./amounts";
import { amountDue, currencyPlaces, getInvoiceSettings, invoiceUrl, notInState, serializeInvoice } from "./invoices";
import { findOpenInvoicePayments, findSentInvoice, insertInvoicePayment, setInvoiceLocaleIfUnset } from "./queries";
import type { InvoiceOrderBody } from "./schemas";

/** Orders of one invoice that may be open at once: enough for a few tries, not a flood of deposit addresses. */
export const maxOpenInvoiceOrders = 10;

const payable = new Set(["sent", "partially_paid", "overdue"]);

async function getSentInvoiceOrThrow(db: DbOrTx, invoiceId: string) {
  const found = await findSentInvoice(db, invoiceId);
  if (!found) throw notFound("Invoice");
  return found;
}

/** What the hosted invoice page shows: the invoice, its store, and the methods the store still has an active wallet for. */
export async function getPublicInvoiceView(db: DbOrTx, invoiceId: string) {
  const { invoice, shopName } = await getSentInvoiceOrThrow(db, invoiceId);
  const [walletChains, settings, look] = await Promise.all([
    findActiveWalletChainIds(db, invoice.merchantId),
    getInvoiceSettings(db, invoice.merchantId),
    storeLook(db, invoice.merchantId),
  ]);
  const view = serializeInvoice(invoice);
  for (const internal of ["sent_at", "voided_at", "created_at", "updated_at"] as const) delete (view as Partial<typeof view>)[internal];
  return {
    ...view,
    accepted_methods: view.accepted_methods.filter((m) => walletChains.has(findBlockchainBySlug(m.blockchain)?.id ?? -1)),
    shop_name: look?.name ?? shopName,
    allow_partial_payments: settings.allow_partial_payments,
    brand: publicBrand(look),
  };
}

/** The part this order pays: all that is due, or (where the store allows it) a part of it within the currency's precision. */
function orderPart(invoice: Invoice, requested: string | undefined, allowPartial: boolean): string {
  const due = amountDue(invoice);
  if (requested === undefined) return due;
  const places = currencyPlaces(invoice.currency, invoice.acceptedMethods);
  if ((requested.split(".")[1] ?? "").replace(/0+$/, "").length > places)
    throw validationError({ amount: [`At most ${places} decimal places in ${invoice.currency}.`] });
  const part = toUnits(requested, places);
  const dueUnits = toUnits(due, places);
  if (part <= 0n) throw validationError({ amount: ["Must be greater than zero."] });
  if (part > dueUnits) throw validationError({ amount: [`At most what is due: ${due} ${invoice.currency}.`] });
  if (part < dueUnits && !allowPartial) throw validationError({ amount: [`${invoice.number} is paid in one payment of ${due} ${invoice.currency}.`] });
  return fromUnits(part, places);
}

/**
 * A fresh order paying all or part of an invoice in one of its methods: priced in the invoice's
 * fiat currency (converted at the rate of now) or in its token, with a nonce the gateway picks and
 * order_info naming the invoice; the part is recorded with the order, and counts toward the
 * invoice once the order confirms (lib/invoices/settle-invoices.ts). At most
 * `maxOpenInvoiceOrders` of one invoice's orders may be pending at once (checked under a lock per
 * invoice, in the insert's transaction).
 */
export async function createInvoiceOrder(db: DbOrTx, invoiceId: string, input: InvoiceOrderBody, now = new Date()) {
  const { invoice } = await getSentInvoiceOrThrow(db, invoiceId);
  if (!payable.has(invoice.status)) throw notInState(invoice, "paid again");
  const method = invoice.acceptedMethods.find(
    (m) => m.blockchain === input.blockchain.toLowerCase() && m.currency.toLowerCase() === input.currency.toLowerCase(),
  );
  if (!method)
    throw validationError({
      currency: [`Not accepted for this invoice; choose one of ${invoice.acceptedMethods.map((m) => `${m.currency} on ${m.blockchain}`).join(", ")}.`],
    });
  // The client's language, as their invoice page is shown, for the invoice's further mail (the receipt, reminders): unless the store set one.
  if (input.locale && !invoice.locale) await setInvoiceLocaleIfUnset(db, invoice.id, input.locale);
  const settings = await getInvoiceSettings(db, invoice.merchantId);
  const part = orderPart(invoice, input.amount, settings.allow_partial_payments);
  const price = isFiatCurrency(invoice.currency) ? { price_amount: part, price_currency: invoice.currency } : { amount: part };
  const orderInfo = JSON.stringify({ invoice: invoice.invoiceId, number: invoice.number });
  for (let attempt = 0; ; attempt++) {
    try {
      const order = await createOrder(
        db,
        invoice.merchantId,
        {
          ...price,
          blockchain: method.blockchain,
          currency: method.currency,
          order_info: orderInfo,
          nonce: randomInt(1, 2 ** 48),
          redirect_url: invoiceUrl(invoice.invoiceId),
        },
        {
          now,
          item: { name: `Invoice ${invoice.number}`, quantity: 1 },
          admit: async (tx) => {
            await lockForTransaction(tx, [`invoice-orders:${invoice.id}`]);
            const open = await findOpenInvoicePayments(tx, invoice.id);
            if (open.filter((p) => p.expiresAt.getTime() > now.getTime()).length >= maxOpenInvoiceOrders) throw rateLimitedError({ retryAfterSeconds: 60 });
          },
          alongside: (tx, order) => insertInvoicePayment(tx, { invoiceId: invoice.id, paymentOrderId: order.id, amount: part, createdAt: now }),
        },
      );
      return { order_id: order.orderId, payment_url: paymentUrl(order.orderId), amount: part };
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "DUPLICATE_NONCE") || attempt >= 2) throw error;
    }
  }
}
