import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { Address, Hex } from "viem";
import { Badge, Card, DescriptionList } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { Checkbox } from "@/components/ui/checkbox";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FlushButton } from "@/components/dashboard/flush-button";
import { chainSlug, formatDate } from "@/components/dashboard/format";
import { findBlockchainById, listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { hasEnabledSecondFactor } from "@/lib/auth/second-factor";
import { openSweeps } from "@/lib/chains/queries";
import { formatAmount } from "@/lib/money/amounts";
import { listWallets } from "@/lib/wallets/queries";
import { maxConfirmationThreshold, minConfirmationThreshold } from "@/lib/chains/confirmation-bounds";
import { addWalletAction, updateWalletAction } from "./actions";
import { redactUrls } from "@/lib/redact";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.wallets"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.wallets">>>;

const sweepColumns = (t: T): Array<Column<Awaited<ReturnType<typeof openSweeps>>[number]>> => [
  {
    header: t("sweeps.order"),
    cell: ({ order }) => (
      <Link className="mono" href={`/dashboard/orders/${order.orderId}`}>
        {order.orderId}
      </Link>
    ),
  },
  { header: t("sweeps.orderState"), cell: ({ order }) => <Badge status={order.status} /> },
  { header: t("sweeps.counted"), cell: ({ order }) => `${formatAmount(BigInt(order.amountReceived), order.decimals)} ${order.currency}` },
  {
    header: t("sweeps.state"),
    cell: ({ sweep }) => (
      <>
        <Badge status={sweep.status} />
        {sweep.lastError ? <div>{redactUrls(sweep.lastError)}</div> : null}
      </>
    ),
  },
  { header: t("sweeps.attempts"), cell: ({ sweep }) => sweep.attempts },
  {
    header: t("sweeps.flush"),
    cell: ({ order }) => {
      const chain = findBlockchainById(order.blockchainId);
      return chain ? (
        <FlushButton
          chainId={chain.chainId}
          factory={order.depositFactory as Address}
          factoryVersion={order.depositFactoryVersion}
          destination={order.depositDestination as Address}
          salt={order.depositSalt as Hex}
          tokens={chain.tokens.flatMap((t) => (t.address ? [t.address as Address] : []))}
        />
      ) : null;
    },
  },
];

export default async function WalletsPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
  const twoFactor = await hasEnabledSecondFactor(db, merchant.userId);
  const [{ rows: wallets }, sweeps] = await Promise.all([listWallets(db, merchant.merchantId, { limit: 100, offset: 0 }), openSweeps(db, merchant.merchantId)]);
  const chains = listBlockchains();
  const free = chains.filter((c) => !wallets.some((w) => w.blockchainId === c.id));
  const t = await getTranslations("dashboard.wallets");

  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>

      {wallets.map((w) => {
        const chain = findBlockchainById(w.blockchainId);
        return (
          <Card key={w.id} title={chain?.name ?? chainSlug(w.blockchainId)} headingLevel={3}>
            <DescriptionList
              items={[
                [t("address"), <code key="a">{w.walletAddress}</code>],
                [t("confirmations"), w.confirmationThreshold],
                [
                  t("state"),
                  <Badge key="s" status={w.isActive ? "active" : "other"}>
                    {w.isActive ? t("active") : t("inactive")}
                  </Badge>,
                ],
                [t("updated"), formatDate(w.updatedAt)],
              ]}
            />
            <details style={{ marginTop: "0.75rem" }}>
              <summary>{t("edit")}</summary>
              <ActionForm
                action={updateWalletAction}
                submitLabel={t("save")}
                successMessage={t("saved")}
                resetOnSuccess={false}
                hiddenFields={{ id: w.id }}
                label={t("editLabel", { chain: String(chain?.slug) })}
              >
                <Field label={t("walletAddress")} name="wallet_address" defaultValue={w.walletAddress} required spellCheck={false} />
                <Field
                  label={t("threshold")}
                  name="confirmation_threshold"
                  type="number"
                  min={minConfirmationThreshold}
                  max={maxConfirmationThreshold}
                  defaultValue={w.confirmationThreshold}
                  required
                />
                <Checkbox name="is_active" defaultChecked={w.isActive} label={t("activeField")} />
                <Field label={t("password")} name="password" type="password" autoComplete="current-password" hint={t("onlyWhenAddressChanges")} />
                {twoFactor ? <Field label={t("code")} name="code" autoComplete="one-time-code" maxLength={64} hint={t("onlyWhenAddressChanges")} /> : null}
              </ActionForm>
            </details>
          </Card>
        );
      })}

      {free.length > 0 ? (
        <Card title={t("add.title")}>
          <ActionForm action={addWalletAction} submitLabel={t("add.submit")} successMessage={t("add.done")} label={t("add.title")}>
            <SelectField label={t("add.blockchain")} name="blockchain" options={free.map((c) => ({ value: String(c.id), label: c.name }))} />
            <Field label={t("walletAddress")} name="wallet_address" placeholder="0x…" required spellCheck={false} hint={t("add.addressHint")} />
            <Field
              label={t("threshold")}
              name="confirmation_threshold"
              type="number"
              min={minConfirmationThreshold}
              max={maxConfirmationThreshold}
              hint={t("add.thresholdHint")}
            />
            <Checkbox name="is_active" defaultChecked label={t("activeField")} />
            <Field label={t("password")} name="password" type="password" autoComplete="current-password" required hint={t("add.passwordHint")} />
            {twoFactor ? <Field label={t("code")} name="code" autoComplete="one-time-code" required maxLength={64} hint={t("add.codeHint")} /> : null}
          </ActionForm>
        </Card>
      ) : null}

      <Card title={t("sweeps.title")}>
        <p>{t("sweeps.explain")}</p>
        <DataTable caption={t("sweeps.title")} columns={sweepColumns(t)} rows={sweeps} rowKey={(s) => s.sweep.id} empty={t("sweeps.empty")} />
      </Card>
    </>
  );
}
