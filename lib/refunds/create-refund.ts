import "server-only";
import { isAddressEqual, type Address } from "viem";
import type { PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { formatAmount, parseAmount } from "@/lib/money/amounts";
import { parseOrderKey } from "@/lib/orders/get-order-or-throw";
import { serializeOrderView } from "@/lib/orders/order-transaction";
import { findMerchantOrder, findMerchantOrderView, lockMerchantOrder } from "@/lib/orders/queries";
import { isHeldForRefund } from "@/lib/screening/queries";
import { sumOrderAssetReceived } from "@/lib/transactions/queries";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { insertRefund, sumOpenRefunds } from "./queries";
import { assertRefundDestination } from "./refund-destination";
import type { CreateRefundBody } from "./schemas";
import { serializeRefund } from "./serialize";

export const refundCreatedEvent = "refund.created";
export const refundConfirmedEvent = "refund.confirmed";

/** Failure reasons of failed orders that hold the customer's money (a reverted payment holds none). */
const refundableFailures = new Set(["underpaid", "late_payment"]);

/** Whether an order can be refunded at all: confirmed, or failed while holding the customer's money. */
export function isRefundable(order: Pick<PaymentOrder, "status" | "failureReason">): boolean {
  return order.status === "confirmed" || (order.status === "failed" && refundableFailures.has(order.failureReason ?? ""));
}

/**
 * A refund of (part of) a confirmed, underpaid or late order, in the order's asset, from the
 * merchant wallet the deposit was swept to. The order row is locked while what is refundable is
 * worked out, so two refunds at once cannot together exceed it. Records `refund.created` with the
 * order as GET now shows it, in the same transaction.
 */
export async function createRefund(db: Db, merchantId: number, orderKey: string, body: CreateRefundBody, now = new Date()) {
  const key = parseOrderKey(orderKey);
  const found = key ? await findMerchantOrder(db, merchantId, key) : null;
  if (!found) throw notFound("Payment order");
  // The destination is checked first: whatever the order's state, money never goes to the gateway's own addresses.
  const toAddress = await assertRefundDestination(db, merchantId, body.to_address, "to_address");

  const result = await db.transaction(async (tx) => {
    const order = (await lockMerchantOrder(tx, merchantId, found.id))!;
    // A payment held by screening under the `refund` policy is refunded though never confirmed.
    if (!isRefundable(order) && !(order.status === "processing" && (await isHeldForRefund(tx, order.id)))) {
      throw new ApiError(
        "ORDER_NOT_REFUNDABLE",
        `Only confirmed orders and failed ones that were underpaid or paid late can be refunded; this order is ${order.status}${order.failureReason ? ` (${order.failureReason})` : ""}.`,
      );
    }
    if (isAddressEqual(toAddress, order.receivingAddress as Address) || isAddressEqual(toAddress, order.depositDestination as Address)) {
      throw validationError({ to_address: ["Must be the customer's address: not the zero address, the order's deposit address or your own wallet."] });
    }

    const received = await sumOrderAssetReceived(tx, order);
    if (received === 0n) throw new ApiError("ORDER_NOT_REFUNDABLE", "Nothing of the order's currency was received.");
    const refundable = received - (await sumOpenRefunds(tx, order.id));
    const overpaid = BigInt(order.amountReceived) - BigInt(order.amount);
    let amount: bigint;
    if (body.overpaid_only) {
      if (order.status !== "confirmed" || overpaid <= 0n) throw new ApiError("ORDER_NOT_REFUNDABLE", "The order was not overpaid.");
      amount = overpaid;
    } else if (body.amount !== undefined) {
      amount = parseAmount(body.amount, order.decimals);
    } else {
      amount = refundable;
    }
    if (amount <= 0n || amount > refundable) {
      throw new ApiError(
        "REFUND_EXCEEDS_REFUNDABLE",
        `At most ${formatAmount(refundable > 0n ? refundable : 0n, order.decimals)} ${order.currency} can still be refunded (received ${formatAmount(received, order.decimals)}, minus refunds requested, pending or confirmed).`,
        { amount: [`Must be at most ${formatAmount(refundable > 0n ? refundable : 0n, order.decimals)}.`] },
      );
    }

    const refund = await insertRefund(tx, {
      paymentOrderId: order.id,
      merchantId,
      blockchainId: order.blockchainId,
      amount: amount.toString(),
      currency: order.currency,
      tokenAddress: order.tokenAddress,
      fromAddress: order.depositDestination,
      toAddress,
      reason: body.reason ?? null,
      status: "requested",
      createdAt: now,
      updatedAt: now,
    });
    const view = (await findMerchantOrderView(tx, merchantId, { id: order.id }))!;
    await recordOrderEvent(
      tx,
      { merchantId, paymentOrderId: order.id, type: refundCreatedEvent, data: serializeOrderView(view), webhookUrl: order.webhookUrl },
      now,
    );
    return serializeRefund(refund, order);
  });
  await notifyDeliveriesDue();
  return result;
}
