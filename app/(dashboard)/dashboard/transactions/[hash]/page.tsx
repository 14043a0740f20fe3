import Link from "next/link";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Badge, Card, DescriptionList } from "@/components/ui";
import { explorerUrl, formatDate } from "@/components/dashboard/format";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { ApiError } from "@/lib/http/errors";
import { getTransactionOrThrow } from "@/lib/transactions/transactions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.transactions"))("detail.metaTitle") };
}

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
  const t = await getTranslations("dashboard.transactions.detail");
  const link = chainId ? explorerUrl(chainId, "tx", tx.transaction_hash) : null;
  return (
    <>
      <p>
        <Link href="/dashboard/transactions">{t("back")}</Link>
      </p>
      <h1>
        {t("heading")} <Badge status={tx.status} />
      </h1>
      <Card>
        <DescriptionList
          items={[
            [t("hash"), <code key="h">{tx.transaction_hash}</code>],
            [
              t("explorer"),
              link ? (
                <a href={link} target="_blank" rel="noopener noreferrer">
                  {t("viewOnExplorer")}
                </a>
              ) : (
                t("noExplorer")
              ),
            ],
            [
              t("order"),
              tx.payment_order ? (
                <Link key="o" href={`/dashboard/orders/${tx.payment_order.order_id}`} className="mono">
                  {tx.payment_order.order_id}
                </Link>
              ) : null,
            ],
            [t("blockchain"), tx.blockchain],
            [t("amount"), `${tx.amount} ${tx.currency}`],
            [t("counts"), tx.counted ? t("yes") : t("no")],
            [t("block"), tx.block_number],
            [t("blockTime"), formatDate(tx.block_timestamp)],
            [t("confirmations"), tx.confirmations],
            [t("from"), <code key="f">{tx.from_address}</code>],
            [t("to"), <code key="t">{tx.to_address}</code>],
            [t("gasUsed"), tx.gas_used],
            [t("fee"), tx.transaction_fee],
            [t("seen"), formatDate(tx.created_at)],
          ]}
        />
      </Card>
    </>
  );
}
