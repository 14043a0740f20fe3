import Link from "next/link";
import type { Metadata } from "next";
import { Badge, Button, Card, PlainField, Row, uiStyles } from "@/components/ui";
import { formatDate } from "@/components/dashboard/format";
import { listBlockchains } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { listTransactions } from "@/lib/transactions/transactions";
import { transactionStatuses, type ListTransactionsQuery } from "@/lib/transactions/schemas";

export const metadata: Metadata = { title: "Transactions · Dashboard" };

const pageSize = 25;

export default async function TransactionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await requirePageMerchant();
  const params = await searchParams;
  const one = (k: string) => (Array.isArray(params[k]) ? params[k][0] : params[k]) || undefined;
  const status = transactionStatuses.find((s) => s === one("status"));
  const blockchain = listBlockchains().find((c) => c.slug === one("blockchain"))?.slug;
  const pageNumber = Math.max(1, Math.min(100_000, Number.parseInt(one("page") ?? "1", 10) || 1));
  const query: ListTransactionsQuery = { page: pageNumber, page_size: pageSize, status, blockchain };
  const { count, results } = await listTransactions(await getDb(), merchant.merchantId, query);
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  const linkTo = (p: number) => {
    const q = new URLSearchParams();
    if (status) q.set("status", status);
    if (blockchain) q.set("blockchain", blockchain);
    q.set("page", String(p));
    return `/dashboard/transactions?${q.toString()}`;
  };

  return (
    <>
      <h1>Transactions</h1>
      <Card>
        <form method="get" aria-label="Filter transactions">
          <Row>
            <PlainField label="Status" name="status">
              <select id="f-status" name="status" defaultValue={status ?? ""}>
                <option value="">Any</option>
                {transactionStatuses.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </PlainField>
            <PlainField label="Blockchain" name="blockchain">
              <select id="f-blockchain" name="blockchain" defaultValue={blockchain ?? ""}>
                <option value="">Any</option>
                {listBlockchains().map((c) => (
                  <option key={c.slug} value={c.slug}>
                    {c.name}
                  </option>
                ))}
              </select>
            </PlainField>
            <Button type="submit">Apply filters</Button>
          </Row>
        </form>
      </Card>
      <p>
        {count} transaction{count === 1 ? "" : "s"}
      </p>
      {results.length === 0 ? (
        <p>No transactions yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Transactions</caption>
            <thead>
              <tr>
                <th scope="col">Hash</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
                <th scope="col">Blockchain</th>
                <th scope="col">Seen</th>
              </tr>
            </thead>
            <tbody>
              {results.map((t, i) => (
                <tr key={`${t.transaction_hash}-${i}`}>
                  <td>
                    <Link className="mono" href={`/dashboard/transactions/${t.transaction_hash}`}>
                      {t.transaction_hash}
                    </Link>
                  </td>
                  <td>
                    <Badge status={t.status} />
                  </td>
                  <td>
                    {t.amount} {t.currency}
                  </td>
                  <td>{t.blockchain}</td>
                  <td>{formatDate(t.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className={uiStyles.pager} aria-label="Pages">
        {pageNumber > 1 ? <a href={linkTo(pageNumber - 1)}>← Previous</a> : null}
        <span>
          Page {Math.min(pageNumber, lastPage)} of {lastPage}
        </span>
        {pageNumber < lastPage ? <a href={linkTo(pageNumber + 1)}>Next →</a> : null}
      </nav>
    </>
  );
}
