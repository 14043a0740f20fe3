import { zeroAddress } from "viem";
import { z } from "zod";
import { reauthProof } from "@/lib/auth/schemas";
import { evmAddress, timestamp, typedAddress } from "@/lib/http/schemas";
import { maxConfirmationThreshold, minConfirmationThreshold } from "@/lib/chains/confirmation-bounds";

/**
 * An EVM address, stored checksummed. Mixed-case input must carry a valid EIP-55 checksum
 * (a typo in a checksummed address is caught, not silently accepted); all-lowercase and
 * all-uppercase input has no checksum to check. The zero address burns funds and is refused.
 */
export const walletAddress = typedAddress
  .refine((value) => value !== zeroAddress, "The zero address cannot receive payments.")
  .describe("Receiving address on that blockchain; returned checksummed");

const confirmationThreshold = z
  .number()
  .int("Must be a whole number.")
  .min(minConfirmationThreshold, `Must be at least ${minConfirmationThreshold}.`)
  .max(maxConfirmationThreshold, `Must be at most ${maxConfirmationThreshold}.`)
  .describe("Confirmations required before an order counts as confirmed; defaults to the blockchain's default_confirmations");

export const createWalletBody = z.object({
  blockchain: z.number().int("Must be a whole number.").describe("Numeric blockchain id from GET /api/blockchains/ (not the slug)"),
  wallet_address: walletAddress,
  confirmation_threshold: confirmationThreshold.optional(),
  is_active: z.boolean().optional().describe("Inactive wallets accept no new orders; defaults to true"),
  reauth: reauthProof
    .optional()
    .describe(
      "Fresh proof of the login: { password }, plus { code } with two-factor authentication. Needed unless the access token is the account's own login, signed in (password and second factor) in the last 10 minutes",
    ),
});
export type CreateWalletBody = z.infer<typeof createWalletBody>;

export const updateWalletBody = z
  .object({
    wallet_address: walletAddress.optional(),
    confirmation_threshold: confirmationThreshold.optional(),
    is_active: z.boolean().optional(),
    reauth: reauthProof.optional(),
  })
  .refine((body) => body.wallet_address !== undefined || body.confirmation_threshold !== undefined || body.is_active !== undefined, {
    message: "Provide at least one of wallet_address, confirmation_threshold, is_active.",
  });
export type UpdateWalletBody = z.infer<typeof updateWalletBody>;

// Response shape: exactly what lib/wallets/serialize.ts returns.
export const walletJson = z.object({
  id: z.number().int(),
  blockchain: z.number().int().describe("Numeric blockchain id (GET /api/blockchains/)"),
  blockchain_slug: z.string().nullable().describe("The blockchain's slug, e.g. base"),
  wallet_address: evmAddress.describe("Receiving address, checksummed"),
  confirmation_threshold: z.number().int(),
  is_active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
