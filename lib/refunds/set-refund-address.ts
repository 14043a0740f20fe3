import "server-only";
import { getAddress, isAddressEqual, verifyMessage, type Address, type Hex } from "viem";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { findPublicOrderRow, refundAddressAllowed } from "@/lib/orders/public-order";
import { listOrderPayers, setOrderRefundAddress } from "@/lib/orders/queries";
import { assertRefundDestination } from "./refund-destination";
import { refundAddressMessage } from "./refund-address-message";

/**
 * The payment page's "where should we send your money back?": stored on the order for the merchant
 * (order page, refund form, `refund_address` and `refund_address_signed_by` in the order JSON). Only
 * for overpaid, underpaid or late orders, and only with a personal_sign signature of
 * refundAddressMessage by an address that paid the order (a sender of a counted transfer): the
 * order id is public in the page's URL, so an unsigned answer could be anyone's (issue 24). A
 * payer's signature replaces whatever was left before, so a later payer signature is the only way
 * to change it.
 */
export async function setRefundAddress(db: DbOrTx, orderId: string, address: string, signature: Hex, now = new Date()) {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const refundAddress = await assertRefundDestination(db, order.merchantId, address, "refund_address");
  if (!refundAddressAllowed(order)) throw new ApiError("ORDER_NOT_REFUNDABLE", "A refund address can be left only for an overpaid, underpaid or late payment.");
  if (isAddressEqual(refundAddress, order.receivingAddress as Address)) {
    throw validationError({ refund_address: ["Enter your own wallet address, not the zero address or the order's deposit address."] });
  }
  const message = refundAddressMessage(order.orderId, refundAddress);
  const payers = await listOrderPayers(db, order.id);
  let signer: string | undefined;
  for (const payer of payers) {
    // A malformed signature throws inside viem; it is simply not this payer's.
    if (await verifyMessage({ address: payer as Address, message, signature }).catch(() => false)) {
      signer = getAddress(payer);
      break;
    }
  }
  if (!signer) {
    throw validationError(
      { signature: [`Must be a signature of "${message}" by the wallet that paid this order.`] },
      "The refund address must be signed by the wallet that paid this order.",
    );
  }
  const updated = await setOrderRefundAddress(db, order.id, refundAddress, { source: "payer_signature", givenBy: signer, signedBy: signer }, now);
  if (!updated) throw notFound("Payment order");
  return {
    order_id: updated.orderId,
    refund_address: updated.refundAddress!,
    refund_address_at: updated.refundAddressAt!.toISOString(),
    refund_address_signed_by: signer,
  };
}
