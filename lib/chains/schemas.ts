import { z } from "zod";
import { evmAddress } from "@/lib/http/schemas";

// Response shape: exactly what lib/chains/serialize.ts `serializeBlockchain` returns.
export const blockchainJson = z.object({
  id: z.number().int().describe("Numeric id: what POST /api/merchant-wallets/ takes as `blockchain`"),
  slug: z.string().describe("What orders take as `blockchain`, e.g. base"),
  name: z.string(),
  chain_id: z.number().int().describe("EVM chain id"),
  rpc_url: z.string().nullable().describe("Public RPC origin (the sandbox devnet's full URL); null when none is configured"),
  default_confirmations: z.number().int().describe("Confirmation threshold of a wallet that sets none"),
  native_currency: z.string().describe("Symbol of the native coin, e.g. ETH"),
  tokens: z
    .array(
      z.object({
        symbol: z.string(),
        address: evmAddress.nullable().describe("Token contract; null for the native coin"),
        decimals: z.number().int(),
      }),
    )
    .describe("Currencies orders on this blockchain may use"),
});
