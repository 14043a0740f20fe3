import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { Alert, Card } from "@/components/ui";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import type { Column } from "@/components/ui/data-table";
import styles from "@/components/dashboard/dashboard.module.css";
import { ChainTokenFields } from "@/components/dashboard/chain-token-fields";
import { OrdersTable, orderColumns } from "@/components/dashboard/orders-table";
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

export const metadata: Metadata = { title: "Sandbox tools · Dashboard" };

const { order, status, amount, created } = orderColumns;
const payColumn: Column<OrderJson> = {
  header: "Actions",
  hideHeader: true,
  cell: (o) =>
    o.status === "pending" ? (
      <ActionForm action={payOrderAction} hiddenFields={{ order_id: o.order_id }} submitLabel="Pay in full" small label={`Pay ${o.order_id}`} />
    ) : null,
};

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
  const currencies = [...new Set(listBlockchains().flatMap((c) => c.tokens.map((t) => t.symbol)))].map((s) => ({ value: s, label: s }));

  return (
    <>
      <h1>Sandbox tools</h1>
      <p>Everything here runs on the local devnet with test tokens: no real money moves.</p>
      <div className={styles.grid}>
        <Card title="Create a test order">
          {choices.defaultChain === null ? (
            <Alert kind="warn">
              You have no wallet yet, so a test order cannot be created. <Link href="/dashboard/wallets">Add a wallet</Link> first (any address of yours on the
              network: the sandbox pays it from its faucet).
            </Alert>
          ) : null}
          <ActionForm action={createTestOrderAction} submitLabel="Create test order" showResult label="Create a test order">
            <ChainTokenFields chains={choices.chains} defaultChain={choices.defaultChain} />
            <Field label="Amount" name="amount" defaultValue="10.50" required inputMode="decimal" />
            <Field label="Webhook URL (optional)" name="webhook_url" type="url" placeholder={account ? inboxUrl(account.inboxToken, origin) : ""} />
          </ActionForm>
        </Card>
        <Card title="Simulate a payment">
          <ActionForm action={payOrderAction} submitLabel="Send payment" showResult label="Simulate a payment">
            <Field label="Order id" name="order_id" required placeholder="ORD-…" defaultValue={orders.find((o) => o.status === "pending")?.orderId ?? ""} />
            <Field label="Amount (optional)" name="amount" inputMode="decimal" hint="Empty: the order's full amount. Less tests underpayment." />
          </ActionForm>
        </Card>
        <Card title="Mine blocks">
          <ActionForm action={mineAction} submitLabel="Mine" showResult resetOnSuccess={false} label="Mine blocks">
            <Field label="Blocks" name="blocks" type="number" min={1} max={1000} defaultValue={3} required />
            <SelectField label="Blockchain" name="blockchain" options={chains} />
          </ActionForm>
        </Card>
        <Card title="Reorganise the chain">
          <ActionForm action={reorgAction} submitLabel="Reorg" showResult resetOnSuccess={false} label="Reorganise the chain">
            <Field
              label="Depth (blocks)"
              name="depth"
              type="number"
              min={1}
              max={maxReorgDepth}
              defaultValue={3}
              required
              hint="The newest blocks are replaced by a longer branch without your transactions: your payment in them vanishes and a payment.reorged webhook follows. Other merchants' transactions on the shared devnet are mined again."
            />
            <SelectField label="Blockchain" name="blockchain" options={chains} />
          </ActionForm>
        </Card>
        <Card title="Faucet">
          <ActionForm action={faucetAction} submitLabel="Send test funds" showResult label="Faucet">
            <Field label="Address" name="address" required placeholder="0x…" spellCheck={false} />
            <SelectField label="Currency" name="currency" options={currencies} />
            <Field label="Amount" name="amount" defaultValue="100" required inputMode="decimal" />
            <SelectField label="Blockchain" name="blockchain" options={chains} />
          </ActionForm>
        </Card>
      </div>

      <h2>Recent orders</h2>
      <OrdersTable
        caption="Recent orders"
        orders={await ordersWithMoney(db, merchant.merchantId, orders)}
        columns={[order, status, amount, created, payColumn]}
      />
    </>
  );
}
