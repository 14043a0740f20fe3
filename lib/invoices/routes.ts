import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import {
  invoiceBody,
  invoiceJson,
  invoiceOrderBody,
  invoiceOrderJson,
  invoiceParams,
  invoiceSettingsBody,
  invoiceSettingsJson,
  listInvoicesQuery,
  publicInvoiceJson,
  publicInvoiceParams,
} from "./schemas";

const designInvoice = {
  client: { name: "Acme GmbH", email: "accounts@acme.example", address: "Hauptstr. 1, 10115 Berlin", tax_id: "DE123456789" },
  items: [
    { description: "Logo design", quantity: "1", unit_price: "800.00" },
    { description: "Revisions (hours)", quantity: "2.5", unit_price: "60.00" },
  ],
  taxes: [{ name: "VAT", rate: "19" }],
  currency: "EUR",
  due_at: "2030-01-31T00:00:00Z",
  notes: "Thank you for your business.",
  accepted_methods: [
    { blockchain: "base", currency: "USDC" },
    { blockchain: "base", currency: "ETH" },
  ],
};

const invoiceErrors = ["INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN"] as const;

/** Invoices: the merchant's API, and the two calls of the hosted invoice page. */
export const invoiceRoutes = {
  listInvoices: defineRoute({
    method: "GET",
    path: "/api/invoices",
    access: "read",
    query: listInvoicesQuery,
    doc: { summary: "List invoices", description: "Newest number first; `status` filters.", tags: ["Invoices"], response: pageAnswer(invoiceJson) },
  }),
  createInvoice: defineRoute({
    method: "POST",
    path: "/api/invoices",
    access: "create_payments",
    body: invoiceBody,
    doc: {
      summary: "Create an invoice (a draft)",
      description:
        "A draft with the store's next number (its format in the invoice settings): the client, line items (quantity × unit price), optional tax lines (percent of the subtotal), a currency (fiat, paid in any accepted token at the rate of the payment; or a token, paid in that token), a due date, notes and the accepted methods. Totals are computed exactly and rounded half up to the currency's precision per line. Send it with POST /api/invoices/{id}/send.",
      tags: ["Invoices"],
      bodyExamples: { fiat: { summary: "Billed in EUR, paid in USDC or ETH on base", value: designInvoice } },
      response: createdAnswer(invoiceJson, "Invoice created."),
      errors: [...invoiceErrors],
    },
  }),
  getInvoice: defineRoute({
    method: "GET",
    path: "/api/invoices/[id]",
    access: "read",
    params: invoiceParams,
    doc: { summary: "Get an invoice", tags: ["Invoices"], response: okAnswer(invoiceJson) },
  }),
  updateInvoice: defineRoute({
    method: "PUT",
    path: "/api/invoices/[id]",
    access: "create_payments",
    params: invoiceParams,
    body: invoiceBody,
    doc: {
      summary: "Change a draft invoice",
      description:
        "Replaces a draft's contents (same body as create; the number stays). A sent invoice is what the client has: 409 CONFLICT (void it and send a duplicate instead).",
      tags: ["Invoices"],
      response: okAnswer(invoiceJson, "Invoice updated."),
      errors: [...invoiceErrors, "CONFLICT"],
    },
  }),
  sendInvoice: defineRoute({
    method: "POST",
    path: "/api/invoices/[id]/send",
    access: "create_payments",
    params: invoiceParams,
    doc: {
      summary: "Mail an invoice to its client",
      description:
        "Mails the client a link to the hosted invoice page (/invoice/{id}). A draft becomes `sent` (webhook invoice.sent); an open invoice (sent, partially paid, overdue) is mailed again. Every accepted method needs an active wallet on its chain (400 WALLET_NOT_CONFIGURED); a paid or void invoice is 409 CONFLICT.",
      tags: ["Invoices"],
      response: okAnswer(invoiceJson, "Invoice sent."),
      errors: ["WALLET_NOT_CONFIGURED", "CONFLICT"],
    },
  }),
  voidInvoice: defineRoute({
    method: "POST",
    path: "/api/invoices/[id]/void",
    access: "create_payments",
    params: invoiceParams,
    doc: {
      summary: "Void an invoice",
      description:
        "An unpaid invoice becomes `void`: its page says so and takes no more payments (webhook invoice.voided, if it had been sent). A paid or void invoice is 409 CONFLICT.",
      tags: ["Invoices"],
      response: okAnswer(invoiceJson, "Invoice voided."),
      errors: ["CONFLICT"],
    },
  }),
  duplicateInvoice: defineRoute({
    method: "POST",
    path: "/api/invoices/[id]/duplicate",
    access: "create_payments",
    params: invoiceParams,
    doc: {
      summary: "Copy an invoice into a new draft",
      description:
        "A new draft with the next number and the same client, items, taxes, currency, notes and methods, due as long after today as the original was after its creation.",
      tags: ["Invoices"],
      response: createdAnswer(invoiceJson, "Invoice created."),
      errors: [...invoiceErrors],
    },
  }),
  getInvoiceSettings: defineRoute({
    method: "GET",
    path: "/api/invoice-settings",
    access: "read",
    doc: { summary: "Get the invoice settings", tags: ["Invoices"], response: okAnswer(invoiceSettingsJson) },
  }),
  updateInvoiceSettings: defineRoute({
    method: "PUT",
    path: "/api/invoice-settings",
    access: "create_payments",
    body: invoiceSettingsBody,
    doc: {
      summary: "Change the invoice settings",
      description:
        "The number format (applies to invoices created from now on), whether clients may pay part of an invoice at a time, and the reminder schedule (days before and after the due date).",
      tags: ["Invoices"],
      bodyExamples: {
        yearly: {
          summary: "Numbers per year, partial payments, three reminders",
          value: { number_format: "INV-{yyyy}-{seq:4}", allow_partial_payments: true, reminder_days_before: [3], reminder_days_after: [1, 7] },
        },
      },
      response: okAnswer(invoiceSettingsJson, "Invoice settings saved."),
    },
  }),
  getPublicInvoice: defineRoute({
    method: "GET",
    path: "/api/hosted-invoices/[invoiceId]",
    access: "public",
    params: publicInvoiceParams,
    clientLimit: { name: "invoice-view", perHour: 600 },
    doc: {
      summary: "Get an invoice's public view",
      description: "What the hosted page /invoice/{id} shows. Public by its unguessable id; a draft or unknown id is 404.",
      tags: ["Invoices", "Payment page"],
      response: okAnswer(publicInvoiceJson),
    },
  }),
  createInvoiceOrder: defineRoute({
    method: "POST",
    path: "/api/hosted-invoices/[invoiceId]/orders",
    access: "public",
    params: publicInvoiceParams,
    body: invoiceOrderBody,
    clientLimit: { name: "invoice-order", perHour: 60 },
    doc: {
      summary: "Open an order that pays an invoice",
      description:
        "Public: the client picks an accepted method and, where the store allows partial payments, an amount up to what is due (default: all of it); the gateway opens an order for it and answers its `payment_url`. Once the order confirms, the amount counts toward the invoice (partially paid, then paid: webhook invoice.paid). A paid or void invoice is 409 CONFLICT; at most 10 orders of one invoice may be open at once (429).",
      tags: ["Invoices", "Payment page"],
      response: createdAnswer(invoiceOrderJson, "Order created."),
      errors: ["WALLET_NOT_CONFIGURED", "PRICE_FEED_STALE", "PRICE_FEED_UNAVAILABLE", "CONFLICT", "RATE_LIMITED"],
    },
  }),
};
