import Link from "next/link";
import type { Metadata } from "next";
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

export const metadata: Metadata = { title: "Transactions · Dashboard" };

const pageSize = 25;

const columns: Array<Column<ReturnType<typeof serializeTransactionListItem>>> = [
  {
    header: "Hash",
    cell: (t) => (
      <Link className="mono" href={`/dashboard/transactions/${t.transaction_hash}`}>
        {t.transaction_hash}
      </Link>
    ),
  },
  { header: "Status", cell: (t) => <Badge status={t.status} /> },
  { header: "Amount", cell: (t) => `${t.amount} ${t.currency}` },
  { header: "Blockchain", cell: "blockchain" },
  { header: "Seen", cell: (t) => formatDate(t.created_at) },
];

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
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
      <h1>Transactions</h1>
      <FilterForm label="Filter transactions">
        <FilterSelect label="Status" name="status" options={transactionStatuses} value={status} />
        <FilterSelect label="Blockchain" name="blockchain" options={listBlockchains().map((c) => ({ value: c.slug, label: c.name }))} value={blockchain} />
      </FilterForm>
      <p>
        {count} transaction{count === 1 ? "" : "s"}
      </p>
      <DataTable caption="Transactions" columns={columns} rows={results} rowKey={(t, i) => `${t.transaction_hash}-${i}`} empty="No transactions yet." />
      <Pager page={pageNumber} lastPage={Math.max(1, Math.ceil(count / pageSize))} href={linkTo} />

      <Card title="Accounting export">
        <form method="get" action="/dashboard/transactions/export" aria-label="Export every on-chain movement as CSV">
          <Row>
            <FilterInput label="From" id="movements-from" name="from" type="date" required value={monthAgo} />
            <FilterInput label="To (inclusive)" id="movements-to" name="to" type="date" required value={today} />
            <FilterSelect
              label="Layout"
              name="layout"
              options={[
                { value: "movements", label: "Every movement (all columns)" },
                { value: "bank_statement", label: "Bank statement (date, description, amount, reference)" },
              ]}
              value="movements"
            />
            <FilterSelect label="Statement currency" name="currency" options={Object.keys(fiatCurrencies)} value="USD" />
            <Button type="submit" variant="secondary">
              Download CSV
            </Button>
          </Row>
          <p className={uiStyles.hint}>
            Every payment received, refund sent and deposit swept to your wallet, each with its fiat value: at the order&apos;s locked rate where it had one,
            else at the price recorded when the payment was detected (the rate&apos;s feed and time in their own columns); sweeps and gasless relays with their
            gas in coin and in US dollars. The bank statement layout imports into accounting software as a bank account in the statement&apos;s currency: money
            in positive, refunds and network fees negative. Dates are UTC days; at most 366 days per export.
          </p>
        </form>
      </Card>
    </>
  );
}
