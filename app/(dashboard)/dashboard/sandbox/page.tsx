import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import Link from "next/link";
import { Alert, Card } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import type { Column } from "@/components/ui/data-table";
import styles from "@/components/dashboard/dashboard.module.css";
import { ChainTokenFields } from "@/components/dashboard/chain-token-fields";
import { OrdersTable, orderColumnWords, orderColumnsIn } from "@/components/dashboard/orders-table";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { paymentChoices } from "@/lib/dashboard/payment-choices";
import { recentOrders } from "@/lib/orders/queries";
import { isSandbox } from "@/lib/env";
import type { OrderJson } from "@/lib/orders/serialize";
import { ordersWithMoney } from "@/lib/dashboard/orders-with-money";
import { inboxUrl } from "@/lib/webhooks/inbox-url";
import { checkOrigin } from "@/lib/dashboard/request-origin";
import { headers } from "next/headers";
import { accountSecretsByIds } from "@/lib/auth/queries";
import { maxReorgDepth } from "@/lib/sandbox/schemas";
import { createTestOrderAction, faucetAction, mineAction, payOrderAction, reorgAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.sandbox"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.sandbox">>>;

const payColumn = (t: T): Column<OrderJson> => ({
  header: t("actions"),
  hideHeader: true,
  cell: (o) =>
    o.status === "pending" ? (
      <ActionForm
        action={payOrderAction}
        hiddenFields={{ order_id: o.order_id }}
        submitLabel={t("payInFull")}
        small
        label={t("payLabel", { order: o.order_id })}
      />
    ) : null,
});

export default async function SandboxPage() {
  if (!isSandbox) notFound();
  const merchant = await requirePageMerchant();
  const db = await getDb();
  // Sandbox URLs this server calls itself point where it is reached now, whatever APP_URL says.
  const { origin } = checkOrigin(await headers());
  const [orders, [account], choices] = await Promise.all([
    recentOrders(db, merchant.merchantId, 10),
    accountSecretsByIds(db, [merchant.merchantId]),
    paymentChoices(db, merchant.merchantId),
  ]);
  // Chains with a wallet first: the tools below start where the merchant's orders are.
  const chains = choices.chains.map((c) => ({ value: c.slug, label: c.name }));
  const t = await getTranslations("dashboard.sandbox");
  const { order, status, amount, created } = orderColumnsIn(
    orderColumnWords((await getTranslations("dashboard.orderTable")) as unknown as (key: string) => string),
  );
  const currencies = [...new Set(listBlockchains().flatMap((c) => c.tokens.map((t) => t.symbol)))].map((s) => ({ value: s, label: s }));

  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>
      <div className={styles.grid}>
        <Card title={t("create.title")}>
          {choices.defaultChain === null ? (
            <Alert kind="warn">{t.rich("create.noWallet", { link: (chunks) => <Link href="/dashboard/wallets">{chunks}</Link> })}</Alert>
          ) : null}
          <ActionForm action={createTestOrderAction} submitLabel={t("create.submit")} showResult label={t("create.title")}>
            <ChainTokenFields chains={choices.chains} defaultChain={choices.defaultChain} />
            <Field label={t("create.amount")} name="amount" defaultValue="10.50" required inputMode="decimal" />
            <Field label={t("create.webhookUrl")} name="webhook_url" type="url" placeholder={account ? inboxUrl(account.inboxToken, origin) : ""} />
          </ActionForm>
        </Card>
        <Card title={t("pay.title")}>
          <ActionForm action={payOrderAction} submitLabel={t("pay.submit")} showResult label={t("pay.title")}>
            <Field
              label={t("pay.orderId")}
              name="order_id"
              required
              placeholder="ORD-…"
              defaultValue={orders.find((o) => o.status === "pending")?.orderId ?? ""}
            />
            <Field label={t("pay.amount")} name="amount" inputMode="decimal" hint={t("pay.amountHint")} />
          </ActionForm>
        </Card>
        <Card title={t("mine.title")}>
          <ActionForm action={mineAction} submitLabel={t("mine.submit")} showResult resetOnSuccess={false} label={t("mine.title")}>
            <Field label={t("mine.blocks")} name="blocks" type="number" min={1} max={1000} defaultValue={3} required />
            <SelectField label={t("mine.blockchain")} name="blockchain" options={chains} />
          </ActionForm>
        </Card>
        <Card title={t("reorg.title")}>
          <ActionForm action={reorgAction} submitLabel={t("reorg.submit")} showResult resetOnSuccess={false} label={t("reorg.title")}>
            <Field label={t("reorg.depth")} name="depth" type="number" min={1} max={maxReorgDepth} defaultValue={3} required hint={t("reorg.depthHint")} />
            <SelectField label={t("reorg.blockchain")} name="blockchain" options={chains} />
          </ActionForm>
        </Card>
        <Card title={t("faucet.title")}>
          <ActionForm action={faucetAction} submitLabel={t("faucet.submit")} showResult label={t("faucet.title")}>
            <Field label={t("faucet.address")} name="address" required placeholder="0x…" spellCheck={false} />
            <SelectField label={t("faucet.currency")} name="currency" options={currencies} />
            <Field label={t("faucet.amount")} name="amount" defaultValue="100" required inputMode="decimal" />
            <SelectField label={t("faucet.blockchain")} name="blockchain" options={chains} />
          </ActionForm>
        </Card>
      </div>

      <h2>{t("recent")}</h2>
      <OrdersTable
        caption={t("recent")}
        orders={await ordersWithMoney(db, merchant.merchantId, orders)}
        columns={[order, status, amount, created, payColumn(t)]}
      />
    </>
  );
}
