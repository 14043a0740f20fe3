"use client";

import { useState } from "react";
import { SelectField } from "@/components/ui/action-form";
import type { ChainChoice } from "@/lib/dashboard/payment-choices";

const preferredToken = (tokens: string[]) => (tokens.includes("USDC") ? "USDC" : (tokens[0] ?? ""));

/**
 * A blockchain and a token select for an ActionForm, starting on `defaultChain` (one where the
 * merchant has a wallet) and offering only the chosen chain's tokens; a chain without a wallet says
 * so, since an order there cannot be created.
 */
export function ChainTokenFields({
  chains,
  defaultChain,
  tokenLabel = "Currency",
}: {
  chains: ChainChoice[];
  defaultChain: string | null;
  tokenLabel?: string;
}) {
  const [chain, setChain] = useState(defaultChain ?? chains[0]?.slug ?? "");
  const tokens = chains.find((c) => c.slug === chain)?.tokens ?? [];
  const [currency, setCurrency] = useState(preferredToken(tokens));
  const selected = chains.find((c) => c.slug === chain);
  return (
    <>
      <SelectField
        label="Blockchain"
        name="blockchain"
        value={chain}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setChain(next);
          const nextTokens = chains.find((c) => c.slug === next)?.tokens ?? [];
          if (!nextTokens.includes(currency)) setCurrency(preferredToken(nextTokens));
        }}
        options={chains.map((c) => ({ value: c.slug, label: c.hasWallet ? c.name : `${c.name} (no wallet)` }))}
        hint={selected && !selected.hasWallet ? "You have no wallet on this network: add one on the Wallets page first." : undefined}
      />
      <SelectField
        label={tokenLabel}
        name="currency"
        value={currency}
        onChange={(event) => setCurrency(event.currentTarget.value)}
        options={tokens.map((s) => ({ value: s, label: s }))}
      />
    </>
  );
}
