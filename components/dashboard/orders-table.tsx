import Link from "next/link";
import { Badge } from "@/components/ui";
import type { PaymentOrder } from "@/lib/db/schema";
import { formatAmount } from "@/lib/orders/amounts";
import { chainSlug, formatDate } from "./format";

export function OrdersTable({ orders, caption }: { orders: PaymentOrder[]; caption: string }) {
  if (orders.length === 0) return <p>No orders yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Status</th>
            <th scope="col">Amount</th>
            <th scope="col">Received</th>
            <th scope="col">Blockchain</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} data-order-id={o.orderId}>
              <td>
                <Link href={`/dashboard/orders/${o.orderId}`} className="mono">
                  {o.orderId}
                </Link>
              </td>
              <td>
                <Badge status={o.status} />
              </td>
              <td>
                {formatAmount(BigInt(o.amount), o.decimals)} {o.currency}
              </td>
              <td>
                {formatAmount(BigInt(o.amountReceived), o.decimals)} {o.currency}
              </td>
              <td>{chainSlug(o.blockchainId)}</td>
              <td>{formatDate(o.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
