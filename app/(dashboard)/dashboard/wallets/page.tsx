import Link from "next/link";
import type { Metadata } from "next";
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

export const metadata: Metadata = { title: "Wallets · Dashboard" };

const sweepColumns: Array<Column<Awaited<ReturnType<typeof openSweeps>>[number]>> = [
  {
    header: "Order",
    cell: ({ order }) => (
      <Link className="mono" href={`/dashboard/orders/${order.orderId}`}>
        {order.orderId}
      </Link>
    ),
  },
  { header: "Order state", cell: ({ order }) => <Badge status={order.status} /> },
  { header: "Counted toward it", cell: ({ order }) => `${formatAmount(BigInt(order.amountReceived), order.decimals)} ${order.currency}` },
  {
    header: "State",
    cell: ({ sweep }) => (
      <>
        <Badge status={sweep.status} />
        {sweep.lastError ? <div>{redactUrls(sweep.lastError)}</div> : null}
      </>
    ),
  },
  { header: "Attempts", cell: ({ sweep }) => sweep.attempts },
  {
    header: "Flush",
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

  return (
    <>
      <h1>Wallets</h1>
      <p>One receiving wallet per blockchain. Each order&apos;s deposit address forwards only to the wallet configured when the order was created.</p>

      {wallets.map((w) => {
        const chain = findBlockchainById(w.blockchainId);
        return (
          <Card key={w.id} title={chain?.name ?? chainSlug(w.blockchainId)} headingLevel={3}>
            <DescriptionList
              items={[
                ["Address", <code key="a">{w.walletAddress}</code>],
                ["Confirmations", w.confirmationThreshold],
                [
                  "State",
                  <Badge key="s" status={w.isActive ? "active" : "other"}>
                    {w.isActive ? "active" : "inactive"}
                  </Badge>,
                ],
                ["Updated", formatDate(w.updatedAt)],
              ]}
            />
            <details style={{ marginTop: "0.75rem" }}>
              <summary>Edit</summary>
              <ActionForm
                action={updateWalletAction}
                submitLabel="Save wallet"
                successMessage="Wallet saved."
                resetOnSuccess={false}
                hiddenFields={{ id: w.id }}
                label={`Edit ${chain?.slug} wallet`}
              >
                <Field label="Wallet address" name="wallet_address" defaultValue={w.walletAddress} required spellCheck={false} />
                <Field
                  label="Confirmation threshold"
                  name="confirmation_threshold"
                  type="number"
                  min={minConfirmationThreshold}
                  max={maxConfirmationThreshold}
                  defaultValue={w.confirmationThreshold}
                  required
                />
                <Checkbox name="is_active" defaultChecked={w.isActive} label="Active (accepts new orders)" />
                <Field label="Current password" name="password" type="password" autoComplete="current-password" hint="Needed only when the address changes." />
                {twoFactor ? (
                  <Field label="Authentication code" name="code" autoComplete="one-time-code" maxLength={64} hint="Needed only when the address changes." />
                ) : null}
              </ActionForm>
            </details>
          </Card>
        );
      })}

      {free.length > 0 ? (
        <Card title="Add a wallet">
          <ActionForm action={addWalletAction} submitLabel="Add wallet" successMessage="Wallet added." label="Add a wallet">
            <SelectField label="Blockchain" name="blockchain" options={free.map((c) => ({ value: String(c.id), label: c.name }))} />
            <Field
              label="Wallet address"
              name="wallet_address"
              placeholder="0x…"
              required
              spellCheck={false}
              hint="An EVM address you control; mixed case must carry a valid checksum."
            />
            <Field
              label="Confirmation threshold"
              name="confirmation_threshold"
              type="number"
              min={minConfirmationThreshold}
              max={maxConfirmationThreshold}
              hint="Leave empty for the blockchain's default."
            />
            <Checkbox name="is_active" defaultChecked label="Active (accepts new orders)" />
            <Field
              label="Current password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              hint="A payout address decides where payments go, so your password is asked again."
            />
            {twoFactor ? (
              <Field
                label="Authentication code"
                name="code"
                autoComplete="one-time-code"
                required
                maxLength={64}
                hint="From your authenticator app, or a recovery code."
              />
            ) : null}
          </ActionForm>
        </Card>
      ) : null}

      <Card title="Pending sweeps">
        <p>
          Deposits waiting to be forwarded to your wallet: confirmed orders, and failed or expired ones that received money (underpaid, paid late, or paid in
          another asset). The gateway retries on its own; you can also flush one yourself with a browser wallet.
        </p>
        <DataTable caption="Pending sweeps" columns={sweepColumns} rows={sweeps} rowKey={(s) => s.sweep.id} empty="Nothing waiting." />
      </Card>
    </>
  );
}
