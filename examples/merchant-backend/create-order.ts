import { createGatewayClient, unwrap, type GatewayClient, type Order } from "../../lib/client";

export interface CheckoutInput {
  /** Your own order number: sent as the gateway nonce, so a retried request cannot create a second order. */
  orderNumber: number;
  amount: string;
  currency: string;
  blockchain: string;
  items: unknown;
  /** Where the gateway sends this order's webhooks (signed with the account secret); omit to use your webhook endpoints. */
  webhookUrl?: string;
}

export function gatewayClient(baseUrl: string, apiKey: string): GatewayClient {
  return createGatewayClient({ baseUrl, apiKey });
}

/** Creates a payment order with an API key (needs `create_payments`) and returns it. */
export async function createPaymentOrder(gateway: GatewayClient, input: CheckoutInput): Promise<Order> {
  const result = await gateway.POST("/api/payment-orders", {
    body: {
      amount: input.amount,
      currency: input.currency,
      blockchain: input.blockchain,
      order_info: JSON.stringify({ order_number: input.orderNumber, items: input.items }),
      nonce: input.orderNumber,
      ...(input.webhookUrl ? { webhook_url: input.webhookUrl } : {}),
    },
  });
  return unwrap(result).data;
}

/** Reads an order back (by ORD-… id), e.g. to double-check a webhook or to poll. */
export async function getPaymentOrder(gateway: GatewayClient, orderId: string): Promise<Order> {
  return unwrap(await gateway.GET("/api/payment-orders/{orderId}", { params: { path: { orderId } } })).data;
}
