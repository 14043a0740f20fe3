import "server-only";
import { isAddressEqual, type Address } from "viem";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { findPublicOrderRow, refundAddressAllowed } from "@/lib/orders/public-order";
import { setOrderRefundAddress } from "@/lib/orders/queries";
import { assertRefundDestination } from "./refund-destination";

/**
 * The payment page's "where should we send your money back?": stored on the order for the merchant
 * (order page, refund form, `refund_address` in the order JSON). Only for overpaid, underpaid or
 * late orders, and only once: the order id is public in the page's URL, so a second answer could
 * be someone else's; a correction goes through the merchant.
 */
export async function setRefundAddress(db: DbOrTx, orderId: string, address: string, now = new Date()) {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const refundAddress = await assertRefundDestination(db, order.merchantId, address, "refund_address");
  if (!refundAddressAllowed(order)) throw new ApiError("ORDER_NOT_REFUNDABLE", "A refund address can be left only for an overpaid, underpaid or late payment.");
  if (isAddressEqual(refundAddress, order.receivingAddress as Address)) {
    throw validationError({ refund_address: ["Enter your own wallet address, not the zero address or the order's deposit address."] });
  }
  if (order.refundAddress) throw new ApiError("CONFLICT", "A refund address was already left for this order; contact the merchant to change it.");
  const updated = await setOrderRefundAddress(db, order.id, refundAddress, now);
  if (!updated) throw new ApiError("CONFLICT", "A refund address was already left for this order; contact the merchant to change it.");
  return { order_id: updated.orderId, refund_address: updated.refundAddress!, refund_address_at: updated.refundAddressAt!.toISOString() };
}
