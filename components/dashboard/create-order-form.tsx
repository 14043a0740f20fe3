"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { Alert, Row } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import type { ActionResult } from "@/lib/auth/authed-action";
import type { ChainChoice } from "@/lib/dashboard/payment-choices";
import { ChainTokenFields } from "./chain-token-fields";
import { CreatedCard } from "./created-card";

interface CreatedOrder {
  order_id: string;
  amount: string;
  currency: string;
  blockchain: string;
  payment_url: string;
  qr_svg: string;
}

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
  const t = useTranslations("dashboard.shared");
  const router = useRouter();
  const pathname = usePathname();

  return (
    <>
      {defaultChain === null ? (
        <Alert kind="warn">{t.rich("createOrder.noWallet", { link: (chunks) => <a href="/dashboard/wallets">{chunks}</a> })}</Alert>
      ) : null}
      <ActionForm
        action={action}
        submitLabel={t("createOrder.submit")}
        label={t("createOrder.label")}
        resetOnSuccess={false}
        onSuccess={(data) => router.replace(`${pathname}?created=${encodeURIComponent((data as CreatedOrder).order_id)}`, { scroll: false })}
        renderResult={(data) => {
          const order = data as CreatedOrder;
          return (
            <CreatedCard
              testId="created-order"
              heading={t.rich("createOrder.created", {
                id: order.order_id,
                amount: `${order.amount} ${order.currency}`,
                mono: (chunks) => <span className="mono">{chunks}</span>,
              })}
              url={order.payment_url}
              openLabel={t("createOrder.open")}
              qrSvg={order.qr_svg}
            />
          );
        }}
      >
        <Row>
          <ChainTokenFields chains={chains} defaultChain={defaultChain} tokenLabel={t("createOrder.paidIn")} />
          <Field label={t("createOrder.price")} name="price" required inputMode="decimal" placeholder="10.50" />
          <SelectField
            label={t("createOrder.pricedIn")}
            name="price_currency"
            options={[{ value: "token", label: t("createOrder.token") }, ...fiatCurrencies.map((c) => ({ value: c, label: c }))]}
          />
        </Row>
        <Field label={t("createOrder.orderInfo")} name="order_info" placeholder='{"sku":"A1"}' spellCheck={false} />
      </ActionForm>
    </>
  );
}
