import { z } from "zod";
import { pageQuery } from "@/lib/http/pagination";
import { customerLocale, decimalString, evmAddress, timestamp } from "@/lib/http/schemas";
import { subscriptionStatuses } from "@/lib/db/schema/subscriptions";

const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'Must be a positive decimal number written as a string, e.g. "9.99".');

export const createPlanBody = z.object({
  name: z.string().trim().min(1, "This field may not be blank.").max(200).describe("Shown to the customer"),
  blockchain: z.string().trim().min(1).max(64).describe("Blockchain slug, e.g. base"),
  currency: z.string().trim().min(1).max(32).describe("The ERC-20 token charged, e.g. USDC"),
  amount: decimalText.nullish().describe("Amount per period in token units. Give this or price_amount"),
  price_amount: decimalText.nullish().describe("Price per period in fiat (with price_currency and max_amount), converted at each period's rate"),
  price_currency: z.string().trim().min(1).max(8).nullish().describe("ISO 4217 code of price_amount"),
  max_amount: decimalText.nullish().describe("Fiat plans: the most one period may take, in token units (the cap the customer agrees to)"),
  interval_days: z.number().int().min(1).max(366).describe("Length of a period in days"),
  trial_days: z.number().int().min(0).max(366).default(0).describe("Days before the first charge"),
  grace_days: z
    .number()
    .int()
    .min(0)
    .max(365)
    .default(3)
    .describe("Days a failed charge is retried before the subscription is past due; less than interval_days"),
  past_due_days: z.number().int().min(0).max(365).default(7).describe("Days past due before the subscription is canceled"),
  periods: z.number().int().min(1).max(10_000).nullish().describe("Periods after which the subscription ends; omit for open-ended"),
  public_link: z
    .boolean()
    .default(false)
    .describe("Whether the plan's public subscribe page (public_url) takes new subscribers: any customer who has the link subscribes there"),
});
export type CreatePlanBody = z.infer<typeof createPlanBody>;

export const updatePlanBody = z
  .object({
    public_link: z.boolean().optional().describe("Switches the plan's public subscribe page on or off"),
    status: z.enum(["active", "archived"]).optional().describe("archived: the plan takes no new subscribers (its subscriptions go on)"),
  })
  .refine((body) => body.public_link !== undefined || body.status !== undefined, { message: "Give public_link or status.", path: ["public_link"] });
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;

export const planParams = z.object({ id: z.string() });
export const listPlansQuery = pageQuery;

export const planJson = z.object({
  id: z.string().describe("Public id, PLN-…"),
  name: z.string(),
  blockchain: z.string(),
  currency: z.string(),
  amount: decimalString.nullable(),
  price_amount: z.string().nullable(),
  price_currency: z.string().nullable(),
  max_amount: decimalString.describe("The cap per period in token units"),
  interval_days: z.number().int(),
  trial_days: z.number().int(),
  grace_days: z.number().int(),
  past_due_days: z.number().int(),
  periods: z.number().int().nullable(),
  status: z.enum(["active", "archived"]),
  public_link: z.boolean().describe("Whether the public subscribe page takes new subscribers"),
  public_url: z.string().nullable().describe("The plan's public subscribe page, to share (null while public_link is off)"),
  created_at: timestamp,
  updated_at: timestamp,
});

export const createSubscriptionBody = z.object({
  plan: z.string().trim().min(1).max(64).describe("The plan's id, PLN-…"),
  customer_address: evmAddress.describe("The customer's wallet: the only one ever debited"),
  customer_email: z
    .string()
    .trim()
    .email()
    .max(254)
    .nullish()
    .describe(
      "Where the customer is mailed, once they authorized: the manage link, a receipt for each confirmed charge, and notices when past due or canceled",
    ),
  customer_locale: customerLocale
    .nullish()
    .describe(
      "The customer's language (en, de, fr, es, pt, ja, zh) for that mail. Default: the language of the subscribe page they authorize on, else the store's (its login's dashboard language), else English",
    ),
});
export type CreateSubscriptionBody = z.infer<typeof createSubscriptionBody>;

