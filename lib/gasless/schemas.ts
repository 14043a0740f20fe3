import { z } from "zod";
import { evmAddress } from "@/lib/http/schemas";

const uint = (what: string) =>
  z
    .string()
    .regex(/^\d{1,78}$/, "Must be a non-negative integer string.")
    .describe(what);
const seconds = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(2 ** 40)
    .describe(what);

/** The customer's signed EIP-3009 transferWithAuthorization, posted by the payment page. */
export const gaslessPaymentBody = z.object({
  from: evmAddress.describe("The paying wallet: the signer, whose tokens move"),
  to: evmAddress.describe("The order's deposit address (receiving_address)"),
  value: uint("Exactly the amount due now, in the token's base units"),
  valid_after: seconds("Unix seconds; the page's `gasless.valid_after` (the order's creation)"),
  valid_before: seconds("Unix seconds; the page's `gasless.valid_before` (the order's expiry) or earlier"),
  nonce: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "Must be 32 bytes of hex (0x…).")
    .describe("A random bytes32, new for every authorization"),
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{130}$/, "Must be a 65-byte hex signature (0x…).")
    .describe("The wallet's EIP-712 signature (eth_signTypedData_v4) of TransferWithAuthorization over these fields, in the token's domain"),
});
export type GaslessPaymentBody = z.infer<typeof gaslessPaymentBody>;

export const gaslessPaymentJson = z.object({
  status: z.enum(["mined", "pending"]).describe("mined: the transfer is in a block (the page then follows its confirmations); pending: sent, not mined yet"),
  transaction_hash: z.string().describe("The relayed transaction"),
});
