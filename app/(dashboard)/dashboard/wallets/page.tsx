import Link from "next/link";
import type { Metadata } from "next";
import type { Address, Hex } from "viem";
import { Badge, Card, DescriptionList } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { FlushButton } from "@/components/dashboard/flush-button";
import { chainSlug, formatDate } from "@/components/dashboard/format";
import { findBlockchainById, listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { openSweeps } from "@/lib/chains/queries";
import { formatAmount } from "@/lib/orders/amounts";
import { listWallets } from "@/lib/wallets/queries";
import { maxConfirmationThreshold, minConfirmationThreshold } from "@/lib/wallets/schemas";
import { addWalletAction, updateWalletAction } from "./actions";
import { redactUrls } from "@/lib/redact";

export const metadata: Metadata = { title: "Wallets · Dashboard" };

export default async function WalletsPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
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
                ["State", <Badge key="s" status={w.isActive ? "active" : "other"}>{w.isActive ? "active" : "inactive"}</Badge>],
                ["Updated", formatDate(w.updatedAt)],
              ]}
            />
            <details style={{ marginTop: "0.75rem" }}>
              <summary>Edit</summary>
              <ActionForm action={updateWalletAction} submitLabel="Save wallet" successMessage="Wallet saved." resetOnSuccess={false} label={`Edit ${chain?.slug} wallet`}>
                <input type="hidden" name="id" value={String(w.id)} />
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
                <label style={{ display: "block", marginBottom: "0.75rem" }}>
                  <input type="checkbox" name="is_active" defaultChecked={w.isActive} /> Active (accepts new orders)
                </label>
                <Field label="Current password" name="password" type="password" autoComplete="current-password" hint="Needed only when the address changes." />
              </ActionForm>
            </details>
          </Card>
        );
      })}

      {free.length > 0 ? (
        <Card title="Add a wallet">
          <ActionForm action={addWalletAction} submitLabel="Add wallet" successMessage="Wallet added." label="Add a wallet">
            <SelectField label="Blockchain" name="blockchain" options={free.map((c) => ({ value: String(c.id), label: c.name }))} />
            <Field label="Wallet address" name="wallet_address" placeholder="0x…" required spellCheck={false} hint="An EVM address you control; mixed case must carry a valid checksum." />
            <Field
              label="Confirmation threshold"
              name="confirmation_threshold"
              type="number"
              min={minConfirmationThreshold}
              max={maxConfirmationThreshold}
              hint="Leave empty for the blockchain's default."
            />
            <label style={{ display: "block", marginBottom: "0.75rem" }}>
              <input type="checkbox" name="is_active" defaultChecked /> Active (accepts new orders)
            </label>
            <Field label="Current password" name="password" type="password" autoComplete="current-password" required hint="A payout address decides where payments go, so your password is asked again." />
          </ActionForm>
        </Card>
      ) : null}

      <Card title="Pending sweeps">
        <p>
          Deposits waiting to be forwarded to your wallet: confirmed orders, and failed or expired ones that received money (underpaid, paid late, or
          paid in another asset). The gateway retries on its own; you can also flush one yourself with a browser wallet.
        </p>
        {sweeps.length === 0 ? (
          <p>Nothing waiting.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Pending sweeps</caption>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Order state</th>
                  <th scope="col">Counted toward it</th>
                  <th scope="col">State</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Flush</th>
                </tr>
              </thead>
              <tbody>
                {sweeps.map(({ sweep, order }) => {
                  const chain = findBlockchainById(order.blockchainId);
                  return (
                    <tr key={sweep.id}>
                      <td>
                        <Link className="mono" href={`/dashboard/orders/${order.orderId}`}>
                          {order.orderId}
                        </Link>
                      </td>
                      <td>
                        <Badge status={order.status} />
                      </td>
                      <td>
                        {formatAmount(BigInt(order.amountReceived), order.decimals)} {order.currency}
                      </td>
                      <td>
                        <Badge status={sweep.status} />
                        {sweep.lastError ? <div>{redactUrls(sweep.lastError)}</div> : null}
                      </td>
                      <td>{sweep.attempts}</td>
                      <td>
                        {chain ? (
                          <FlushButton
                            chainId={chain.chainId}
                            factory={order.depositFactory as Address}
                            destination={order.depositDestination as Address}
                            salt={order.depositSalt as Hex}
                            tokens={chain.tokens.flatMap((t) => (t.address ? [t.address as Address] : []))}
                          />
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
