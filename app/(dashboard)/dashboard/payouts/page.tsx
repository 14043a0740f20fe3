import type { Metadata } from "next";
import { Alert, Badge, Card, Row, uiStyles } from "@/components/ui";
import { ActionForm, SelectField } from "@/components/ui/action-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { CreateDialog } from "@/components/dashboard/create-dialog";
import { explorerUrl, formatDate, shorten } from "@/components/dashboard/format";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { roleAllows } from "@/lib/auth/roles";
import { disperserAddress } from "@/lib/payouts/disperser";
import { listPayouts } from "@/lib/payouts/list-payouts";
import { getPayoutSettings } from "@/lib/payouts/payout-settings";
import type { serializePayout } from "@/lib/payouts/serialize";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { SignPayoutButton } from "@/components/dashboard/sign-payout-button";
import { approvePayoutAction, cancelPayoutAction, createPayoutAction, reportPayoutTransactionAction } from "./actions";

export const metadata: Metadata = { title: "Payouts · Dashboard" };

type Batch = ReturnType<typeof serializePayout>;

const legColumns: Array<Column<Batch["legs"][number]>> = [
  { header: "#", cell: (l) => l.position },
  { header: "Address", cell: (l) => <code>{l.address}</code> },
  { header: "Amount", cell: (l) => `${l.amount}${l.fiat_amount ? ` (${l.fiat_amount})` : ""}` },
  { header: "Reference", cell: (l) => l.reference ?? "" },
  { header: "Status", cell: (l) => <Badge status={l.status}>{l.failure_reason ? `${l.status}: ${l.failure_reason}` : l.status}</Badge> },
];

// /dashboard/payouts – payout batches: upload a CSV, approve, see each leg with its transaction
export default async function PayoutsPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
  const [{ results: batches }, settings] = await Promise.all([
    listPayouts(db, merchant.merchantId, { limit: 50, offset: 0 }),
    getPayoutSettings(db, merchant.merchantId),
  ]);
  const assets = listBlockchains()
    .filter((chain) => disperserAddress(chain))
    .flatMap((chain) => chain.tokens.map((token) => ({ value: `${chain.slug}:${token.symbol}`, label: `${token.symbol} on ${chain.name}` })));
  const canCreate = roleAllows(merchant.role, "create_payments");
  const canApprove = roleAllows(merchant.role, "manage_account");

  const columns: Array<Column<Batch>> = [
    { header: "Batch", cell: (b) => `#${b.id}${b.note ? ` · ${b.note}` : ""}` },
    { header: "Created", cell: (b) => formatDate(b.created_at) },
    { header: "Total", cell: (b) => `${b.total} ${b.currency} on ${b.blockchain}${b.usd_value ? ` (≈ ${b.usd_value} USD)` : ""}` },
    { header: "Legs", cell: (b) => b.leg_count },
    {
      header: "Status",
      cell: (b) => <Badge status={b.status}>{b.status === "draft" && b.approval_required ? "draft · needs approval" : b.status}</Badge>,
    },
    {
      header: "Transaction",
      cell: (b) => {
        if (!b.transaction_hash) return "";
        const url = explorerUrl(listBlockchains().find((c) => c.slug === b.blockchain)?.id ?? 0, "tx", b.transaction_hash);
        return url ? <a href={url}>{shorten(b.transaction_hash)}</a> : <code>{shorten(b.transaction_hash)}</code>;
      },
    },
    {
      header: "Actions",
      hideHeader: true,
      cell: (b) => (
        <>
          {canApprove && b.status === "draft" && b.approval_required ? (
            <ActionForm action={approvePayoutAction} hiddenFields={{ id: b.id }} submitLabel="Approve" small label={`Approve batch ${b.id}`} />
          ) : null}
          {canCreate && b.transaction && (b.status === "draft" || b.status === "approved") ? (
            <SignPayoutButton
              batchId={b.id}
              allowanceReset={b.allowance_reset_transaction}
              allowance={b.allowance_transaction}
              transaction={b.transaction}
              report={reportPayoutTransactionAction}
            />
          ) : null}
          {canCreate && (b.status === "draft" || b.status === "approved") ? (
            <ActionForm
              action={cancelPayoutAction}
              hiddenFields={{ id: b.id }}
              submitLabel="Cancel"
              variant="danger"
              small
              confirmText={`Cancel batch #${b.id}?`}
              label={`Cancel batch ${b.id}`}
            />
          ) : null}
        </>
      ),
    },
  ];

  return (
    <>
      <h1>Payouts</h1>
      <p>
        Pay many addresses in one transaction signed by your own wallet. Batches worth more than{" "}
        {settings.approval_threshold_usd ? `${settings.approval_threshold_usd} USD` : "your approval threshold (none set)"} need a second member&apos;s approval
        first. Sign the batch&apos;s <code>transaction</code> from <code>GET /api/payouts/{"{id}"}/</code> and report its hash with{" "}
        <code>POST /api/payouts/{"{id}"}/transaction/</code>.
      </p>
      {canCreate && assets.length > 0 ? (
        <CreateDialog openLabel="New payout batch" title="New payout batch">
          <ActionForm action={createPayoutAction} submitLabel="Save as draft" successMessage="Batch saved as a draft.">
            <Row>
              <SelectField label="Pay in" name="asset" options={assets} />
              <SelectField
                label="Amounts in"
                name="amount_currency"
                options={[{ value: "token", label: "the token" }, ...Object.keys(fiatCurrencies).map((c) => ({ value: c, label: c }))]}
              />
            </Row>
            <label htmlFor="payout-csv">Recipients (CSV with a header row: address, amount, and optionally reference)</label>
            <textarea
              id="payout-csv"
              name="csv"
              rows={8}
              required
              placeholder={"address,amount,reference\n0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,25.50,INV-1001"}
            />
            <p className={uiStyles.hint}>Every row is checked; a refused row is named with its line, and nothing is saved until all pass.</p>
          </ActionForm>
        </CreateDialog>
      ) : null}
      {assets.length === 0 ? <Alert kind="warn">Payouts are not available on this deployment&apos;s networks yet.</Alert> : null}
      <Card title="Batches">
        <DataTable
          caption="Payout batches"
          columns={columns}
          rows={batches}
          rowKey={(b) => String(b.id)}
          rowData={(b) => ({ "data-payout-id": String(b.id) })}
          empty="No payout batches yet."
        />
      </Card>
      {batches.map((b) => (
        <Card key={b.id} title={`Batch #${b.id}: legs`} headingLevel={3}>
          <DataTable caption={`Legs of batch ${b.id}`} columns={legColumns} rows={b.legs} rowKey={(l) => String(l.position)} empty="No legs." />
        </Card>
      ))}
    </>
  );
}
