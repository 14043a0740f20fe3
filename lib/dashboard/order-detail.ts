import "server-only";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { getOrderOrThrow } from "@/lib/orders/get-order-or-throw";
import { findOrderTransactionSummary } from "@/lib/orders/order-transaction";
import { findOrderSweep, findScannedHead } from "@/lib/chains/queries";
import { listOrderRelays } from "@/lib/gasless/queries";
import { listOrderRefunds } from "@/lib/refunds/queries";
import { serializeRefund } from "@/lib/refunds/serialize";
import { orderTransfers } from "@/lib/transactions/queries";
import { orderDeliveries, orderTimeline } from "@/lib/webhooks/queries";
import { buildOrderTimeline } from "./order-timeline";

/** One of the merchant's orders with its timeline (events, transfers and sweep in causal order: ./order-timeline.ts), transfers, refunds, gasless relays and webhook deliveries; null when it is not theirs. */
export async function loadOrderDetail(db: DbOrTx, merchantId: number, orderKey: string) {
  let order;
  try {
    order = await getOrderOrThrow(db, merchantId, orderKey);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
  const [events, transfers, deliveries, summary, head, sweep, refunds, relays] = await Promise.all([
    orderTimeline(db, merchantId, order.id),
    orderTransfers(db, merchantId, order.id),
    orderDeliveries(db, merchantId, order.id),
    findOrderTransactionSummary(db, order),
    findScannedHead(db, order.blockchainId),
    findOrderSweep(db, order.id),
    listOrderRefunds(db, order.id),
    listOrderRelays(db, merchantId, order.id),
  ]);
  return {
    order,
    events,
    timeline: buildOrderTimeline(order, events, transfers, sweep),
    transfers,
    deliveries,
    summary,
    head,
    sweep,
    refunds: refunds.map((r) => serializeRefund(r, order)),
    relays,
  };
}
