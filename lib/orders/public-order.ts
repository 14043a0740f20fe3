import "server-only";
import { findBlockchainById, findToken, type Blockchain } from "@/lib/chains/catalog";
import type { PaymentOrder } from "@/lib/db/schema";
import { gaslessOffer, type GaslessOffer } from "@/lib/gasless/offer";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import type { RateSource } from "@/lib/pricing/lock-price";
import { formatAmount } from "@/lib/money/amounts";
import { parseOrderKey } from "./get-order-or-throw";
import { acceptedMethodsOf, hasPaymentArrived, isCurrentMethod } from "./payment-methods";
import { summarizeTransfer } from "./order-transaction";
import { findOrderByPublicId, findPublicOrderView } from "./queries";
import type { PublicOrder } from "./schemas";
import { moneyFromColumns, qrCodePath, type OrderTransactionSummary } from "./serialize";
import { orderMoney, type OrderMoney } from "./order-money";

export type { PublicOrder };

/** An order whose customer may ask for money back: overpaid (confirmed with more than the amount), underpaid or paid late. */
export function refundAddressAllowed(order: Pick<PaymentOrder, "status" | "failureReason" | "amount" | "amountReceived">): boolean {
  if (order.status === "failed") return order.failureReason === "underpaid" || order.failureReason === "late_payment";
  return order.status === "confirmed" && BigInt(order.amountReceived) > BigInt(order.amount);
}

/** Serializes an order for the customer (see PublicOrder). */
export function serializePublicOrder(
  order: PaymentOrder,
  context: { shopName: string; chain: Blockchain; transaction: OrderTransactionSummary | null; gasless: GaslessOffer | null; money?: OrderMoney },
): PublicOrder {
  const { chain, transaction } = context;
  const money = context.money ?? moneyFromColumns(order);
  const amount = BigInt(order.amount);
  const received = BigInt(order.amountReceived);
  const missing = amount > received ? amount - received : 0n;
  const token = findToken(chain, order.currency);
  const hash = transaction?.transaction_hash ?? null;
  const explorer = chain.explorerUrl?.replace(/\/+$/, "") ?? null;
  return {
    order_id: order.orderId,
    shop_name: context.shopName,
    amount: formatAmount(amount, order.decimals),
    currency: order.currency,
    token: { symbol: token?.symbol ?? order.currency, address: order.tokenAddress, decimals: order.decimals },
    blockchain: {
      slug: chain.slug,
      name: chain.name,
      chain_id: chain.chainId,
      native_currency: chain.nativeCurrency,
      rpc_url: chain.isDevnet ? chain.rpcUrl : null,
      explorer_url: explorer,
    },
    receiving_address: order.receivingAddress,
    status: order.status,
    failure_reason: order.status === "failed" ? order.failureReason : null,
    amount_received: formatAmount(received, order.decimals),
    amount_missing: formatAmount(missing, order.decimals),
    price_amount: order.priceAmount,
    price_currency: order.priceCurrency,
    rate: order.rate,
    rate_updated_at: (order.rateSource as RateSource[] | null)?.[0]?.updated_at ?? null,
    // The summary counts against the scanner's stored head, which can trail the head the order was confirmed at.
    confirmations: order.status === "confirmed" ? Math.max(transaction?.confirmations ?? 0, order.confirmationThreshold) : (transaction?.confirmations ?? 0),
    confirmation_threshold: order.confirmationThreshold,
    transaction_hash: hash,
    transaction_url: hash && explorer ? `${explorer}/tx/${hash}` : null,
    qr_code_url: qrCodePath(order.orderId),
    expires_at: order.expiresAt.toISOString(),
    // Once settled (paid, expired or failed): the page's way back to the shop. Never while payment is asked for.
    redirect_url: order.status === "confirmed" || order.status === "expired" || order.status === "failed" ? order.redirectUrl : null,
    refund_address_allowed: refundAddressAllowed(order),
    refund_address: order.refundAddress,
    sandbox: env.GATEWAY_MODE === "sandbox",
    item: order.itemName != null ? { name: order.itemName, quantity: order.itemQuantity ?? 1 } : null,
    gasless: context.gasless,
    methods: acceptedMethodsOf(order).map((m) => {
      const methodChain = findBlockchainById(m.blockchainId);
      return {
        blockchain: { slug: methodChain?.slug ?? "", name: methodChain?.name ?? "" },
        currency: m.currency,
        amount: formatAmount(BigInt(m.amount), m.decimals),
        selected: isCurrentMethod(order, m),
      };
    }),
    method_fixed: hasPaymentArrived(order),
    amount_arrived: formatAmount(money.arrived, order.decimals),
    // What the customer sent that did not pay the order, so the page can say what arrived, where, and what happens next.
    not_counted: money.uncounted
      .filter((u) => u.reason !== "reverted")
      .map((u) => ({
        transaction_hash: u.txHash,
        transaction_url: explorer ? `${explorer}/tx/${u.txHash}` : null,
        amount: formatAmount(u.amount, u.decimals),
        currency: u.currency,
        reason: u.reason as "after_expiry" | "wrong_asset" | "reorged",
      })),
    payment_reversed: money.reversed,
  };
}

/** An order by its public id only: numeric ids are sequential and would let anyone walk every order. */
export async function findPublicOrderRow(db: DbOrTx, orderId: string): Promise<PaymentOrder | null> {
  const key = parseOrderKey(orderId);
  if (!key || !("orderId" in key)) return null;
  return findOrderByPublicId(db, key.orderId);
}

/**
 * The customer's view of an order by its public id; null when there is none. One statement (every
 * open payment page polls it), and the gasless offer's chain conditions, read at most every few seconds.
 */
export async function getPublicOrder(db: DbOrTx, orderId: string): Promise<PublicOrder | null> {
  const key = parseOrderKey(orderId);
  if (!key || !("orderId" in key)) return null;
  const view = await findPublicOrderView(db, key.orderId);
  const chain = view && findBlockchainById(view.order.blockchainId);
  if (!view || !chain) return null;
  const transaction = view.transfer ? summarizeTransfer(view.transfer, view.head) : null;
  return serializePublicOrder(view.order, {
    shopName: view.shopName,
    chain,
    transaction,
    gasless: await gaslessOffer(view.order, chain),
    money: orderMoney(view.order, view.transfers),
  });
}
