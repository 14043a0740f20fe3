import { z } from "zod";
import { apiKeyJson, createApiKeyBody, createdApiKeyJson, idParams as apiKeyIdParams } from "@/lib/auth/api-key-schemas";
import type { RouteKey } from "@/lib/auth/route-access";
import {
  accountJson,
  updateAccountBody,
  loginBody,
  loginJson,
  refreshBody,
  registerBody,
  registerJson,
  rotatedAccountSecretJson,
  tokenPairJson,
  verifyJson,
} from "@/lib/auth/schemas";
import { blockchainJson } from "@/lib/chains/schemas";
import type { ErrorCode } from "@/lib/http/error-codes";
import { pageQuery } from "@/lib/http/pagination";
import {
  createLinkBody,
  createLinkOrderBody,
  deletedLinkJson,
  linkJson,
  linkOrderJson,
  linkParams,
  listLinksQuery,
  publicLinkJson,
  publicLinkParams,
  updateLinkBody,
} from "@/lib/payment-links/schemas";
import { createOrderBody, listOrdersQuery, orderJson, orderListItemJson, orderParams, publicOrderJson } from "@/lib/orders/schemas";
import { createRefundBody, publicRefundAddressJson, refundAddressBody, refundJson } from "@/lib/refunds/schemas";
import { faucetBody, faucetJson, mineBody, mineJson, payOrderBody, payOrderJson, sandboxOrderParams, simulatedPaymentJson } from "@/lib/sandbox/schemas";
import { simulateBody } from "@/lib/sandbox/simulate-payment";
import { listTransactionsQuery, transactionJson, transactionListItemJson, transactionParams } from "@/lib/transactions/schemas";
import { createWalletBody, updateWalletBody, walletJson, walletParams } from "@/lib/wallets/schemas";
import {
  createEndpointBody,
  deliveryJson,
  endpointJson,
  endpointWithSecretJson,
  eventJson,
  idParams as webhookIdParams,
  inboxCaptureJson,
  inboxMessageJson,
  listDeliveriesQuery,
  listEventsQuery,
  rotatedEndpointJson,
  testEndpointBody,
  testWebhookJson,
  updateEndpointBody,
} from "@/lib/webhooks/schemas";

/** How a route answers on success (lib/http/envelope.ts and lib/http/pagination.ts). */
export type SuccessResponse =
  /** `ok()` / `created()`: `{ success: true, data, message, timestamp }`. */
  | { kind: "envelope"; status: 200 | 201; data: z.ZodType; message: string }
  /** `page()`: the bare list shape `{ count, next, previous, results }`, plus any `extra` top-level fields. */
  | { kind: "page"; item: z.ZodType; extra?: z.ZodObject }
  /** `bare()`: the body itself (auth endpoints). */
  | { kind: "bare"; status: 200 | 201; schema: z.ZodType };

/** What the reference says about one operation. Request schemas are the very objects the route passes to withApi. */
export interface OperationDoc {
  summary: string;
  description?: string;
  tags: readonly Tag[];
  body?: z.ZodType;
  /** Named request-body examples shown in the reference. */
  bodyExamples?: Record<string, { summary: string; value: unknown }>;
  query?: z.ZodType;
  params?: z.ZodType;
  /** Sandbox-only tool (withApi `sandboxOnly`): 404 in live mode, 503 when the devnet is off. */
  sandboxOnly?: boolean;
  response: SuccessResponse;
  /** Domain error codes beyond the ones the generator derives (auth, validation, not-found, rate limit). */
  errors?: readonly ErrorCode[];
}

export const tags = {
  Authentication: "Register, log in, refresh and check tokens.",
  Account: "The merchant account (login only).",
  "API keys": "Dedicated credentials for merchant backends (managed with a login only).",
  Blockchains: "The networks this deployment serves.",
  "Merchant wallets": "Where each blockchain's payments end up: one receiving wallet per blockchain.",
  "Payment orders": "Payment requests, each with its own deposit address.",
  Transactions: "On-chain transfers the gateway detected.",
  Webhooks: "Endpoints that receive order events, their delivery log, and the event history.",
  "Payment links": "Reusable links (/link/{id}): each customer opening one gets a fresh order and the hosted payment page.",
  "Payment page": "What the hosted payment page (/pay/{order_id}) calls; public, by ORD-… id only.",
  Sandbox: "Test tools: devnet payments, mining, faucet and a webhook inbox (sandbox mode only; 404 in live mode).",
  Meta: "This document.",
} as const;
export type Tag = keyof typeof tags;