export const subscriptionParams = z.object({ id: z.string() });
export const listSubscriptionsQuery = pageQuery.extend({
  status: z.enum(subscriptionStatuses).optional().describe("Only subscriptions in this state"),
  plan: z.string().max(64).optional().describe("Only subscriptions to this plan (PLN-…)"),
  customer_address: evmAddress.optional().describe("Only this customer's subscriptions"),
});

export const cancelSubscriptionBody = z.object({
  reason: z.string().trim().max(500).nullish().describe("Kept in the subscription's history"),
});

export const subscriptionEventJson = z.object({
  kind: z.string().describe("created, charged, charge_reorged, payment_failed, past_due, paused, resumed, canceled, ended"),
  status: z.enum(subscriptionStatuses),
  detail: z.record(z.string(), z.unknown()).nullable(),
  created_at: timestamp,
});

export const subscriptionChargeJson = z.object({
  period: z.number().int().describe("The contract's period index, from 0"),
  status: z
    .enum(["sending", "pending", "confirmed", "failed", "reorged"])
    .describe(
      "sending: its transaction is on its way; pending: mined, counting confirmations; confirmed: at the merchant wallet's threshold; failed: the transaction reverted; reorged: a chain reorganisation took it away (the period is charged again while it runs)",
    ),
  amount: decimalString.describe("Token units moved from the customer's wallet to the merchant's"),
  currency: z.string(),
  price_amount: z.string().nullable().describe("Fiat plans: the price converted for this period"),
  price_currency: z.string().nullable(),
  rate: z.string().nullable().describe("Fiat plans: price-currency units per token, locked for this charge"),
  rate_source: z.array(z.record(z.string(), z.unknown())).nullable().describe("Fiat plans: the price feed answers the rate came from"),
  rated_at: timestamp.nullable().describe("Fiat plans: when the rate was read (chain time)"),
  transaction_hash: z.string().nullable(),
  block_number: z.number().int().nullable(),
  confirmations: z.number().int().describe("As last counted by the engine"),
  confirmation_threshold: z.number().int().describe("The merchant wallet's threshold when the period was charged"),
  gas_used: z.string().nullable(),
  confirmed_at: timestamp.nullable(),
  reorged_at: timestamp.nullable(),
  created_at: timestamp,
});

export const subscriptionJson = z.object({
  id: z.string().describe("Public id, SUB-…"),
  plan: z.string(),
  status: z.enum(subscriptionStatuses),
  blockchain: z.string(),
  currency: z.string(),
  customer_address: z.string(),
  merchant_address: z.string().describe("The merchant wallet the contract pays, fixed at subscription"),
  max_amount: decimalString.describe("The most one period may take (token units)"),
  interval_days: z.number().int(),
  starts_at: timestamp.describe("First charge (the end of any trial)"),
  ends_at: timestamp.nullable(),
  pull_address: z.string().describe("The subscription's pull contract: the customer's allowance goes to this address"),
  authorization: z
    .object({
      method: z.enum(["permit", "approve"]),
      spender: z.string(),
      token: z.string(),
      value: z.string().describe("Allowance in base units"),
    })
    .describe("What the customer grants: an EIP-2612 permit where the token has it, else an approve"),
  customer_email: z.string().nullable(),
  customer_locale: customerLocale.nullable().describe("The customer's language for their mail; null: not known yet (the store's language, else English)"),
  periods_charged: z.number().int(),
  canceled_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  history: z.array(subscriptionEventJson).optional().describe("One subscription's GET only: oldest first"),
  charges: z.array(subscriptionChargeJson).optional().describe("One subscription's GET only: each period's charge and its transfer, oldest first"),
});

export const authorizeSubscriptionBody = z.object({
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{130}$/, "A 65-byte signature as 0x-prefixed hex.")
    .describe("The customer's EIP-2612 permit signature for `authorization` (spender pull_address)"),
  deadline: z.number().int().min(1).describe("The permit's deadline (unix seconds) the customer signed"),
  locale: customerLocale
    .optional()
    .describe(
      "The subscribe page's language: the customer's mail is written in it unless the store set `customer_locale`; without it, the request's language cookie or Accept-Language",
    ),
});
