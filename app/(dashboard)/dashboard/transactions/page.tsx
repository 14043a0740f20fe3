import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Badge, Button, Card, Row, uiStyles } from "@/components/ui";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FilterForm, FilterInput, FilterSelect } from "@/components/ui/filter-form";
import { Pager } from "@/components/ui/pager";
import { formatDate } from "@/components/dashboard/format";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requestTime } from "@/lib/dashboard/clock";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { listTransactions } from "@/lib/transactions/transactions";
import type { serializeTransactionListItem } from "@/lib/transactions/serialize";
import { transactionStatuses, type ListTransactionsQuery } from "@/lib/transactions/schemas";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.transactions"))("metaTitle") };
}

type T = Awaited<ReturnType<typeof getTranslations<"dashboard.transactions">>>;

const pageSize = 25;

const columns = (t: T): Array<Column<ReturnType<typeof serializeTransactionListItem>>> => [
  {
    header: t("hash"),
    cell: (tx) => (
      <Link className="mono" href={`/dashboard/transactions/${tx.transaction_hash}`}>
        {tx.transaction_hash}
      </Link>
    ),
  },
  { header: t("status"), cell: (tx) => <Badge status={tx.status} /> },
  { header: t("amount"), cell: (tx) => `${tx.amount} ${tx.currency}` },
  { header: t("blockchain"), cell: "blockchain" },
  { header: t("seen"), cell: (tx) => formatDate(tx.created_at) },
];

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.transactions");
  const params = await searchParams;
  const one = (k: string) => (Array.isArray(params[k]) ? params[k][0] : params[k]) || undefined;
  const status = transactionStatuses.find((s) => s === one("status"));
  const blockchain = listBlockchains().find((c) => c.slug === one("blockchain"))?.slug;
  const pageNumber = Math.max(1, Math.min(100_000, Number.parseInt(one("page") ?? "1", 10) || 1));
  const query: ListTransactionsQuery = { page: pageNumber, page_size: pageSize, status, blockchain };
  const { count, results } = await listTransactions(await getDb(), merchant.merchantId, query);
  const now = requestTime().getTime();
  const today = new Date(now).toISOString().slice(0, 10);
  const monthAgo = new Date(now - 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const linkTo = (p: number) =>
    `/dashboard/transactions?${new URLSearchParams({ ...(status && { status }), ...(blockchain && { blockchain }), page: String(p) }).toString()}`;

  return (
    <>
      <h1>{t("heading")}</h1>
      <FilterForm label={t("filter")}>
        <FilterSelect label={t("status")} name="status" options={transactionStatuses} value={status} />
        <FilterSelect label={t("blockchain")} name="blockchain" options={listBlockchains().map((c) => ({ value: c.slug, label: c.name }))} value={blockchain} />
      </FilterForm>
      <p>{t("count", { count })}</p>
      <DataTable caption={t("heading")} columns={columns(t)} rows={results} rowKey={(tx, i) => `${tx.transaction_hash}-${i}`} empty={t("empty")} />
      <Pager page={pageNumber} lastPage={Math.max(1, Math.ceil(count / pageSize))} href={linkTo} />

      <Card title={t("export.title")}>
        <form method="get" action="/dashboard/transactions/export" aria-label={t("export.label")}>
          <Row>
            <FilterInput label={t("export.from")} id="movements-from" name="from" type="date" required value={monthAgo} />
            <FilterInput label={t("export.to")} id="movements-to" name="to" type="date" required value={today} />
            <FilterSelect
              label={t("export.layout")}
              name="layout"
              options={[
                { value: "movements", label: t("export.movements") },
                { value: "bank_statement", label: t("export.bankStatement") },
              ]}
              value="movements"
            />
            <FilterSelect label={t("export.currency")} name="currency" options={Object.keys(fiatCurrencies)} value="USD" />
            <Button type="submit" variant="secondary">
              {t("export.download")}
            </Button>
          </Row>
          <p className={uiStyles.hint}>{t("export.hint")}</p>
        </form>
      </Card>
    </>
  );
}
