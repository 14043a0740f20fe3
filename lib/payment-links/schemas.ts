import { z } from "zod";
import { pageQuery } from "@/lib/http/pagination";
import { decimalString, timestamp } from "@/lib/http/schemas";

/** 100 options: every token on every chain several times over. */
const maxOptions = 100;
/** 1000 items per order: a bound, not a business rule. */
export const maxLinkQuantity = 1000;

const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'Must be a positive decimal number written as a string, e.g. "12.50".');

export const linkOption = z.object({
  blockchain: z.string().trim().min(1).max(64).describe("Blockchain slug, e.g. base"),
  currency: z.string().trim().min(1).max(32).describe("Token symbol on that blockchain, e.g. USDC"),
});

const linkFields = {
  title: z.string().trim().min(1, "This field may not be blank.").max(200).describe("Shown to the customer, e.g. the product's name"),
  amount: decimalText.nullish().describe("Price per item in token units; every option must then be the same token. Give this or price_amount"),
  price_amount: decimalText.nullish().describe("Price per item in fiat (with price_currency); each order converts it at the rate of its moment"),
  price_currency: z.string().trim().min(1).max(8).nullish().describe("ISO 4217 code of price_amount (USD, EUR, …)"),
  options: z.array(linkOption).min(1, "Give at least one option.").max(maxOptions).describe("The blockchains and tokens the customer may pay with"),
  max_quantity: z.number().int().min(1).max(maxLinkQuantity).default(1).describe("Most items one order may buy; 1: no quantity choice"),
  is_active: z.boolean().default(true).describe("An inactive link answers 404 to customers"),
};

export const createLinkBody = z.object(linkFields);
export type CreateLinkBody = z.infer<typeof createLinkBody>;

export const updateLinkBody = z.object(linkFields);
export type UpdateLinkBody = z.infer<typeof updateLinkBody>;

export const linkParams = z.object({ id: z.string() });
export const publicLinkParams = z.object({ linkId: z.string() });
export const listLinksQuery = pageQuery;

export const createLinkOrderBody = z.object({
  blockchain: z.string().trim().min(1).max(64).describe("One of the link's options"),
  currency: z.string().trim().min(1).max(32).describe("One of the link's options"),
  quantity: z.number().int().min(1).max(maxLinkQuantity).default(1).describe("1 … the link's max_quantity"),
});
export type CreateLinkOrderBody = z.infer<typeof createLinkOrderBody>;

export const linkJson = z.object({
  id: z.string().describe("Public id, LNK-…"),
  title: z.string(),
  amount: decimalString.nullable(),
  price_amount: z.string().nullable(),
  price_currency: z.string().nullable(),
  options: z.array(linkOption),
  max_quantity: z.number().int(),
  is_active: z.boolean(),
  url: z.string().describe("The public page to share: /link/{id}"),
  created_at: timestamp,
  updated_at: timestamp,
});

export const publicLinkJson = linkJson
  .pick({ id: true, title: true, amount: true, price_amount: true, price_currency: true, options: true, max_quantity: true })
  .extend({
    shop_name: z.string(),
  });

export const linkOrderJson = z.object({
  order_id: z.string(),
  payment_url: z.string().describe("The hosted payment page: send the customer here"),
  amount: decimalString,
  currency: z.string(),
  blockchain: z.string(),
});

export const deletedLinkJson = z.object({ id: z.string(), deleted: z.literal(true) });
