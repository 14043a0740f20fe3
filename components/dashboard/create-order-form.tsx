"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { Alert, Row } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";
import type { ChainChoice } from "@/lib/dashboard/payment-choices";
import { CreatedCard } from "./created-card";

interface CreatedOrder {
  order_id: string;
  amount: string;
  currency: string;
  blockchain: string;
  payment_url: string;
  qr_svg: string;
}

const preferredToken = (tokens: string[]) => (tokens.includes("USDC") ? "USDC" : (tokens[0] ?? ""));

/**
 * The dashboard's "Create order" form: it starts on a chain where the merchant has a wallet, offers
 * only the tokens of the chosen chain, and ends with a success card (payment page, link, QR); the
 * list behind it is reloaded with the new order highlighted (`?created=`).
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
  const router = useRouter();
  const pathname = usePathname();

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
        onSuccess={(data) => router.replace(`${pathname}?created=${encodeURIComponent((data as CreatedOrder).order_id)}`, { scroll: false })}
        renderResult={(data) => {
          const order = data as CreatedOrder;
          return (
            <CreatedCard
              testId="created-order"
              heading={
                <>
                  Order <span className="mono">{order.order_id}</span> for {order.amount} {order.currency} created.
                </>
              }
              url={order.payment_url}
              openLabel="Open its payment page"
              qrSvg={order.qr_svg}
            />
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
          <SelectField
            label="Paid in"
            name="currency"
            value={currency}
            onChange={(event) => setCurrency(event.currentTarget.value)}
            options={tokens.map((s) => ({ value: s, label: s }))}
          />
          <Field label="Price" name="price" required inputMode="decimal" placeholder="10.50" />
          <SelectField
            label="Priced in"
            name="price_currency"
            options={[{ value: "token", label: "the token" }, ...fiatCurrencies.map((c) => ({ value: c, label: c }))]}
          />
        </Row>
        <Field label="Order info (JSON, optional)" name="order_info" placeholder='{"sku":"A1"}' spellCheck={false} />
      </ActionForm>
    </>
  );
}
