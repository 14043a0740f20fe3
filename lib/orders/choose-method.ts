import "server-only";
import { findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { acceptedMethodsOf, hasPaymentArrived, isCurrentMethod, sameToken, type MethodRequest } from "./payment-methods";
import { findPublicOrderRow, getPublicOrder, type PublicOrder } from "./public-order";
import { switchOrderMethod } from "./queries";

/**
 * The customer picks one of the order's methods on the payment page: the order's chain, token,
 * amount and deposit address become that method's. Only while the order is pending and no money
 * has arrived (then it is fixed to the method the money came by): 409 CONFLICT after that.
 */
export async function chooseOrderMethod(db: DbOrTx, orderId: string, request: MethodRequest, now = new Date()): Promise<PublicOrder> {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const chain = findBlockchainBySlug(request.blockchain);
  const token = chain && findToken(chain, request.currency);
  const method = chain && token ? acceptedMethodsOf(order).find((m) => m.blockchainId === chain.id && sameToken(m.tokenAddress, token.address)) : undefined;
  if (!method)
    throw validationError(
      { currency: [`This order does not accept ${request.currency} on ${request.blockchain}.`] },
      "This order does not accept that payment method.",
    );
  if (!isCurrentMethod(order, method)) {
    if (hasPaymentArrived(order)) throw new ApiError("CONFLICT", "Money has already arrived for this order; its payment method can no longer change.");
    const switched = await switchOrderMethod(db, order.id, method, now);
    if (!switched) throw new ApiError("CONFLICT", "Money has already arrived for this order; its payment method can no longer change.");
  }
  const view = await getPublicOrder(db, order.orderId);
  if (!view) throw notFound("Payment order");
  return view;
}
