"use client";

import { useState } from "react";
import { Alert, Row } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";
import type { ChainChoice } from "@/lib/dashboard/payment-choices";
import { CopyButton } from "@/components/ui/copy-button";

interface CreatedOrder {
  order_id: string;
  amount: string;
  currency: string;
  blockchain: string;
  payment_url: string;
}

const preferredToken = (tokens: string[]) => (tokens.includes("USDC") ? "USDC" : (tokens[0] ?? ""));

/**
 * The dashboard's "Create order" form: it starts on a chain where the merchant has a wallet, offers
 * only the tokens of the chosen chain, and ends with the payment page's link rather than JSON.
 */
export function CreateOrderForm({
  action,
  chains,
  defaultChain,
  fiatCurrencies,
}: {
  action: (form: FormData) => Promise<ActionResult<unknown>>;
  chains: ChainChoice[];
  defaultChain: string | null;
  fiatCurrencies: string[];
}) {
  const [chain, setChain] = useState(defaultChain ?? chains[0]?.slug ?? "");
  const tokens = chains.find((c) => c.slug === chain)?.tokens ?? [];
  const [currency, setCurrency] = useState(preferredToken(tokens));
  const selected = chains.find((c) => c.slug === chain);

  return (
    <>
      {defaultChain === null ? (
        <Alert kind="warn">
          You have no wallet yet, so orders cannot be paid to you. <a href="/dashboard/wallets">Add a wallet</a> first.
        </Alert>
      ) : null}
      <ActionForm
        action={action}
        submitLabel="Create order"
        label="Create an order"
        resetOnSuccess={false}
        renderResult={(data) => {
          const order = data as CreatedOrder;
          return (
            <Alert kind="ok">
              <span data-testid="created-order">
                Order <strong>{order.order_id}</strong> for {order.amount} {order.currency} created.{" "}
                <a href={order.payment_url} target="_blank" rel="noreferrer">
                  Open its payment page
                </a>{" "}
                <CopyButton text={order.payment_url} label="Copy payment link" />
              </span>
            </Alert>
          );
        }}
      >
        <Row>
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
          <SelectField label="Paid in" name="currency" value={currency} onChange={(event) => setCurrency(event.currentTarget.value)} options={tokens.map((s) => ({ value: s, label: s }))} />
          <Field label="Price" name="price" required inputMode="decimal" placeholder="10.50" />
          <SelectField label="Priced in" name="price_currency" options={[{ value: "token", label: "the token" }, ...fiatCurrencies.map((c) => ({ value: c, label: c }))]} />
        </Row>
        <Field label="Order info (JSON, optional)" name="order_info" placeholder='{"sku":"A1"}' spellCheck={false} />
      </ActionForm>
    </>
  );
}
