import { findBlockchainById } from "@/lib/chains/catalog";
import type { PaymentOrder, Refund } from "@/lib/db/schema";
import { serializeRefund } from "@/lib/refunds/serialize";
import { env } from "@/lib/env";
import type { RateSource } from "@/lib/pricing/lock-price";
import { formatAmount } from "@/lib/money/amounts";
import { serializeAcceptedMethods, serializePaymentMethod } from "./payment-methods";
import { serializeOrderMoney, type OrderMoney } from "./order-money";
import type { OrderScreening } from "./screening-status";
import type { RefundAddressSource } from "./queries";

/** What an order's own columns say of its money, for an order serialized without its transfers (one just created: none yet). */
export function moneyFromColumns(order: PaymentOrder): OrderMoney {
  const received = BigInt(order.amountReceived);
  return { arrived: received, counted: received, uncounted: [], reversed: order.atRiskReason !== null };
}

/** What the single-order response shows of the payment's transaction once one is detected (spec › Payment order). */
export interface OrderTransactionSummary {
  transaction_hash: string;
  block_number: number;
  confirmations: number;
  status: string;
}

const appUrl = env.APP_URL.replace(/\/+$/, "");

/** The hosted payment page of an order. */
export function paymentUrl(orderId: string): string {
  return `${appUrl}/pay/${orderId}`;
}

/** The public path of an order's QR code (app/pay/[orderId]/qr.svg). */
export function qrCodePath(orderId: string): string {
  return `/pay/${orderId}/qr.svg`;
}

/** Where a settled order's deposit went (lib/chains/sweeper.ts). */
export interface OrderSweepSummary {
  status: "pending" | "submitted" | "succeeded" | "failed";
  transaction_hash: string | null;
}

/**
 * An order as POST and GET /api/payment-orders/ return it, and as webhooks carry it in `data`.
 * `transaction` is null until a transfer that counts toward the order is detected. `screening` is
 * read with the order (its view, lib/orders/queries `findOrderScreening`): every response shows it.
 */
export function serializeOrder(
  order: PaymentOrder,
  transaction: OrderTransactionSummary | null,
  sweep: OrderSweepSummary | null,
  refunds: Refund[],
  money: OrderMoney = moneyFromColumns(order),
  screening: OrderScreening,
) {
  return {
    id: order.id,
    order_id: order.orderId,
    amount: formatAmount(BigInt(order.amount), order.decimals),
    currency: order.currency,
    blockchain: findBlockchainById(order.blockchainId)?.slug ?? null,
    status: order.status,
    receiving_address: order.receivingAddress,
    payment_url: paymentUrl(order.orderId),
    qr_code_url: qrCodePath(order.orderId),
    order_info: order.orderInfo,
    nonce: order.nonce,
    webhook_url: order.webhookUrl,
    redirect_url: order.redirectUrl,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
    confirmed_at: order.status === "confirmed" && order.confirmedAt ? order.confirmedAt.toISOString() : null,
    transaction: transaction
      ? {
          transaction_hash: transaction.transaction_hash,
          block_number: transaction.block_number,
          confirmations: transaction.confirmations,
          status: transaction.status,
        }
      : null,
    amount_received: formatAmount(BigInt(order.amountReceived), order.decimals),
    failure_reason: order.failureReason,
    price_amount: order.priceAmount,
    price_currency: order.priceCurrency,
    rate: order.rate,
    rate_source: (order.rateSource as RateSource[] | null) ?? null,
    sweep: sweep ? { status: sweep.status, destination: order.depositDestination, transaction_hash: sweep.transaction_hash } : null,
    refund_address: order.refundAddress,
    refund_address_payer_signed: order.refundAddressSignedBy !== null,
    refund_address_signed_by: order.refundAddressSignedBy,
    refund_address_source: (order.refundAddressSource ?? (order.refundAddressSignedBy ? "payer_signature" : null)) as RefundAddressSource | null,
    refund_address_given_by: order.refundAddressGivenBy ?? order.refundAddressSignedBy,
    refunds: refunds.map((refund) => serializeRefund(refund, order)),
    at_risk: order.atRiskReason !== null,
    at_risk_reason: order.atRiskReason as "payment_reorged" | null,
    at_risk_since: order.atRiskAt?.toISOString() ?? null,
    accepted_methods: serializeAcceptedMethods(order),
    payment_method: serializePaymentMethod(order),
    ...serializeOrderMoney(order, money),
    screening: { status: screening.status, list_date: screening.list_date },
  };
}
export type OrderJson = ReturnType<typeof serializeOrder>;

/** A list item carries exactly these fields (spec › Payment order). */
export function serializeOrderListItem(order: PaymentOrder) {
  return {
    id: order.id,
    order_id: order.orderId,
    amount: formatAmount(BigInt(order.amount), order.decimals),
    currency: order.currency,
    status: order.status,
    created_at: order.createdAt.toISOString(),
  };
}
