import "server-only";
import { listBlockchains } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { findActiveWalletChainIds } from "@/lib/wallets/queries";

export interface ChainChoice {
  slug: string;
  name: string;
  /** The tokens an order on this chain can be paid in. */
  tokens: string[];
  /** The merchant has an active wallet here: an order on this chain can be created. */
  hasWallet: boolean;
}

export interface PaymentChoices {
  /** Chains with a wallet first (in catalog order), then the others. */
  chains: ChainChoice[];
  /** The first chain with a wallet; null when the merchant has none yet. */
  defaultChain: string | null;
  /** `slug:SYMBOL` for every token on a chain with a wallet: what a payment link may offer. */
  linkOptions: Array<{ value: string; label: string }>;
}

/**
 * What the dashboard's create forms may offer this merchant: they default to a chain where an
 * order can be created (one with an active wallet) and offer only that chain's tokens.
 */
export async function paymentChoices(db: DbOrTx, merchantId: number): Promise<PaymentChoices> {
  const withWallet = await findActiveWalletChainIds(db, merchantId);
  const all = listBlockchains().map((c) => ({ slug: c.slug, name: c.name, tokens: c.tokens.map((t) => t.symbol), hasWallet: withWallet.has(c.id) }));
  const chains = [...all.filter((c) => c.hasWallet), ...all.filter((c) => !c.hasWallet)];
  return {
    chains,
    defaultChain: chains.find((c) => c.hasWallet)?.slug ?? null,
    linkOptions: chains.filter((c) => c.hasWallet).flatMap((c) => c.tokens.map((t) => ({ value: `${c.slug}:${t}`, label: `${t} on ${c.name}` }))),
  };
}
