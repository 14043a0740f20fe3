import Link from "next/link";
import { Badge, uiStyles } from "@/components/ui";
import { DataTable, type Column } from "@/components/ui/data-table";
import { isPartiallyPaid } from "@/lib/dashboard/partially-paid";
import { notCountedLabels } from "@/lib/orders/order-money";
import type { OrderJson } from "@/lib/orders/serialize";
import { formatDate } from "./format";

/** The order columns of the dashboard's tables, for pages that show a few of them. */
export const orderColumns = {
  order: {
    header: "Order",
    cell: (o) => (
      <Link href={`/dashboard/orders/${o.order_id}`} className="mono">
        {o.order_id}
      </Link>
    ),
  },
  status: {
    header: "Status",
    cell: (o) => (
      <>
        <Badge status={o.status} />
        {isPartiallyPaid(o) ? (
          <>
            {" "}
            <Badge status="processing">partially paid</Badge>
          </>
        ) : null}
        {o.payment_reversed ? (
          <>
            {" "}
            <Badge status="at_risk">reversed by reorg</Badge>
          </>
        ) : null}
      </>
    ),
  },
  amount: { header: "Amount", cell: (o) => `${o.amount} ${o.currency}` },
  // What counted, and beside it what arrived but did not count, with why (lib/orders/order-money.ts).
  received: {
    header: "Counted · arrived",
    cell: (o) => (
      <span data-testid="order-money">
        {`${o.amount_counted} ${o.currency}`}
        {o.not_counted.map((u) => (
          <span key={`${u.transaction_hash}-${u.reason}-${u.amount}`} className={uiStyles.hint}>
            <br />+ {u.amount} {u.currency} {notCountedLabels[u.reason]}
          </span>
        ))}
      </span>
    ),
  },
  blockchain: { header: "Blockchain", cell: "blockchain" },
  created: { header: "Created", cell: (o) => formatDate(o.created_at) },
} satisfies Record<string, Column<OrderJson>>;

const { order, status, amount, received, blockchain, created } = orderColumns;

/**
 * Orders as the API serializes them (`serializeOrder`), each row linking to the order's page;
 * `columns` replaces the default set; the row of the order id `highlight` (just created) stands out.
 */
export function OrdersTable({
  orders,
  caption,
  columns = [order, status, amount, received, blockchain, created],
  highlight,
}: {
  orders: OrderJson[];
  caption: string;
  columns?: Array<Column<OrderJson>>;
  highlight?: string;
}) {
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={orders}
      rowKey={(o) => o.id}
      rowData={(o) => ({ "data-order-id": o.order_id, "data-highlight": o.order_id === highlight ? "true" : undefined })}
      empty="No orders yet."
    />
  );
}
