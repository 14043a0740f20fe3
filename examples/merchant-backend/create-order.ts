import { createGatewayClient, GatewayError, unwrap, type GatewayClient, type Order, type Schemas } from "../../lib/client";

export type Refund = Schemas["Order"]["refunds"][number];

export interface CheckoutInput {
  /** Your own order number: sent as the gateway nonce, and the default idempotency key. */
  orderNumber: number;
  /** Priced in the token: the amount in `currency`. */
  amount?: string;
  /** Priced in fiat (the usual shop cart): the price and its currency; the gateway converts at a locked rate. */
  priceAmount?: string;
  priceCurrency?: string;
  currency: string;
  blockchain: string;
  items: unknown;
  /** Where the gateway sends this order's webhooks (signed with the account secret); omit to use your webhook endpoints. */
  webhookUrl?: string;
  /** Where the payment page sends the customer once paid. */
  redirectUrl?: string;
  /** Names this payment attempt (default `order-<orderNumber>`): a retry with the same key gets the same order back. */
  idempotencyKey?: string;
}

export function gatewayClient(baseUrl: string, apiKey: string): GatewayClient {
  return createGatewayClient({ baseUrl, apiKey });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a POST with an Idempotency-Key, retrying (same key, same body) after a network error, a 5xx
 * or a 409 IDEMPOTENCY_REQUEST_IN_PROGRESS: the gateway answers a repeat with the first answer, so a
 * retry never creates a second order or refund.
 */
async function withRetries<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return unwrap(await call());
    } catch (error) {
      const again = !(error instanceof GatewayError) || error.status >= 500 || error.code === "IDEMPOTENCY_REQUEST_IN_PROGRESS";
      if (!again || attempt >= attempts) throw error;
      await sleep(500 * attempt);
    }
  }
}

/** Creates a payment order with an API key (needs `create_payments`) and returns it. */
export async function createPaymentOrder(gateway: GatewayClient, input: CheckoutInput): Promise<Order> {
  const priced =
    input.priceAmount !== undefined ? { price_amount: input.priceAmount, price_currency: input.priceCurrency ?? "USD" } : { amount: input.amount ?? "0" };
  const body = {
    ...priced,
    currency: input.currency,
    blockchain: input.blockchain,
    order_info: JSON.stringify({ order_number: input.orderNumber, items: input.items }),
    nonce: input.orderNumber,
    ...(input.webhookUrl ? { webhook_url: input.webhookUrl } : {}),
    ...(input.redirectUrl ? { redirect_url: input.redirectUrl } : {}),
  };
  const key = input.idempotencyKey ?? `order-${input.orderNumber}`;
  const created = await withRetries(() => gateway.POST("/api/payment-orders", { params: { header: { "Idempotency-Key": key } }, body }));
  return created.data;
}

/** Reads an order back (by ORD-… id): what a webhook's handler acts on. */
export async function getPaymentOrder(gateway: GatewayClient, orderId: string): Promise<Order> {
  return unwrap(await gateway.GET("/api/payment-orders/{orderId}", { params: { path: { orderId } } })).data;
}

/**
 * Refunds (part of) an order to the customer: the address the customer left on the payment page, else
 * the wallet that paid. `amount` is in the order's token (omit it: everything still refundable). The
 * gateway never holds funds: sign and send the answer's `transaction` with your wallet.
 */
export async function refundPaymentOrder(
  gateway: GatewayClient,
  orderId: string,
  options: { amount?: string; reason?: string; idempotencyKey: string },
): Promise<Refund> {
  const order = await getPaymentOrder(gateway, orderId);
  let toAddress = order.refund_address;
  if (!toAddress) {
    if (!order.transaction) throw new Error(`${orderId} has no payment to refund`);
    const paid = unwrap(
      await gateway.GET("/api/transactions/{transactionHash}", { params: { path: { transactionHash: order.transaction.transaction_hash } } }),
    );
    toAddress = paid.data.from_address;
  }
  const body = { to_address: toAddress, ...(options.amount ? { amount: options.amount } : {}), ...(options.reason ? { reason: options.reason } : {}) };
  const refund = await withRetries(() =>
    gateway.POST("/api/payment-orders/{orderId}/refunds", { params: { path: { orderId }, header: { "Idempotency-Key": options.idempotencyKey } }, body }),
  );
  return refund.data;
}
