import { z } from "zod";
import { keysetPageQuery } from "@/lib/http/pagination";
import { decimalString, timestamp, txHash } from "@/lib/http/schemas";

export const notCountedReasons = ["wrong_asset", "after_expiry", "reverted", "reorged"] as const;
export type NotCountedReason = (typeof notCountedReasons)[number];

export const transactionStatuses = ["pending", "confirmed", "failed"] as const;

export const listTransactionsQuery = keysetPageQuery.extend({
  blockchain: z.string().min(1).max(32).optional().describe("Blockchain slug"),
  status: z.enum(transactionStatuses).optional().describe("pending, confirmed or failed"),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;

export const transactionParams = z.object({ transactionHash: z.string().describe("0x-prefixed transaction hash") });

// Response shapes: exactly what lib/transactions/serialize.ts returns.

export const transactionListItemJson = z.object({
  transaction_hash: txHash,
  blockchain: z.string().nullable().describe("Blockchain slug"),
  status: z.enum(transactionStatuses),
  amount: decimalString.describe("Amount transferred, in token units"),
  currency: z.string(),
  created_at: timestamp.describe("When the gateway saw the transfer"),
});

export const transactionJson = z.object({
  transaction_hash: txHash,
  payment_order: z
    .object({ id: z.number().int(), order_id: z.string(), amount: decimalString, currency: z.string() })
    .nullable()
    .describe("The order whose deposit address received the transfer"),
  subscription: z
    .object({ id: z.string().describe("SUB-…"), period: z.number().int().describe("The period it charged, from 0") })
    .nullable()
    .describe("The subscription this transfer charged (its pull contract moved one period's amount to the merchant's wallet); null for a payment"),
  blockchain: z.string().nullable(),
  block_number: z.number().int(),
  block_timestamp: timestamp,
  confirmations: z.number().int().describe("head − block + 1 against the scanner's head; 0 once dropped"),
  status: z.enum(transactionStatuses).describe("A transfer reorged out of the chain reads failed"),
  from_address: z.string(),
  to_address: z.string(),
  amount: decimalString,
  currency: z.string(),
  gas_used: z.number().int().nullable(),
  gas_price: z.string().nullable().describe("Wei, as an integer string"),
  transaction_fee: decimalString.nullable().describe("In the native coin"),
  counted: z.boolean().describe("Whether it counts toward its order: the order's asset, arrived by its expiry, not reverted or reorged out"),
  not_counted_reason: z
    .enum(notCountedReasons)
    .nullable()
    .describe(
      "Why it does not count (null when it does): wrong_asset (another token or coin than the order's), after_expiry (arrived after expires_at), reverted (the transaction failed), reorged (its block left the chain)",
    ),
  created_at: timestamp,
});
