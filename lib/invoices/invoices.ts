import "server-only";
import { findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import type { Invoice, InvoiceMethod, InvoiceSettings } from "@/lib/db/schema";
import { lockForTransaction } from "@/lib/db/transaction-locks";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { isCustomerLocale } from "@/lib/i18n/locales";
import { newId } from "@/lib/ids";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";
import { fromUnits, invoiceTotals, toUnits } from "./amounts";
import { findInvoiceSettings, findMerchantInvoice, insertInvoice, maxInvoiceSequence, updateMerchantInvoice, upsertInvoiceSettings } from "./queries";
import type { InvoiceBody, InvoiceSettingsBody, InvoiceStatus } from "./schemas";

const dayMs = 24 * 60 * 60 * 1000;

/** What a store that never changed its settings gets. */
export const defaultInvoiceSettings: InvoiceSettingsBody = {
  number_format: "{yyyy}-{seq:4}",
  allow_partial_payments: false,
  reminder_days_before: [3],
  reminder_days_after: [1, 7],
};

/** The hosted page of an invoice. */
export function invoiceUrl(invoiceId: string): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/invoice/${invoiceId}`;
}

/** Decimal places of an invoice's currency: a fiat currency's minor units, or the fewest of the token's on the accepted chains. */
export function currencyPlaces(currency: string, methods: InvoiceMethod[]): number {
  if (isFiatCurrency(currency)) return fiatCurrencies[currency];
  const decimals = methods.map((m) => findToken(findBlockchainBySlug(m.blockchain)!, m.currency)?.decimals ?? 0);
  return Math.min(...decimals);
}

export function amountDue(invoice: Invoice): string {
  const places = currencyPlaces(invoice.currency, invoice.acceptedMethods);
  const due = toUnits(invoice.total, places) - toUnits(invoice.amountPaid, places);
  return fromUnits(due > 0n ? due : 0n, places);
}

export function serializeInvoice(invoice: Invoice) {
  const places = currencyPlaces(invoice.currency, invoice.acceptedMethods);
  const totals = invoiceTotals(invoice.items, invoice.taxes, places);
  return {
    id: invoice.invoiceId,
    number: invoice.number,
    status: invoice.status as InvoiceStatus,
    client: invoice.client,
    items: invoice.items.map((item, i) => ({ ...item, amount: fromUnits(totals.lines[i]!, places) })),
    taxes: invoice.taxes.map((tax, i) => ({ ...tax, amount: fromUnits(totals.taxes[i]!, places) })),
    currency: invoice.currency,
    subtotal: invoice.subtotal,
    tax_total: invoice.taxTotal,
    total: invoice.total,
    amount_paid: invoice.amountPaid,
    amount_due: amountDue(invoice),
    due_at: invoice.dueAt.toISOString(),
    notes: invoice.notes,
    accepted_methods: invoice.acceptedMethods,
    locale: isCustomerLocale(invoice.locale) ? invoice.locale : null,
    url: invoiceUrl(invoice.invoiceId),
    sent_at: invoice.sentAt?.toISOString() ?? null,
    paid_at: invoice.paidAt?.toISOString() ?? null,
    voided_at: invoice.voidedAt?.toISOString() ?? null,
    created_at: invoice.createdAt.toISOString(),
    updated_at: invoice.updatedAt.toISOString(),
  };
}

// ─── settings ───

export function serializeInvoiceSettings(settings: InvoiceSettings | null): InvoiceSettingsBody {
  if (!settings) return defaultInvoiceSettings;
  return {
    number_format: settings.numberFormat,
    allow_partial_payments: settings.allowPartialPayments,
    reminder_days_before: settings.reminderDaysBefore,
    reminder_days_after: settings.reminderDaysAfter,
  };
}

export async function getInvoiceSettings(db: DbOrTx, merchantId: number): Promise<InvoiceSettingsBody> {
  return serializeInvoiceSettings(await findInvoiceSettings(db, merchantId));
}

export async function saveInvoiceSettings(db: DbOrTx, merchantId: number, input: InvoiceSettingsBody, now = new Date()): Promise<InvoiceSettingsBody> {
  const sorted = (days: number[]) => [...new Set(days)].sort((a, b) => a - b);
  const row = await upsertInvoiceSettings(db, {
    merchantId,
    numberFormat: input.number_format,
    allowPartialPayments: input.allow_partial_payments,
    reminderDaysBefore: sorted(input.reminder_days_before),
    reminderDaysAfter: sorted(input.reminder_days_after),
    createdAt: now,
    updatedAt: now,
  });
  return serializeInvoiceSettings(row);
}

/** The number in the store's format: {seq} or {seq:N} (zero-padded to N digits) and {yyyy}. */
export function formatInvoiceNumber(format: string, sequence: number, now: Date): string {
  return format
    .replace(/\{seq(?::(\d))?\}/g, (_, digits?: string) => String(sequence).padStart(Number(digits ?? 0), "0"))
    .replace(/\{yyyy\}/g, String(now.getUTCFullYear()));
}

// ─── create, change, copy ───

/**
 * Checks an invoice's methods and currency and computes its totals: each method a served chain
 * taking orders and a token on it; a fiat currency (paid in any method at the rate of the payment)
 * or a token symbol that every method pays in; prices within the currency's precision.
 */
function checkedInvoice(input: InvoiceBody) {
  const methods: InvoiceMethod[] = [];
  for (const [i, method] of input.accepted_methods.entries()) {
    const chain = findBlockchainBySlug(method.blockchain);
    if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `accepted_methods[${i}]: blockchain '${method.blockchain}' is not supported.`);
    if (!chain.factory || !chain.implementation)
      throw new ApiError("INVALID_BLOCKCHAIN", `accepted_methods[${i}]: payments on ${chain.slug} are not available.`);
    const token = findToken(chain, method.currency);
    if (!token) throw new ApiError("UNSUPPORTED_CURRENCY", `accepted_methods[${i}]: currency '${method.currency}' is not supported on ${chain.slug}.`);
    if (!methods.some((m) => m.blockchain === chain.slug && m.currency === token.symbol)) methods.push({ blockchain: chain.slug, currency: token.symbol });
  }
  const fiat = isFiatCurrency(input.currency.toUpperCase());
  const currency = fiat ? input.currency.toUpperCase() : (methods.find((m) => m.currency.toLowerCase() === input.currency.toLowerCase())?.currency ?? null);
  if (!currency)
    throw new ApiError(
      "UNSUPPORTED_CURRENCY",
      `Currency '${input.currency}' is neither a supported fiat currency (${Object.keys(fiatCurrencies).join(", ")}) nor one of the accepted tokens.`,
    );
  if (!fiat && methods.some((m) => m.currency !== currency)) {
    throw validationError({
      accepted_methods: ["An invoice in a token is paid in that token (on any chains); bill in a fiat currency to accept several tokens."],
    });
  }
  const places = currencyPlaces(currency, methods);
  for (const [i, item] of input.items.entries()) {
    if ((item.unit_price.split(".")[1] ?? "").length > places)
      throw validationError({ [`items.${i}.unit_price`]: [`At most ${places} decimal places in ${currency}.`] });
  }
  const totals = invoiceTotals(input.items, input.taxes, places);
  if (totals.total <= 0n) throw new ApiError("INVALID_AMOUNT", "The invoice's total must be greater than zero.");
  return {
    client: input.client,
    items: input.items,
    taxes: input.taxes,
    currency,
    subtotal: fromUnits(totals.subtotal, places),
    taxTotal: fromUnits(totals.taxTotal, places),
    total: fromUnits(totals.total, places),
    amountPaid: fromUnits(0n, places),
    dueAt: new Date(input.due_at),
    notes: input.notes,
    acceptedMethods: methods,
    locale: input.locale ?? null,
  };
}

/** A new draft with the store's next number (the numbering is locked per store, so numbers never repeat or skip under races). */
async function insertDraft(db: DbOrTx, merchantId: number, fields: ReturnType<typeof checkedInvoice>, now: Date): Promise<Invoice> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, [`invoice-number:${merchantId}`]);
    const settings = await getInvoiceSettings(tx, merchantId);
    const sequence = (await maxInvoiceSequence(tx, merchantId)) + 1;
    return insertInvoice(tx, {
      ...fields,
      invoiceId: newId("invoice"),
      merchantId,
      sequence,
      number: formatInvoiceNumber(settings.number_format, sequence, now),
      status: "draft",
      remindersSent: [],
      createdAt: now,
      updatedAt: now,
    });
  });
}

export async function createInvoice(db: DbOrTx, merchantId: number, input: InvoiceBody, now = new Date()): Promise<Invoice> {
  return insertDraft(db, merchantId, checkedInvoice(input), now);
}

export async function getInvoiceOrThrow(db: DbOrTx, merchantId: number, invoiceId: string): Promise<Invoice> {
  const invoice = await findMerchantInvoice(db, merchantId, invoiceId);
  if (!invoice) throw notFound("Invoice");
  return invoice;
}

/** Throws 409 CONFLICT naming the state when `invoice` may not take `action`. */
export function notInState(invoice: Invoice, action: string): ApiError {
  return new ApiError("CONFLICT", `Invoice ${invoice.number} is ${invoice.status.replace("_", " ")}: it cannot be ${action}.`);
}

/** Only a draft changes; a sent invoice is what the client has (void it and send a copy instead). */
export async function updateInvoice(db: DbOrTx, merchantId: number, invoiceId: string, input: InvoiceBody, now = new Date()): Promise<Invoice> {
  const current = await getInvoiceOrThrow(db, merchantId, invoiceId);
  const updated = await updateMerchantInvoice(db, merchantId, invoiceId, ["draft"], { ...checkedInvoice(input), updatedAt: now });
  if (!updated) throw notInState(current, "changed");
  return updated;
}

/** A new draft with the invoice's client, items, taxes, currency, notes and methods, due as long after today as the original was after its creation. */
export async function duplicateInvoice(db: DbOrTx, merchantId: number, invoiceId: string, now = new Date()): Promise<Invoice> {
  const source = await getInvoiceOrThrow(db, merchantId, invoiceId);
  const term = Math.max(dayMs, source.dueAt.getTime() - source.createdAt.getTime());
  const fields = checkedInvoice({
    client: source.client,
    items: source.items,
    taxes: source.taxes,
    currency: source.currency,
    due_at: new Date(now.getTime() + term).toISOString(),
    notes: source.notes,
    accepted_methods: source.acceptedMethods,
    locale: isCustomerLocale(source.locale) ? source.locale : null,
  });
  return insertDraft(db, merchantId, fields, now);
}
