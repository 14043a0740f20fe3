"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { createInvoice, duplicateInvoice, saveInvoiceSettings, serializeInvoice } from "@/lib/invoices/invoices";
import { invoiceBody, invoiceSettingsBody } from "@/lib/invoices/schemas";
import { sendInvoice, voidInvoice } from "@/lib/invoices/send-invoice";

const text = (value: unknown) => (typeof value === "string" ? value : "");
const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : typeof value === "string" && value !== "" ? [value] : []);

/**
 * An invoice from the dashboard form: items one per line as "description; quantity; unit price"
 * (quantity optional: "Hosting; 49" is one item), an optional tax line, the due date as a day
 * (end of that day, UTC), methods as checkbox values "<blockchain>:<currency>".
 */
const invoiceFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const items = text(f.items)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const parts = line.split(";").map((p) => p.trim());
      const [description = "", quantity, unitPrice] = parts.length >= 3 ? parts : [parts[0], "1", parts[1] ?? ""];
      return { description, quantity, unit_price: unitPrice };
    });
  const day = text(f.due_date);
  return {
    client: { name: text(f.client_name), email: text(f.client_email), address: text(f.client_address), tax_id: text(f.client_tax_id) },
    items,
    taxes: text(f.tax_rate).trim() ? [{ name: text(f.tax_name).trim() || "Tax", rate: text(f.tax_rate).trim() }] : [],
    currency: text(f.currency),
    due_at: /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59Z` : day,
    notes: text(f.notes),
    locale: text(f.locale) || null,
    accepted_methods: list(f.methods).map((value) => {
      const [blockchain = "", currency = ""] = value.split(":");
      return { blockchain, currency };
    }),
  };
};

const idField = z.object({ id: z.string().min(1).max(64) });

/** Same use-case as POST /api/invoices/. */
export const createInvoiceAction = authedAction(
  z.preprocess(invoiceFromForm, invoiceBody),
  async (input, { db, merchantId }) => {
    const invoice = serializeInvoice(await createInvoice(db, merchantId, input));
    return { id: invoice.id, number: invoice.number };
  },
  { permission: "create_payments" },
);

/** Same use-case as POST /api/invoices/{id}/send/. */
export const sendInvoiceAction = authedAction(
  idField,
  async ({ id }, { db, merchantId }) => {
    const invoice = await sendInvoice(db, merchantId, id);
    return { id: invoice.invoiceId, status: invoice.status };
  },
  { permission: "create_payments" },
);

/** Same use-case as POST /api/invoices/{id}/void/. */
export const voidInvoiceAction = authedAction(
  idField,
  async ({ id }, { db, merchantId }) => {
    const invoice = await voidInvoice(db, merchantId, id);
    return { id: invoice.invoiceId, status: invoice.status };
  },
  { permission: "create_payments" },
);

/** Same use-case as POST /api/invoices/{id}/duplicate/. */
export const duplicateInvoiceAction = authedAction(
  idField,
  async ({ id }, { db, merchantId }) => {
    const invoice = await duplicateInvoice(db, merchantId, id);
    return { id: invoice.invoiceId, number: invoice.number };
  },
  { permission: "create_payments" },
);

const settingsFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const days = (value: unknown) =>
    text(value)
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
  return {
    number_format: text(f.number_format),
    allow_partial_payments: f.allow_partial_payments === "on" || f.allow_partial_payments === "true",
    reminder_days_before: days(f.reminder_days_before),
    reminder_days_after: days(f.reminder_days_after),
  };
};

/** Same use-case as PUT /api/invoice-settings/. */
export const saveInvoiceSettingsAction = authedAction(
  z.preprocess(settingsFromForm, invoiceSettingsBody),
  async (input, { db, merchantId }) => saveInvoiceSettings(db, merchantId, input),
  {
    permission: "create_payments",
  },
);
