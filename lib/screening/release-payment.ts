import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { currentActor } from "@/lib/audit/context";
import type { Db } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { parseOrderKey } from "@/lib/orders/get-order-or-throw";
import { findMerchantOrder } from "@/lib/orders/queries";
import { findOrderFlags, releaseOrderFlags } from "./queries";

/**
 * Releases a payment held by screening: its flags read `released` (by whom, when) with an audit
 * entry, in one transaction; the next lifecycle pass confirms it if it is paid and deep enough,
 * with its one payment.confirmed. A payment held under the `refund` policy cannot be released.
 * Callers check the member's role (manage_account).
 */
export async function releaseHeldPayment(db: Db, merchantId: number, orderKey: string, now = new Date()) {
  const key = parseOrderKey(orderKey);
  const order = key ? await findMerchantOrder(db, merchantId, key) : null;
  if (!order) throw notFound("Payment order");
  return db.transaction(async (tx) => {
    const held = (await findOrderFlags(tx, merchantId, order.id)).filter((f) => f.status === "held");
    if (held.length === 0) throw new ApiError("CONFLICT", "This payment is not held by screening.");
    if (held.some((f) => f.action === "refund"))
      throw new ApiError("CONFLICT", "The store's screening policy is to refund this payment: it cannot be released.");
    const released = await releaseOrderFlags(tx, merchantId, order.id, currentActor().label ?? "system", now);
    await recordAudit(tx, {
      merchantId,
      action: "screening.payment_released",
      target: `payment_order:${order.orderId}`,
      before: { status: "held", addresses: [...new Set(released.map((f) => f.address))] },
      after: { status: "released" },
      now,
    });
    return { orderId: order.orderId, released: released.length };
  });
}
