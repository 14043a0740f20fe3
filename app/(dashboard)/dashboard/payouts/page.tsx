import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.payouts"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.payouts">>>;

type Batch = ReturnType<typeof serializePayout>;

const legColumns = (t: T): Array<Column<Batch["legs"][number]>> => [
  { header: "#", cell: (l) => l.position },
  { header: t("leg.address"), cell: (l) => <code>{l.address}</code> },
  { header: t("leg.amount"), cell: (l) => `${l.amount}${l.fiat_amount ? ` (${l.fiat_amount})` : ""}` },
  { header: t("leg.reference"), cell: (l) => l.reference ?? "" },
  { header: t("leg.status"), cell: (l) => <Badge status={l.status}>{l.failure_reason ? `${l.status}: ${l.failure_reason}` : l.status}</Badge> },
];

// /dashboard/payouts – payout batches: upload a CSV, approve, see each leg with its transaction
export default async function PayoutsPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.payouts");
  const db = await getDb();
  const [{ results: batches }, settings] = await Promise.all([
    listPayouts(db, merchant.merchantId, { limit: 50, offset: 0 }),
    getPayoutSettings(db, merchant.merchantId),
  ]);
  const assets = listBlockchains()
    .filter((chain) => disperserAddress(chain))
    .flatMap((chain) =>
      chain.tokens.map((token) => ({ value: `${chain.slug}:${token.symbol}`, label: t("tokenOn", { token: token.symbol, chain: chain.name }) })),
    );
  const canCreate = roleAllows(merchant.role, "create_payments");
  const canApprove = roleAllows(merchant.role, "manage_account");

  const columns: Array<Column<Batch>> = [
    { header: t("batch"), cell: (b) => `#${b.id}${b.note ? ` · ${b.note}` : ""}` },
    { header: t("created"), cell: (b) => formatDate(b.created_at) },
    {
      header: t("total"),
      cell: (b) =>
        b.usd_value
          ? t("totalUsd", { amount: `${b.total} ${b.currency}`, chain: b.blockchain, usd: b.usd_value })
          : t("totalValue", { amount: `${b.total} ${b.currency}`, chain: b.blockchain }),
    },
    { header: t("legs"), cell: (b) => b.leg_count },
    {
      header: t("status"),
      cell: (b) => <Badge status={b.status}>{b.status === "draft" && b.approval_required ? t("draftNeedsApproval") : b.status}</Badge>,
    },
    {
      header: t("transaction"),
      cell: (b) => {
        if (!b.transaction_hash) return "";
        const url = explorerUrl(listBlockchains().find((c) => c.slug === b.blockchain)?.id ?? 0, "tx", b.transaction_hash);
        return url ? <a href={url}>{shorten(b.transaction_hash)}</a> : <code>{shorten(b.transaction_hash)}</code>;
      },
    },
    {
      header: t("actions"),
      hideHeader: true,
      cell: (b) => (
        <>
          {canApprove && b.status === "draft" && b.approval_required ? (
            <ActionForm
              action={approvePayoutAction}
              hiddenFields={{ id: String(b.id) }}
              submitLabel={t("approve")}
              small
              label={t("approveLabel", { id: String(b.id) })}
            />
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
              hiddenFields={{ id: String(b.id) }}
              submitLabel={t("cancel")}
              variant="danger"
              small
              confirmText={t("cancelConfirm", { id: String(b.id) })}
              label={t("cancelLabel", { id: String(b.id) })}
            />
          ) : null}
        </>
      ),
    },
  ];

  return (
    <>
      <h1>{t("heading")}</h1>
      <p>
        {t.rich("intro", {
          threshold: settings.approval_threshold_usd ? t("thresholdUsd", { amount: settings.approval_threshold_usd }) : t("noThreshold"),
          code: (chunks) => <code>{chunks}</code>,
        })}
      </p>
      {canCreate && assets.length > 0 ? (
        <CreateDialog openLabel={t("create.title")} title={t("create.title")}>
          <ActionForm action={createPayoutAction} submitLabel={t("create.submit")} successMessage={t("create.done")}>
            <Row>
              <SelectField label={t("create.payIn")} name="asset" options={assets} />
              <SelectField
                label={t("create.amountsIn")}
                name="amount_currency"
                options={[{ value: "token", label: t("create.token") }, ...Object.keys(fiatCurrencies).map((c) => ({ value: c, label: c }))]}
              />
            </Row>
            <label htmlFor="payout-csv">{t("create.recipients")}</label>
            <textarea
              id="payout-csv"
              name="csv"
              rows={8}
              required
              placeholder={"address,amount,reference\n0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,25.50,INV-1001"}
            />
            <p className={uiStyles.hint}>{t("create.hint")}</p>
          </ActionForm>
        </CreateDialog>
      ) : null}
      {assets.length === 0 ? <Alert kind="warn">{t("unavailable")}</Alert> : null}
      <Card title={t("batches")}>
        <DataTable
          caption={t("batchesCaption")}
          columns={columns}
          rows={batches}
          rowKey={(b) => String(b.id)}
          rowData={(b) => ({ "data-payout-id": String(b.id) })}
          empty={t("empty")}
        />
      </Card>
      {batches.map((b) => (
        <Card key={b.id} title={t("legsTitle", { id: String(b.id) })} headingLevel={3}>
          <DataTable
            caption={t("legsCaption", { id: String(b.id) })}
            columns={legColumns(t)}
            rows={b.legs}
            rowKey={(l) => String(l.position)}
            empty={t("noLegs")}
          />
        </Card>
      ))}
    </>
  );
}
