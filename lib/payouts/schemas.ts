import { z } from "zod";
import { decimalString, evmAddress, timestamp, txHash } from "@/lib/http/schemas";
import { payoutEventTypes } from "@/lib/webhooks/schemas";

/** draft (editable) → approved (a second member approved it) → sent (transaction reported) → confirmed; failed; cancelled. */
export const payoutStatuses = ["draft", "approved", "sent", "confirmed", "failed", "cancelled"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];
/** pending (waiting for the batch transaction) → paid (in a mined block) → confirmed; failed: the leg was not paid. */
export const payoutLegStatuses = ["pending", "paid", "confirmed", "failed"] as const;

/** 500 legs: one transaction's gas stays well below a block's (about 30–40k gas a token leg). */
export const maxPayoutLegs = 500;
/** 256 KiB of CSV: 500 rows with long references, not a document. */
export const maxPayoutCsvLength = 256 * 1024;
export const maxReferenceLength = 200;
export const maxNoteLength = 500;

export const payoutLegInput = z.object({
  address: z.string().describe("The recipient's EVM address (EIP-55 checked when mixed-case)"),
  amount: z.string().describe('Decimal amount, in the batch\'s token, or in `amount_currency` when the batch has one ("25.00")'),
  reference: z.string().max(maxReferenceLength).nullish().describe("Your reference for the leg (invoice, affiliate id); unique within the batch"),
});
export type PayoutLegInput = z.infer<typeof payoutLegInput>;

const legsOrCsv = {
  legs: z.array(payoutLegInput).max(maxPayoutLegs, `At most ${maxPayoutLegs} legs per batch.`).optional().describe("The recipients, entered; or give `csv`"),
  csv: z
    .string()
    .max(maxPayoutCsvLength, `At most ${maxPayoutCsvLength} characters.`)
    .optional()
    .describe(
      "The recipients as CSV with a header row: address, amount, and optionally token, chain, reference (a row's token and chain, if given, must be the batch's)",
    ),
  amount_currency: z
    .string()
    .trim()
    .max(8)
    .nullish()
    .describe("Fiat the amounts are in (USD, EUR, …), converted at a rate locked when the batch is saved; omitted: amounts in the token"),
  note: z.string().trim().max(maxNoteLength).nullish().describe("A note for your records"),
};

export const createPayoutBody = z
  .object({
    blockchain: z.string().trim().min(1).max(64).describe("Blockchain slug, e.g. base"),
    currency: z.string().trim().min(1).max(32).describe("The token every leg is paid in, e.g. USDC or ETH"),
    ...legsOrCsv,
    include_claims: z.boolean().optional().describe("Also pay every claimed claim link of this blockchain and token that no batch pays yet, one leg each"),
  })
  .refine((body) => !(body.legs !== undefined && body.csv !== undefined), { message: "Give either legs or csv, not both.", path: ["legs"] })
  .refine((body) => body.legs !== undefined || body.csv !== undefined || body.include_claims, {
    message: "Give legs or csv (or include_claims).",
    path: ["legs"],
  });
export type CreatePayoutBody = z.infer<typeof createPayoutBody>;

export const updatePayoutBody = z
  .object(legsOrCsv)
  .refine((body) => !(body.legs !== undefined && body.csv !== undefined), { message: "Give either legs or csv, not both.", path: ["legs"] });
export type UpdatePayoutBody = z.infer<typeof updatePayoutBody>;

export const payoutTransactionBody = z.object({
  tx_hash: txHash.describe("The hash of the batch transaction your wallet sent"),
});

export const payoutSettingsBody = z.object({
  approval_threshold_usd: decimalString
    .nullable()
    .describe("Batches worth more than this (in USD at the locked rate) need a second member's approval; null: none do"),
});

const unsignedTransaction = z.object({
  to: evmAddress,
  data: z.string(),
  value: z.string().regex(/^\d+$/).describe("Native coin in wei, as an integer string"),
  chainId: z.number().int(),
});

export const payoutLegJson = z.object({
  position: z.number().int().describe("The leg's index in the batch transaction and its events"),
  address: evmAddress,
  amount: decimalString.describe("In the batch's token"),
  amount_base_units: z.string().regex(/^\d+$/),
  fiat_amount: z.string().nullable().describe("As entered, in the batch's amount_currency"),
  reference: z.string().nullable(),
  status: z.enum(payoutLegStatuses),
  failure_reason: z.string().nullable(),
});

