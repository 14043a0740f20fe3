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
import { qrCodePath, type OrderTransactionSummary } from "./serialize";

/**
 * What the hosted payment page and its public status endpoint show of an order: only what the
 * customer needs to pay. Never the merchant's order_info, nonce, webhook URL, wallet settings,
 * deposit destination or ids (tests/api/pay/public-order.test.ts checks the exact key set).
 */
export interface PublicOrder {
  order_id: string;
  shop_name: string;
  /** Decimal string in token units. */
  amount: string;
  currency: string;
  token: { symbol: string; address: string | null; decimals: number };
  blockchain: {
    slug: string;
    name: string;
    chain_id: number;
    native_currency: { symbol: string; name: string; decimals: number };
    /** Browser RPC: the sandbox devnet's URL only; null elsewhere (the page uses the chain's public RPC). */
    rpc_url: string | null;
    explorer_url: string | null;
  };
  receiving_address: string;
  status: string;
  failure_reason: string | null;
  amount_received: string;
  amount_missing: string;
  /** Fiat-priced orders: the price, its currency and the locked rate (price currency per whole token); null otherwise. */
  price_amount: string | null;
  price_currency: string | null;
  rate: string | null;
  /** When the token's price feed last updated the answer the rate was locked from. */
  rate_updated_at: string | null;
  confirmations: number;
  confirmation_threshold: number;
  transaction_hash: string | null;
  /** Block-explorer link of the payment's transaction (live chains and public testnets only). */
  transaction_url: string | null;
  qr_code_url: string;
  expires_at: string;
  /** Only once the order is confirmed: before that the customer has no business leaving. */
  redirect_url: string | null;
  /** Whether the customer may leave a refund address: overpaid, underpaid or late orders. */
  refund_address_allowed: boolean;
  /** The refund address the customer left (set once). */
  refund_address: string | null;
  sandbox: boolean;
  /** Orders from a payment link: what was bought (the link's title) and how many; null otherwise. */
  item: { name: string; quantity: number } | null;
  /**
   * "Pay without gas" (tokens with EIP-3009, lib/gasless): the token's EIP-712 domain name and
   * version and the validity window to sign; null when the order cannot be paid that way now.
   */
  gasless: { name: string; version: string; valid_after: number; valid_before: number } | null;
  /** The payment methods the customer may choose; one for an order with a single method. */
  methods: { blockchain: { slug: string; name: string }; currency: string; amount: string; selected: boolean }[];
  /** Money has arrived: the method can no longer change. */
  method_fixed: boolean;
}

/** An order whose customer may ask for money back: overpaid (confirmed with more than the amount), underpaid or paid late. */
export function refundAddressAllowed(order: Pick<PaymentOrder, "status" | "failureReason" | "amount" | "amountReceived">): boolean {
  if (order.status === "failed") return order.failureReason === "underpaid" || order.failureReason === "late_payment";
  return order.status === "confirmed" && BigInt(order.amountReceived) > BigInt(order.amount);
}

/** Serializes an order for the customer (see PublicOrder). */
export function serializePublicOrder(
  order: PaymentOrder,
  context: { shopName: string; chain: Blockchain; transaction: OrderTransactionSummary | null; gasless: GaslessOffer | null },
): PublicOrder {
  const { chain, transaction } = context;
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
    redirect_url: order.status === "confirmed" ? order.redirectUrl : null,
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
  return serializePublicOrder(view.order, { shopName: view.shopName, chain, transaction, gasless: await gaslessOffer(view.order, chain) });
}
