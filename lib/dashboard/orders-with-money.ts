import "server-only";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { orderMoney } from "@/lib/orders/order-money";
import { serializeOrder, type OrderJson } from "@/lib/orders/serialize";
import { transfersOfOrders } from "@/lib/transactions/queries";

/**
 * A page of the merchant's orders as the dashboard's tables show them: the API's order with what
 * arrived beside what counted (lib/orders/order-money.ts), read for the whole page in one statement.
 */
export async function ordersWithMoney(db: DbOrTx, merchantId: number, orders: PaymentOrder[]): Promise<OrderJson[]> {
  const transfers = await transfersOfOrders(
    db,
    merchantId,
    orders.map((o) => o.id),
  );
  const byOrder = new Map<number, Transaction[]>();
  for (const t of transfers) byOrder.set(t.paymentOrderId!, [...(byOrder.get(t.paymentOrderId!) ?? []), t]);
  return orders.map((o) => serializeOrder(o, null, null, [], orderMoney(o, byOrder.get(o.id) ?? [])));
}