export const payoutJson = z.object({
  id: z.number().int(),
  blockchain: z.string(),
  currency: z.string(),
  token_address: evmAddress.nullable(),
  status: z.enum(payoutStatuses),
  total: decimalString,
  total_base_units: z.string().regex(/^\d+$/),
  leg_count: z.number().int(),
  amount_currency: z.string().nullable(),
  rate: z.string().nullable().describe("amount_currency per whole token, locked when the legs were saved"),
  usd_value: z.string().nullable().describe("The batch's worth in USD at the locked rate (what the approval threshold compares)"),
  rate_locked_at: timestamp.nullable(),
  note: z.string().nullable(),
  approval_required: z.boolean(),
  created_by: z.string(),
  approved_by: z.string().nullable(),
  approved_at: timestamp.nullable(),
  transaction_hash: z.string().nullable(),
  from_address: evmAddress.nullable(),
  block_number: z.number().int().nullable(),
  sent_at: timestamp.nullable(),
  confirmed_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  contract_address: evmAddress.nullable().describe("The PayoutDisperser the batch is paid through"),
  allowance_reset_transaction: unsignedTransaction
    .nullable()
    .describe(
      "Tokens whose approve refuses to change one non-zero allowance into another (USDT reverts): approve(contract_address, 0), to sign before `allowance_transaction` when an allowance from an earlier batch is still there; null for every other token",
    ),
  allowance_transaction: unsignedTransaction
    .nullable()
    .describe("A token batch: approve(contract_address, total), to sign before `transaction` (skip it if the allowance is already there)"),
  transaction: unsignedTransaction
    .nullable()
    .describe("The one transaction that pays every leg; null until the batch may be signed (approved, when approval is required)"),
  legs: z.array(payoutLegJson),
});
export type PayoutJson = z.infer<typeof payoutJson>;

export const payoutSettingsJson = z.object({
  approval_threshold_usd: z.string().nullable(),
});

/** The body of every payout.* webhook delivery (lib/payouts/payout-events.ts). */
export const payoutWebhookEventJson = z.object({
  id: z.string().describe("Event id (evt_…): the same on every delivery and retry of this event; de-duplicate on it"),
  event: z.enum(payoutEventTypes),
  created_at: timestamp,
  data: payoutJson.describe("The batch exactly as GET /api/payouts/{id}/ returned it after the change"),
});

/** 90 days: a claim link is an IOU to be collected soon, not a standing offer. */
export const maxClaimHours = 90 * 24;

export const createClaimBody = z.object({
  blockchain: z.string().trim().min(1).max(64).describe("Blockchain slug, e.g. base"),
  currency: z.string().trim().min(1).max(32).describe("The token owed, e.g. USDC"),
  amount: z.string().describe('Decimal amount in the token ("25.5")'),
  expires_in_hours: z
    .number()
    .int()
    .min(1)
    .max(maxClaimHours)
    .default(7 * 24)
    .describe(`Hours until the link can no longer be claimed (default 168, at most ${maxClaimHours})`),
  reference: z.string().trim().max(maxReferenceLength).nullish().describe("Your reference, carried to the leg that pays it"),
});
export type CreateClaimBody = z.infer<typeof createClaimBody>;

export const claimParams = z.object({ claimId: z.string().regex(/^CLM-[0-9A-Za-z]{1,64}$/) });

export const claimBody = z.object({
  address: z.string().trim().describe("Your own address on the link's blockchain (EIP-55 checked when mixed-case)"),
});

export const claimStatuses = ["open", "claimed", "paid", "cancelled"] as const;

export const publicClaimJson = z.object({
  id: z.string(),
  blockchain: z.string(),
  currency: z.string(),
  amount: decimalString,
  expires_at: timestamp,
  status: z.enum(claimStatuses).describe("open: waiting for your address; claimed: the merchant's next batch pays it; paid"),
  claim_address: evmAddress.nullable(),
});

export const claimJson = publicClaimJson.extend({
  url: z.string().describe("The link to give the recipient (the public claim endpoint)"),
  reference: z.string().nullable(),
  claimed_at: timestamp.nullable(),
  batch_id: z.number().int().nullable().describe("The batch paying it, while one does"),
  paid_at: timestamp.nullable(),
  created_at: timestamp,
});
