import { z } from "zod";
import { publicBrandJson } from "@/lib/branding/schemas";
import { pageQuery } from "@/lib/http/pagination";
import { customerLocale, timestamp } from "@/lib/http/schemas";

export const invoiceStatuses = ["draft", "sent", "partially_paid", "paid", "overdue", "void"] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

const decimalText = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'Must be a decimal number written as a string, e.g. "12.50".');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const invoiceClient = z.object({
  name: z.string().trim().min(1, "This field may not be blank.").max(200),
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("Where the invoice and its reminders are mailed"),
  address: optionalText(1000).describe("Postal address, printed on the invoice"),
  tax_id: optionalText(64).describe("The client's VAT or tax number"),
});

export const invoiceLineItem = z.object({
  description: z.string().trim().min(1, "This field may not be blank.").max(500),
  quantity: decimalText.describe("e.g. 1, 2.5 (hours)"),
  unit_price: decimalText.describe("In the invoice's currency"),
});

export const invoiceTaxLine = z.object({
  name: z.string().trim().min(1).max(100).describe("e.g. VAT"),
  rate: decimalText.describe("Percent of the subtotal, e.g. 20"),
});

export const invoiceMethod = z.object({
  blockchain: z.string().trim().min(1).max(64).describe("Blockchain slug, e.g. base"),
  currency: z.string().trim().min(1).max(32).describe("Token symbol on that blockchain, e.g. USDC"),
});

export const invoiceBody = z.object({
  client: invoiceClient,
  items: z.array(invoiceLineItem).min(1, "Give at least one line item.").max(200),
  taxes: z.array(invoiceTaxLine).max(10).default([]),
  currency: z
    .string()
    .trim()
    .min(1)
    .max(32)
    .describe("ISO 4217 fiat code (USD, EUR, …: paid in any accepted token at the rate of the payment) or a token symbol (USDC: paid in that token)"),
  due_at: z.iso.datetime({ offset: true, message: "Must be an ISO 8601 timestamp." }).describe("When payment is due; past it an unpaid invoice is overdue"),
  notes: optionalText(2000).describe("Printed under the items, e.g. payment terms"),
  accepted_methods: z.array(invoiceMethod).min(1, "Give at least one payment method.").max(100).describe("The chains and tokens the client may pay with"),
  locale: customerLocale
    .nullish()
    .transform((v) => v ?? null)
    .describe(
      "The client's language (en, de, fr, es, pt, ja, zh): the invoice's mail and reminders are written in it. Default: the language the client's invoice page is shown in when they first pay from it, else the store's (its login's dashboard language), else English",
    ),
});
export type InvoiceBody = z.infer<typeof invoiceBody>;

export const invoiceParams = z.object({ id: z.string() });
export const publicInvoiceParams = z.object({ invoiceId: z.string() });
export const listInvoicesQuery = pageQuery.extend({ status: z.enum(invoiceStatuses).optional().describe("Only invoices in this state") });

export const invoiceJson = z.object({
  id: z.string().describe("Public id, INV-…"),
  number: z.string().describe("The store's invoice number, in its format"),
  status: z.enum(invoiceStatuses),
  client: z.object({ name: z.string(), email: z.string(), address: z.string().nullable(), tax_id: z.string().nullable() }),
  items: z.array(invoiceLineItem.extend({ amount: z.string() })),
  taxes: z.array(invoiceTaxLine.extend({ amount: z.string() })),
  currency: z.string(),
  subtotal: z.string(),
  tax_total: z.string(),
  total: z.string(),
  amount_paid: z.string(),
  amount_due: z.string(),
  due_at: timestamp,
  notes: z.string().nullable(),
  accepted_methods: z.array(invoiceMethod),
  locale: customerLocale.nullable().describe("The client's language for the invoice's mail; null: not set (the store's language, else English)"),
  url: z.string().describe("The hosted invoice page the client pays on: /invoice/{id}"),
  sent_at: timestamp.nullable(),
  paid_at: timestamp.nullable(),
  voided_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const invoiceSettingsBody = z.object({
  number_format: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((f) => /\{seq(:\d)?\}/.test(f), "Must contain {seq} (or {seq:N} for N digits).")
    .describe("e.g. INV-{yyyy}-{seq:4} → INV-2026-0007"),
  allow_partial_payments: z.boolean().describe("Whether the client may pay part of an invoice at a time"),
  reminder_days_before: z.array(z.number().int().min(1).max(60)).max(5).describe("Days before the due date a reminder is mailed"),
  reminder_days_after: z.array(z.number().int().min(1).max(90)).max(5).describe("Days after the due date an overdue reminder is mailed"),
});
export type InvoiceSettingsBody = z.infer<typeof invoiceSettingsBody>;
export const invoiceSettingsJson = invoiceSettingsBody;

export const publicInvoiceJson = invoiceJson.omit({ sent_at: true, voided_at: true, created_at: true, updated_at: true }).extend({
  shop_name: z.string().describe("The store's display name (its branding) or shop name"),
  allow_partial_payments: z.boolean(),
  brand: publicBrandJson.describe("The store's look (PUT /api/branding/)"),
});

export const invoiceOrderBody = z.object({
  blockchain: z.string().trim().min(1).max(64).describe("One of the invoice's accepted methods"),
  currency: z.string().trim().min(1).max(32).describe("One of the invoice's accepted methods"),
  amount: decimalText.optional().describe("Part of what is due, in the invoice's currency (stores allowing partial payments); default: all of it"),
  locale: customerLocale
    .optional()
    .describe(
      "The language the invoice page is shown in: recorded as the client's for the invoice's mail when the store set none; without it, the request's language cookie or Accept-Language",
    ),
});
export type InvoiceOrderBody = z.infer<typeof invoiceOrderBody>;

export const invoiceOrderJson = z.object({
  order_id: z.string(),
  payment_url: z.string().describe("The hosted payment page: send the client here"),
  amount: z.string().describe("What this order pays, in the invoice's currency"),
});
