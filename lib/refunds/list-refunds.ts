import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { getOrderOrThrow } from "@/lib/orders/get-order-or-throw";
import { listOrderRefunds } from "./queries";
import { serializeRefund } from "./serialize";

/** One of the merchant's orders' refunds, oldest first (another merchant's order is 404). */
export async function listRefunds(db: DbOrTx, merchantId: number, orderKey: string) {
  const order = await getOrderOrThrow(db, merchantId, orderKey);
  return (await listOrderRefunds(db, order.id)).map((refund) => serializeRefund(refund, order));
}
