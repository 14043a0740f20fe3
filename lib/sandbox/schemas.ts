import { z } from "zod";
import { typedAddress } from "@/lib/http/schemas";

const decimalAmount = z.string().regex(/^\d+(\.\d+)?$/, 'Enter a positive decimal amount as a string, e.g. "10.5".');

export const payOrderBody = z.object({
  amount: decimalAmount
    .optional()
    .describe("How much to send, in token units; default: what is still missing of the order (its whole amount in another currency)"),
  currency: z.string().min(1).max(16).optional().describe("Token to send; default: the order's currency (another token tests wrong-asset handling)"),
});
export type PayOrderBody = z.infer<typeof payOrderBody>;

export const mineBody = z.object({
  blocks: z.number().int().min(1).max(1000).default(1).describe("Blocks to mine (1–1000)"),
  blockchain: z.string().min(1).max(32).default("ethereum").describe("Any sandbox slug on the devnet"),
});
export type MineBody = z.infer<typeof mineBody>;

/** The deepest sandbox reorg: past any sandbox threshold, inside the gateway's re-check window (lib/engine/reorg-recheck.ts). */
export const maxReorgDepth = 64;

export const reorgBody = z.object({
  depth: z
    .number()
    .int()
    .min(1)
    .max(maxReorgDepth)
    .describe(`Blocks to take away from the top of the chain (1–${maxReorgDepth}); at least this many are replaced by a longer branch`),
  blockchain: z.string().min(1).max(32).default("ethereum").describe("Any sandbox slug on the devnet"),
});
export type ReorgBody = z.infer<typeof reorgBody>;

export const faucetBody = z.object({
  address: typedAddress,
  currency: z.string().min(1).max(16),
  amount: decimalAmount,
  blockchain: z.string().min(1).max(32).default("ethereum"),
});
export type FaucetBody = z.infer<typeof faucetBody>;

/** The payment page's sandbox controls (POST /api/pay/{order_id}/simulate/). */
export const simulateBody = z.object({
  kind: z
    .enum(["full", "partial", "mine"], "Must be one of full, partial, mine.")
    .describe("full: pay what is missing; partial: pay half of it; mine: mine the confirmations still needed"),
});
export type SimulateKind = z.infer<typeof simulateBody>["kind"];

// Response shapes of the sandbox tools (lib/sandbox/sandbox-tools.ts).

export const payOrderJson = z.object({
  transaction_hash: z.string(),
  order_id: z.string(),
  to_address: z.string().describe("The order's deposit address"),
  amount: z.string().describe("Amount sent, in token units"),
  currency: z.string(),
  blockchain: z.string(),
});

export const mineJson = z.object({
  blocks: z.number().int(),
  block_number: z.number().int().describe("The devnet's head after mining"),
  blockchain: z.string(),
});

export const reorgJson = z.object({
  depth: z.number().int().describe("Blocks replaced (at least the depth asked for: the devnet goes back to its newest saved state that deep)"),
  from_block: z.number().int().describe("The first height whose block was replaced: transactions from there on that are not on the new branch are gone"),
  block_number: z.number().int().describe("The head of the new, longer branch"),
  blockchain: z.string(),
  removed_transactions: z
    .array(z.string())
    .describe("Your transactions of the replaced blocks (payments to your orders, relays, sweeps, refunds): gone from the new branch"),
  kept_transactions: z
    .number()
    .int()
    .describe(
      "The other transactions of the replaced blocks (other merchants' on the shared devnet, faucet mints): mined again on the new branch, with the same hashes",
    ),
});

export const faucetJson = z.object({
  transaction_hash: z.string(),
  address: z.string(),
  amount: z.string(),
  currency: z.string(),
  blockchain: z.string(),
});

/** What the payment page's sandbox controls get back (lib/sandbox/simulate-payment.ts). */
export const simulatedPaymentJson = z.object({
  kind: z.enum(["full", "partial", "mine"]),
  transaction_hash: z.string().nullable().describe("null for kind mine"),
  amount: z.string(),
  currency: z.string(),
  blocks_to_mine: z.number().int().describe("Blocks mined in the background after this answer"),
});