const envelope = (data: z.ZodType, message: string, status: 200 | 201 = 200): SuccessResponse => ({ kind: "envelope", status, data, message });
const listOf = (item: z.ZodType, extra?: z.ZodObject): SuccessResponse => ({ kind: "page", item, extra });

/**
 * One entry per key of the route table (lib/auth/route-access.ts). A route in the table without
 * an entry still appears in the document (marked `x-undocumented`), and tests/openapi fails on it.
 */
export const operations: Partial<Record<RouteKey, OperationDoc>> = {
  "POST /api/auth/register": {
    summary: "Register a merchant account",
    description: "Creates the account and its webhook secret. Then log in for tokens. At most 100 registrations an hour per client address.",
    tags: ["Authentication"],
    body: registerBody,
    response: { kind: "bare", status: 201, schema: registerJson },
    errors: ["RATE_LIMITED"],
  },
  "POST /api/auth/login": {
    summary: "Log in",
    description: "Exchanges username and password for an access token (24 hours) and a refresh token (30 days). 10 failures in 15 minutes per username or client address lock login with 429.",
    tags: ["Authentication"],
    body: loginBody,
    response: { kind: "bare", status: 200, schema: loginJson },
    errors: ["INVALID_CREDENTIALS", "RATE_LIMITED"],
  },
  "POST /api/auth/token/refresh": {
    summary: "Refresh tokens",
    description: "Rotates a refresh token into a new pair; replace both. Each refresh token works once: presenting a used one revokes every token issued from it.",
    tags: ["Authentication"],
    body: refreshBody,
    response: { kind: "bare", status: 200, schema: tokenPairJson },
    errors: ["INVALID_TOKEN"],
  },
  "GET /api/auth/verify": {
    summary: "Verify a credential",
    description: "Whether the presented access token or API key is valid, whose it is and what it may do.",
    tags: ["Authentication"],
    response: { kind: "bare", status: 200, schema: verifyJson },
  },
  "GET /api/account": {
    summary: "Get the account",
    description: "The logged-in merchant's account, plan, rate limit and webhook secret.",
    tags: ["Account"],
    response: envelope(accountJson, "OK"),
  },
  "PUT /api/account": {
    summary: "Update account settings",
    description:
      "`payment_tolerance_bps`: how far below its amount a payment may fall and still pay an order, in basis points (0–1000; 50 = 0.5 %). An order counts as paid when it received at least amount × (1 − tolerance). Applies to orders created afterwards.",
    tags: ["Account"],
    body: updateAccountBody,
    bodyExamples: { tolerance: { summary: "Accept payments up to 0.5 % short", value: { payment_tolerance_bps: 50 } } },
    response: envelope(accountJson, "Account updated."),
  },
  "POST /api/account/rotate-webhook-secret": {
    summary: "Rotate the account webhook secret",
    description: "The account secret signs deliveries to per-order `webhook_url`s. The old secret keeps signing (alongside) for 24 hours.",
    tags: ["Account"],
    response: envelope(rotatedAccountSecretJson, "Webhook secret rotated."),
  },
  "GET /api/api-keys": {
    summary: "List API keys",
    description: "Newest first. Secrets are never shown again after creation.",
    tags: ["API keys"],
    query: pageQuery,
    response: listOf(apiKeyJson),
  },
  "POST /api/api-keys": {
    summary: "Create an API key",
    description: "Give `permissions` or a `preset`. The `key` is in this response only: store it now.",
    tags: ["API keys"],
    body: createApiKeyBody,
    response: envelope(createdApiKeyJson, "API key created. Store the key now: it will not be shown again.", 201),
  },
  "DELETE /api/api-keys/[id]": {
    summary: "Revoke an API key",
    description: "The key stops working at once. Revoking twice is harmless.",
    tags: ["API keys"],
    params: apiKeyIdParams,
    response: envelope(apiKeyJson, "API key revoked."),
  },
  "GET /api/blockchains": {
    summary: "List blockchains",
    description: "Networks with their numeric ids (for wallets), slugs (for orders), confirmations and tokens.",
    tags: ["Blockchains"],
    query: pageQuery,
    response: listOf(blockchainJson),
  },
  "GET /api/merchant-wallets": {
    summary: "List merchant wallets",
    tags: ["Merchant wallets"],
    query: pageQuery,
    response: listOf(walletJson),
  },
  "POST /api/merchant-wallets": {
    summary: "Add a merchant wallet",
    description:
      "One wallet per blockchain; a second one for the same blockchain is 400 VALIDATION_ERROR. Needs a login (access token): an API key, even with manage_wallets, is 403. Recorded in the account's event log.",
    tags: ["Merchant wallets"],
    body: createWalletBody,
    response: envelope(walletJson, "Created", 201),
    errors: ["INVALID_BLOCKCHAIN"],
  },
  "PUT /api/merchant-wallets/[id]": {
    summary: "Update a merchant wallet",
    description:
      "Any subset of wallet_address, confirmation_threshold, is_active. Existing orders keep the wallet they were created with. Changing wallet_address needs a login (access token; an API key is 403), is recorded and is announced to every active webhook endpoint as wallet.updated.",
    tags: ["Merchant wallets"],
    params: walletParams,
    body: updateWalletBody,
    response: envelope(walletJson, "OK"),
  },
  "GET /api/payment-orders": {
    summary: "List payment orders",
    description:
      "Filter by status, blockchain, currency or nonce (`?nonce=42` finds the order a create answered with DUPLICATE_NONCE); sort with `ordering`. Unknown query parameters are 400 VALIDATION_ERROR. Items carry id, order_id, amount, currency, status, created_at.",
    tags: ["Payment orders"],
    query: listOrdersQuery,
    response: listOf(orderListItemJson),
  },
  "POST /api/payment-orders": {
    summary: "Create a payment order",
    description:
      "Gives the order its own deposit address (`receiving_address`) and a hosted payment page (`payment_url`). The order starts `pending` with `transaction: null`; webhooks report what follows.\n\nSafe to retry: send an `Idempotency-Key` (e.g. a UUID v4) and a repeat of the same request within 24 hours replays the first answer with `Idempotent-Replayed: true`. Without one, a repeat is DUPLICATE_NONCE, whose `details.order_id` names the order the first attempt created.",
    tags: ["Payment orders"],
    body: createOrderBody,
    bodyExamples: {
      token: { summary: "Priced in the token", value: { amount: "12.5", currency: "USDC", blockchain: "base", order_info: '{"sku":1}', nonce: 1 } },
      fiat: {
        summary: "Priced in fiat, paid in ETH at a locked rate",
        value: { price_amount: "19.90", price_currency: "EUR", currency: "ETH", blockchain: "base", order_info: '{"sku":2}', nonce: 2 },
      },
    },
    response: envelope(orderJson, "Created", 201),
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
  "GET /api/payment-orders/[orderId]": {
    summary: "Get a payment order",
    description: "By public `order_id` (ORD-…) or numeric `id`. Includes `confirmed_at` and the detected `transaction`.",
    tags: ["Payment orders"],
    params: orderParams,
    response: envelope(orderJson, "OK"),
  },
  "GET /api/payment-orders/[orderId]/refunds": {
    summary: "List an order's refunds",
    description: "Oldest first, each with its status (requested → pending → confirmed, or failed) and the transaction to sign. The order's own JSON carries the same list as `refunds`.",
    tags: ["Payment orders"],
    params: orderParams,
    response: envelope(z.array(refundJson), "OK"),
  },
  "POST /api/payment-orders/[orderId]/refunds": {
    summary: "Refund an order",
    description:
      "Refunds all or part of a confirmed order, or of a failed one that was underpaid or paid late, in the order's currency, to the customer's address (the payment page's `refund_address`, if the customer left one). The gateway never holds funds: the answer carries `transaction` (`from`, `to`, `data`, `value`, `chainId`), the exact transfer to sign and send from your wallet (the order's sweep destination). The gateway then matches it on chain (sender, recipient, asset and exact amount), marks the refund `pending`, and `confirmed` after the order's confirmation threshold, with `refund.created` and `refund.confirmed` webhooks. Without `amount` it refunds everything still refundable; `overpaid_only: true` refunds `amount_received − amount`. Refundable: what arrived of the order's currency (late payments included) minus refunds requested, pending or confirmed.\n\nExample: `{ \"amount\": \"2.5\", \"to_address\": \"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\", \"reason\": \"returned item\" }`.",
    tags: ["Payment orders"],
    params: orderParams,
    body: createRefundBody,
    response: envelope(refundJson, "Refund requested: sign and send the transaction with your wallet.", 201),
    errors: ["INVALID_AMOUNT", "ORDER_NOT_REFUNDABLE", "REFUND_EXCEEDS_REFUNDABLE"],
  },
  "POST /api/sandbox/payment-orders/[orderId]/pay": {
    summary: "Pay an order on the devnet",
    description: "A real transfer from the faucet to the order's deposit address. Without an amount it pays what is still missing in the order's currency (409 CONFLICT when nothing is); give less to test underpayment, or another currency to test wrong-asset handling (default there: the order's amount).",
    tags: ["Sandbox"],
    params: sandboxOrderParams,
    body: payOrderBody,
    sandboxOnly: true,
    response: envelope(payOrderJson, "Payment sent on the devnet.", 201),
    errors: ["UNSUPPORTED_CURRENCY", "INVALID_AMOUNT", "CONFLICT", "SERVICE_UNAVAILABLE"],
  },
  "POST /api/sandbox/mine": {
    summary: "Mine devnet blocks",
    description: "Simulated confirmations: mines `blocks` blocks on the devnet.",
    tags: ["Sandbox"],
    body: mineBody,
    sandboxOnly: true,
    response: envelope(mineJson, "Mined 1 block(s)."),
    errors: ["INVALID_BLOCKCHAIN", "SERVICE_UNAVAILABLE"],
  },
  "POST /api/sandbox/faucet": {
    summary: "Get test tokens",
    description: "Sends test tokens or the native coin to any address on the devnet.",
    tags: ["Sandbox"],
    body: faucetBody,
    sandboxOnly: true,
    response: envelope(faucetJson, "Sent from the faucet."),
    errors: ["INVALID_BLOCKCHAIN", "UNSUPPORTED_CURRENCY", "INVALID_AMOUNT", "SERVICE_UNAVAILABLE"],
  },
  "GET /api/transactions": {
    summary: "List transactions",
    description: "Transfers to the merchant's deposit addresses, newest first.",
    tags: ["Transactions"],
    query: listTransactionsQuery,
    response: listOf(transactionListItemJson),
    errors: ["INVALID_BLOCKCHAIN"],
  },
  "GET /api/transactions/[transactionHash]": {
    summary: "Get a transaction",
    tags: ["Transactions"],
    params: transactionParams,
    response: envelope(transactionJson, "OK"),
  },
  "GET /api/webhook-endpoints": {
    summary: "List webhook endpoints",
    description: "Newest first, without their secrets.",
    tags: ["Webhooks"],
    query: pageQuery,
    response: listOf(endpointJson),
  },
  "POST /api/webhook-endpoints": {
    summary: "Add a webhook endpoint",
    description: "The signing `secret` is in this response (and on rotation) only. Live mode takes https URLs that resolve to public addresses; the sandbox also takes http and loopback.",
    tags: ["Webhooks"],
    body: createEndpointBody,
    response: envelope(endpointWithSecretJson, "Webhook endpoint created. Store the secret now.", 201),
  },
  "GET /api/webhook-endpoints/[id]": {
    summary: "Get a webhook endpoint",
    tags: ["Webhooks"],
    params: webhookIdParams,
    response: envelope(endpointJson, "OK"),
  },
  "PUT /api/webhook-endpoints/[id]": {
    summary: "Update a webhook endpoint",
    description: "Any subset of url, events, description, is_active.",
    tags: ["Webhooks"],
    params: webhookIdParams,
    body: updateEndpointBody,
    response: envelope(endpointJson, "Webhook endpoint updated."),
  },
  "DELETE /api/webhook-endpoints/[id]": {
    summary: "Delete a webhook endpoint",
    description: "Removes the endpoint and its delivery log.",
    tags: ["Webhooks"],
    params: webhookIdParams,
    response: envelope(endpointJson, "Webhook endpoint deleted."),
  },
  "POST /api/webhook-endpoints/[id]/rotate-secret": {
    summary: "Rotate an endpoint's secret",
    description: "Deliveries carry a second `webhook-signature` with the old secret for 24 hours, so receivers can roll over.",
    tags: ["Webhooks"],
    params: webhookIdParams,
    response: envelope(rotatedEndpointJson, "Secret rotated. Store the new secret now."),
  },
  "POST /api/webhook-endpoints/[id]/test": {
    summary: "Send a test event",
    description: "Sends a signed sample of the event to the endpoint now (whatever its subscriptions) and returns the attempt. Not retried.",
    tags: ["Webhooks"],
    params: webhookIdParams,
    body: testEndpointBody,
    response: envelope(testWebhookJson, "Test event delivered."),
  },
  "GET /api/webhook-endpoints/[id]/deliveries": {
    summary: "List an endpoint's deliveries",
    description: "Newest first, each with its attempts.",
    tags: ["Webhooks"],
    params: webhookIdParams,
    query: listDeliveriesQuery,
    response: listOf(deliveryJson),
  },
  "POST /api/webhook-deliveries/[id]/redeliver": {
    summary: "Redeliver a webhook",
    description: "Sends the same body again with the same `webhook-id` and a fresh retry schedule.",
    tags: ["Webhooks"],
    params: webhookIdParams,
    response: envelope(deliveryJson, "Redelivery scheduled."),
    errors: ["CONFLICT"],
  },
  "GET /api/events": {
    summary: "List order events",
    description: "Everything webhooks carried (or would have), newest first; filter by event type or order.",
    tags: ["Webhooks"],
    query: listEventsQuery,
    response: listOf(eventJson),
  },
  "GET /api/sandbox/inbox": {
    summary: "Read the webhook inbox",
    description: "What the merchant's capture URL (`inbox_url`) received, newest first, with each message's signature check. Point an endpoint or an order's webhook_url at `inbox_url` to try webhooks without a server.",
    tags: ["Sandbox"],
    query: pageQuery,
    sandboxOnly: true,
    response: listOf(inboxMessageJson, z.object({ inbox_url: z.string().nullable().describe("The merchant's capture URL") })),
  },
  "GET /api/pay/[orderId]": {
    summary: "Payment page status",
    description: "The customer's view of an order by its public ORD-… id (numeric ids are not accepted): what to pay, where, and how far along the payment is. No merchant data.",
    tags: ["Payment page"],
    params: orderParams,
    response: envelope(publicOrderJson, "OK"),
  },
  "POST /api/pay/[orderId]/simulate": {
    summary: "Simulate a payment from the payment page",
    description: "The payment page's sandbox controls: `full` pays what is missing, `partial` half of it, `mine` mines the confirmations still needed. Limited per client address.",
    tags: ["Payment page", "Sandbox"],
    params: orderParams,
    body: simulateBody,
    sandboxOnly: true,
    response: envelope(simulatedPaymentJson, "Simulated on the devnet.", 201),
    errors: ["CONFLICT", "RATE_LIMITED", "SERVICE_UNAVAILABLE"],
  },
  "GET /api/payment-links": {
    summary: "List payment links",
    description: "Newest first.",
    tags: ["Payment links"],
    query: listLinksQuery,
    response: listOf(linkJson),
  },
  "POST /api/payment-links": {
    summary: "Create a payment link",
    description:
      "A reusable link: title, price per item (token `amount`, or fiat `price_amount` + `price_currency` converted per order at the rate of its moment), the tokens and chains the customer may pay with, and an optional `max_quantity`. Share `url`; each customer gets a fresh order.",
    tags: ["Payment links"],
    body: createLinkBody,
    bodyExamples: {
      token: { summary: "Priced in USDC, on two chains, up to 5 items", value: { title: "Espresso beans 1 kg", amount: "24", options: [{ blockchain: "base", currency: "USDC" }, { blockchain: "polygon", currency: "USDC" }], max_quantity: 5 } },
      fiat: { summary: "Priced in EUR, paid in ETH or USDC", value: { title: "Conference ticket", price_amount: "49.00", price_currency: "EUR", options: [{ blockchain: "base", currency: "ETH" }, { blockchain: "base", currency: "USDC" }] } },
    },
    response: envelope(linkJson, "Payment link created.", 201),
    errors: ["INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN", "UNSUPPORTED_PRICE_CURRENCY"],
  },
  "GET /api/payment-links/[id]": {
    summary: "Get a payment link",
    tags: ["Payment links"],
    params: linkParams,
    response: envelope(linkJson, "OK"),
  },
  "PUT /api/payment-links/[id]": {
    summary: "Update a payment link",
    description: "Replaces the link's settings (same body as create). Orders already made from it keep theirs. `is_active: false` closes the link.",
    tags: ["Payment links"],
    params: linkParams,
    body: updateLinkBody,
    bodyExamples: { close: { summary: "Close the link", value: { ...{ title: "Espresso beans 1 kg", amount: "24", options: [{ blockchain: "base", currency: "USDC" }, { blockchain: "polygon", currency: "USDC" }], max_quantity: 5 }, is_active: false } } },
    response: envelope(linkJson, "Payment link updated."),
    errors: ["INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN", "UNSUPPORTED_PRICE_CURRENCY"],
  },
  "DELETE /api/payment-links/[id]": {
    summary: "Delete a payment link",
    description: "Its page answers 404 from now on; orders made from it are kept.",
    tags: ["Payment links"],
    params: linkParams,
    response: envelope(deletedLinkJson, "Payment link deleted."),
  },
  "GET /api/links/[linkId]": {
    summary: "Get a payment link's public view",
    description: "What the public page /link/{id} shows: title, shop, price and options. Public, limited per client address; inactive or unknown links are 404.",
    tags: ["Payment links", "Payment page"],
    params: publicLinkParams,
    response: envelope(publicLinkJson, "OK"),
  },
  "POST /api/links/[linkId]/orders": {
    summary: "Create an order from a payment link",
    description:
      "Public: the customer picks one of the link's options and a quantity; the gateway creates a fresh order (its own nonce, order_info naming the link) and answers its `payment_url`. Limited per client address (60 an hour).",
    tags: ["Payment links", "Payment page"],
    params: publicLinkParams,
    body: createLinkOrderBody,
    bodyExamples: { pick: { summary: "Two items, paid in USDC on base", value: { blockchain: "base", currency: "USDC", quantity: 2 } } },
    response: envelope(linkOrderJson, "Order created.", 201),
    errors: ["WALLET_NOT_CONFIGURED", "PRICE_FEED_STALE", "PRICE_FEED_UNAVAILABLE", "UNSUPPORTED_PRICE_CURRENCY", "RATE_LIMITED"],
  },
  "POST /api/pay/[orderId]/refund-address": {
    summary: "Leave a refund address (payment page)",
    description: "For an overpaid, underpaid or late payment (`refund_address_allowed` in the public order): the customer's address for the merchant to refund to. Set once (409 CONFLICT afterwards: the order id is public, so a second answer could come from anyone). Limited per client address.",
    tags: ["Payment page"],
    params: orderParams,
    body: refundAddressBody,
    response: envelope(publicRefundAddressJson, "Refund address saved; the merchant will see it.", 201),
    errors: ["ORDER_NOT_REFUNDABLE", "CONFLICT", "RATE_LIMITED"],
  },
  "GET /api/openapi.json": {
    summary: "This OpenAPI document",
    tags: ["Meta"],
    response: { kind: "bare", status: 200, schema: z.object({ openapi: z.string() }).loose().describe("The OpenAPI 3.1 document") },
  },
};

/**
 * Route files under app/api outside the route table, because they do not go through withApi.
 * Documented here by their path and method (keys in the table's format).
 */
export const extraOperations: Record<string, OperationDoc & { security: "none" }> = {
  "POST /api/sandbox/inbox/[token]": {
    summary: "Capture a webhook (inbox URL)",
    description:
      "The merchant's sandbox capture URL: records any request (GET, PUT, PATCH and DELETE are recorded too) and checks its webhook signatures. The unguessable token is the credential. 404 in live mode or for an unknown token.",
    tags: ["Sandbox"],
    params: z.object({ token: z.string().describe("The inbox token (inb_…), from GET /api/sandbox/inbox/") }),
    sandboxOnly: true,
    security: "none",
    response: envelope(inboxCaptureJson, "Captured."),
  },
};

/**
 * Route files under app/api that are not part of the merchant API, with why. Every other route
 * file and exported method must have an operation (tests/openapi/coverage.test.ts).
 */
export const undocumentedRoutes: Record<string, string> = {
  "[...path]": "the catch-all answering 404 NOT_FOUND for unknown /api paths",
  inngest: "the Inngest serve endpoint (JOBS_DRIVER=inngest), called by Inngest only",
  "auth/[...nextauth]": "next-auth's own session endpoints for the dashboard",
  "sandbox/inbox/[token] GET,PUT,PATCH,DELETE": "the same capture handler as POST /api/sandbox/inbox/{token}",
};
