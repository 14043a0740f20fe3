import "server-only";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { orderMoney } from "@/lib/orders/order-money";
import { findOrdersScreening } from "@/lib/orders/queries";
import { serializeOrder, type OrderJson } from "@/lib/orders/serialize";
import { transfersOfOrders } from "@/lib/transactions/queries";

/**
 * A page of the merchant's orders as the dashboard's tables show them: the API's order with what
 * arrived beside what counted (lib/orders/order-money.ts) and its screening, read for the whole page at once.
 */
export async function ordersWithMoney(db: DbOrTx, merchantId: number, orders: PaymentOrder[]): Promise<OrderJson[]> {
  const ids = orders.map((o) => o.id);
  const [transfers, screening] = await Promise.all([transfersOfOrders(db, merchantId, ids), findOrdersScreening(db, ids)]);
  const byOrder = new Map<number, Transaction[]>();
  for (const t of transfers) byOrder.set(t.paymentOrderId!, [...(byOrder.get(t.paymentOrderId!) ?? []), t]);
  return orders.map((o) => serializeOrder(o, null, null, [], orderMoney(o, byOrder.get(o.id) ?? []), screening.get(o.id)!));
}
