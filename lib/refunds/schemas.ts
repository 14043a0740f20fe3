import { z } from "zod";
import { reauthProof } from "@/lib/auth/schemas";
import { decimalString, evmAddress, timestamp, typedAddress } from "@/lib/http/schemas";

/** Refund statuses: requested (built, not seen on chain) → pending (seen) → confirmed; failed: the transfer reverted. */
export const refundStatuses = ["requested", "pending", "confirmed", "failed"] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** 500: a reason is a note, not a document. */
export const maxReasonLength = 500;

/** Typed by a person (merchant or customer): EIP-55 checked when mixed-case. */
const address = typedAddress;

export const createRefundBody = z
  .object({
    amount: z
      .string()
      .optional()
      .describe('Decimal amount in the order\'s token units ("2.5"); omitted: everything still refundable (or, with overpaid_only, the overpaid part)'),
    overpaid_only: z.boolean().optional().describe("Refund only what was received above the order's amount (amount_received − amount)"),
    to_address: address.describe("Where the customer wants the money back (the pay page's refund_address, if the customer left one)"),
    reason: z.string().trim().max(maxReasonLength, `Must be at most ${maxReasonLength} characters.`).nullish().describe("A note for your records"),
  })
  .refine((body) => !(body.amount !== undefined && body.overpaid_only), { message: "Give either amount or overpaid_only, not both.", path: ["amount"] });
export type CreateRefundBody = z.infer<typeof createRefundBody>;

/** The customer's refund address from the payment page (public). */
export const refundAddressBody = z.object({
  refund_address: address.describe("Your address on the order's blockchain, for the merchant to send the money back to"),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{130}$/, "Must be a 65-byte hex signature (0x…).")
    .describe(
      'EIP-191 personal_sign, by a wallet that paid this order, of "Refund address for payment order <order_id>: <refund_address, EIP-55 checksummed>"',
    ),
});

export const unsignedTransactionJson = z
  .object({
    from: evmAddress.describe("The wallet that must sign: the order's deposit destination (your wallet the deposit was swept to)"),
    to: evmAddress.describe("The token contract (ERC-20 transfer) or the refund address (native coin)"),
    data: z.string().describe("Calldata: transfer(to_address, amount) for a token, 0x for the native coin"),
    value: z.string().regex(/^\d+$/).describe("Native coin to send, in wei (base units), as an integer string; 0 for a token"),
    chainId: z.number().int(),
  })
  .describe(
    "The transaction to sign and send with your wallet (eth_sendTransaction); the gateway matches it on chain by sender, recipient, asset and exact amount",
  );

export const refundJson = z.object({
  id: z.number().int(),
  order_id: z.string(),
  amount: decimalString.describe("In the order's token units"),
  amount_base_units: z.string().regex(/^\d+$/).describe("The exact amount in base units the transfer must carry"),
  currency: z.string(),
  from_address: evmAddress,
  to_address: evmAddress,
  reason: z.string().nullable(),
  status: z
    .enum(refundStatuses)
    .describe("requested: waiting for your transaction; pending: seen on chain, waiting for confirmations; confirmed; failed: the transfer reverted"),
  transaction_hash: z.string().nullable(),
  block_number: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  confirmed_at: timestamp.nullable(),
  transaction: unsignedTransactionJson,
});
export type RefundJson = z.infer<typeof refundJson>;

export const publicRefundAddressJson = z.object({
  order_id: z.string(),
  refund_address: evmAddress,
  refund_address_at: timestamp,
  refund_address_signed_by: evmAddress.describe("The paying address that signed it"),
});

/** A member enters the customer's refund address after contact (issue 52): the address and a fresh proof. */
export const enterRefundAddressBody = z.object({
  refund_address: address.describe("The customer's address on the order's blockchain, as they told you"),
  reauth: reauthProof.describe("Fresh proof of the member entering it: { password }, plus { code } or { passkey } when two-factor authentication is on"),
});
export type EnterRefundAddressBody = z.infer<typeof enterRefundAddressBody>;

export const enteredRefundAddressJson = z.object({
  order_id: z.string(),
  refund_address: evmAddress,
  refund_address_at: timestamp,
  refund_address_source: z.literal("merchant"),
  refund_address_given_by: z.string().describe("The member who entered it"),
});
