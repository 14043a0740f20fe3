import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { chooseMethodBody, createOrderBody, listOrdersQuery, orderJson, orderListItemJson, orderParams, publicOrderJson } from "./schemas";

/** Payment orders, and the payment page's view of one. */
export const orderRoutes = {
  listOrders: defineRoute({
    method: "GET",
    path: "/api/payment-orders",
    access: "read",
    query: listOrdersQuery,
    doc: {
      summary: "List payment orders",
      description:
        "Filter by status, blockchain, currency or nonce (`?nonce=42` finds the order a create answered with DUPLICATE_NONCE); sort with `ordering`. Unknown query parameters are 400 VALIDATION_ERROR. Items carry id, order_id, amount, currency, status, created_at.",
      tags: ["Payment orders"],
      response: pageAnswer(orderListItemJson),
    },
  }),
  createOrder: defineRoute({
    method: "POST",
    path: "/api/payment-orders",
    access: "create_payments",
    body: createOrderBody,
    countInStatement: true,
    doc: {
      summary: "Create a payment order",
      description:
        "Gives the order its own deposit address (`receiving_address`) and a hosted payment page (`payment_url`). The order starts `pending` with `transaction: null`; webhooks report what follows.\n\nSafe to retry: send an `Idempotency-Key` (e.g. a UUID v4) and a repeat of the same request within 24 hours replays the first answer with `Idempotent-Replayed: true`. Without one, a repeat is DUPLICATE_NONCE, whose `details.order_id` names the order the first attempt created.",
      tags: ["Payment orders"],
      bodyExamples: {
        token: { summary: "Priced in the token", value: { amount: "12.5", currency: "USDC", blockchain: "base", order_info: '{"sku":1}', nonce: 1 } },
        fiat: {
          summary: "Priced in fiat, paid in ETH at a locked rate",
          value: { price_amount: "19.90", price_currency: "EUR", currency: "ETH", blockchain: "base", order_info: '{"sku":2}', nonce: 2 },
        },
      },
      response: createdAnswer(orderJson),
      errors: [
        "INVALID_AMOUNT",
        "UNSUPPORTED_CURRENCY",
        "INVALID_BLOCKCHAIN",
        "WALLET_NOT_CONFIGURED",
        "DUPLICATE_NONCE",
        "INVALID_ORDER_INFO",
        "UNSUPPORTED_PRICE_CURRENCY",
        "PRICE_FEED_STALE",
        "PRICE_FEED_UNAVAILABLE",
      ],
    },
  }),
  getOrder: defineRoute({
    method: "GET",
    path: "/api/payment-orders/[orderId]",
    access: "read",
    params: orderParams,
    doc: {
      summary: "Get a payment order",
      description: "By public `order_id` (ORD-…) or numeric `id`. Includes `confirmed_at` and the detected `transaction`.",
      tags: ["Payment orders"],
      response: okAnswer(orderJson),
    },
  }),
  // The hosted payment page (customers have no credential): ORD-… ids only, customer-safe fields only.
  getPublicOrder: defineRoute({
    method: "GET",
    path: "/api/pay/[orderId]",
    access: "public",
    params: orderParams,
    doc: {
      summary: "Payment page status",
      description:
        "The customer's view of an order by its public ORD-… id (numeric ids are not accepted): what to pay, where, and how far along the payment is. No merchant data.",
      tags: ["Payment page"],
      response: okAnswer(publicOrderJson),
    },
  }),
  chooseMethod: defineRoute({
    method: "POST",
    path: "/api/pay/[orderId]/method",
    access: "public",
    params: orderParams,
    body: chooseMethodBody,
    // Public (the customer has no credential), so limited per client address like the refund address.
    clientLimit: { name: "pay-method", perHour: 120 },
    doc: {
      summary: "Choose the payment method (payment page)",
      description:
        "The customer picks one of the order's methods (`methods` in the public order): the order's blockchain, currency, amount and deposit address become that method's, and the answer is the public order as it is now. A method the order does not accept is 400 VALIDATION_ERROR; once money has arrived the method is fixed and another one is 409 CONFLICT (choosing the fixed one again answers the order). Limited per client address.",
      tags: ["Payment page"],
      response: okAnswer(publicOrderJson),
      errors: ["CONFLICT", "RATE_LIMITED"],
    },
  }),
};
