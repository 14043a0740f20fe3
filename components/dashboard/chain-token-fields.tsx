"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { SelectField } from "@/components/ui/action-form";
import type { ChainChoice } from "@/lib/dashboard/payment-choices";

const preferredToken = (tokens: string[]) => (tokens.includes("USDC") ? "USDC" : (tokens[0] ?? ""));

/**
 * A blockchain and a token select for an ActionForm, starting on `defaultChain` (one where the
 * merchant has a wallet) and offering only the chosen chain's tokens; a chain without a wallet says
 * so, since an order there cannot be created.
 */
export function ChainTokenFields({ chains, defaultChain, tokenLabel }: { chains: ChainChoice[]; defaultChain: string | null; tokenLabel?: string }) {
  const t = useTranslations("dashboard.shared.chainFields");
  const [chain, setChain] = useState(defaultChain ?? chains[0]?.slug ?? "");
  const tokens = chains.find((c) => c.slug === chain)?.tokens ?? [];
  const [currency, setCurrency] = useState(preferredToken(tokens));
  const selected = chains.find((c) => c.slug === chain);
  return (
    <>
      <SelectField
        label={t("blockchain")}
        name="blockchain"
        value={chain}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setChain(next);
          const nextTokens = chains.find((c) => c.slug === next)?.tokens ?? [];
          if (!nextTokens.includes(currency)) setCurrency(preferredToken(nextTokens));
        }}
        options={chains.map((c) => ({ value: c.slug, label: c.hasWallet ? c.name : t("noWallet", { chain: c.name }) }))}
        hint={selected && !selected.hasWallet ? t("noWalletHint") : undefined}
      />
      <SelectField
        label={tokenLabel ?? t("currency")}
        name="currency"
        value={currency}
        onChange={(event) => setCurrency(event.currentTarget.value)}
        options={tokens.map((s) => ({ value: s, label: s }))}
      />
    </>
  );
}
