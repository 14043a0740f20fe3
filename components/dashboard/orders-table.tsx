import Link from "next/link";
import { useTranslations } from "next-intl";
import { Badge, uiStyles } from "@/components/ui";
import { DataTable, type Column } from "@/components/ui/data-table";
import { isPartiallyPaid } from "@/lib/dashboard/partially-paid";
import { notCountedLabels } from "@/lib/orders/order-money";
import type { NotCountedReason } from "@/lib/transactions/schemas";
import type { OrderJson } from "@/lib/orders/serialize";
import { formatDate } from "./format";

/** The words of the order columns, in the dashboard's language (messages/*.json › dashboard.orderTable). */
export interface OrderColumnWords {
  order: string;
  status: string;
  amount: string;
  counted: string;
  blockchain: string;
  created: string;
  partiallyPaid: string;
  reversedByReorg: string;
  /** An order status (pending, confirmed, …) as the badge shows it. */
  statusName: (status: string) => string;
  notCounted: Record<NotCountedReason, string>;
}

const englishWords: OrderColumnWords = {
  order: "Order",
  status: "Status",
  amount: "Amount",
  counted: "Counted · arrived",
  blockchain: "Blockchain",
  created: "Created",
  partiallyPaid: "partially paid",
  reversedByReorg: "reversed by reorg",
  statusName: (status) => status,
  notCounted: notCountedLabels,
};

/** The order columns of the dashboard's tables in `words`, for pages that show a few of them. */
export function orderColumnsIn(words: OrderColumnWords) {
  return {
    order: {
      header: words.order,
      cell: (o) => (
        <Link href={`/dashboard/orders/${o.order_id}`} className="mono">
          {o.order_id}
        </Link>
      ),
    },
    status: {
      header: words.status,
      cell: (o) => (
        <>
          <Badge status={o.status}>{words.statusName(o.status)}</Badge>
          {isPartiallyPaid(o) ? (
            <>
              {" "}
              <Badge status="processing">{words.partiallyPaid}</Badge>
            </>
          ) : null}
          {o.payment_reversed ? (
            <>
              {" "}
              <Badge status="at_risk">{words.reversedByReorg}</Badge>
            </>
          ) : null}
        </>
      ),
    },
    amount: { header: words.amount, cell: (o) => `${o.amount} ${o.currency}` },
    // What counted, and beside it what arrived but did not count, with why (lib/orders/order-money.ts).
    received: {
      header: words.counted,
      cell: (o) => (
        <span data-testid="order-money">
          {`${o.amount_counted} ${o.currency}`}
          {o.not_counted.map((u) => (
            <span key={`${u.transaction_hash}-${u.reason}-${u.amount}`} className={uiStyles.hint}>
              <br />+ {u.amount} {u.currency} {words.notCounted[u.reason]}
            </span>
          ))}
        </span>
      ),
    },
    blockchain: { header: words.blockchain, cell: "blockchain" },
    created: { header: words.created, cell: (o) => formatDate(o.created_at) },
  } satisfies Record<string, Column<OrderJson>>;
}

/** The order columns in English (pages not yet translated). */
export const orderColumns = orderColumnsIn(englishWords);

/** The order columns' words from a translator of `dashboard.orderTable` (a page's getTranslations or useTranslations). */
export function orderColumnWords(t: (key: string) => string): OrderColumnWords {
  const known = new Set(["pending", "processing", "confirmed", "expired", "failed"]);
  return {
    order: t("order"),
    status: t("status"),
    amount: t("amount"),
    counted: t("counted"),
    blockchain: t("blockchain"),
    created: t("created"),
    partiallyPaid: t("partiallyPaid"),
    reversedByReorg: t("reversedByReorg"),
    statusName: (status) => (known.has(status) ? t(`statuses.${status}`) : status),
    notCounted: {
      after_expiry: t("notCounted.after_expiry"),
      wrong_asset: t("notCounted.wrong_asset"),
      reorged: t("notCounted.reorged"),
      reverted: t("notCounted.reverted"),
    },
  };
}

/**
 * Orders as the API serializes them (`serializeOrder`), each row linking to the order's page;
 * `columns` replaces the default set; the row of the order id `highlight` (just created) stands out.
 */
export function OrdersTable({
  orders,
  caption,
  columns,
  highlight,
}: {
  orders: OrderJson[];
  caption: string;
  columns?: Array<Column<OrderJson>>;
  highlight?: string;
}) {
  const t = useTranslations("dashboard.orderTable");
  const { order, status, amount, received, blockchain, created } = orderColumnsIn(orderColumnWords(t as unknown as (key: string) => string));
  return (
    <DataTable
      caption={caption}
      columns={columns ?? [order, status, amount, received, blockchain, created]}
      rows={orders}
      rowKey={(o) => o.id}
      rowData={(o) => ({ "data-order-id": o.order_id, "data-highlight": o.order_id === highlight ? "true" : undefined })}
      empty={t("empty")}
    />
  );
}
