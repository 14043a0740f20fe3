import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Badge, Card, DescriptionList } from "@/components/ui";
import { explorerUrl, formatDate } from "@/components/dashboard/format";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { ApiError } from "@/lib/http/errors";
import { getTransactionOrThrow } from "@/lib/transactions/transactions";

export const metadata: Metadata = { title: "Transaction · Dashboard" };

async function load(merchantId: number, hash: string) {
  try {
    return await getTransactionOrThrow(await getDb(), merchantId, hash);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export default async function TransactionPage({ params }: { params: Promise<{ hash: string }> }) {
  const merchant = await requirePageMerchant();
  const { hash } = await params;
  const tx = await load(merchant.merchantId, hash);
  if (!tx) notFound();
  const chainId = tx.blockchain ? findBlockchainBySlug(tx.blockchain)?.id : undefined;
  const link = chainId ? explorerUrl(chainId, "tx", tx.transaction_hash) : null;
  return (
    <>
      <p>
        <Link href="/dashboard/transactions">← Transactions</Link>
      </p>
      <h1>
        Transaction <Badge status={tx.status} />
      </h1>
      <Card>
        <DescriptionList
          items={[
            ["Hash", <code key="h">{tx.transaction_hash}</code>],
            [
              "Explorer",
              link ? (
                <a href={link} target="_blank" rel="noopener noreferrer">
                  View on explorer
                </a>
              ) : (
                "No public explorer for this network"
              ),
            ],
            [
              "Order",
              tx.payment_order ? (
                <Link key="o" href={`/dashboard/orders/${tx.payment_order.order_id}`} className="mono">
                  {tx.payment_order.order_id}
                </Link>
              ) : null,
            ],
            ["Blockchain", tx.blockchain],
            ["Amount", `${tx.amount} ${tx.currency}`],
            ["Counts toward order", tx.counted ? "yes" : "no"],
            ["Block", tx.block_number],
            ["Block time", formatDate(tx.block_timestamp)],
            ["Confirmations", tx.confirmations],
            ["From", <code key="f">{tx.from_address}</code>],
            ["To", <code key="t">{tx.to_address}</code>],
            ["Gas used", tx.gas_used],
            ["Fee", tx.transaction_fee],
            ["Seen", formatDate(tx.created_at)],
          ]}
        />
      </Card>
    </>
  );
}
