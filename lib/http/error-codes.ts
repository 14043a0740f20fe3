import { z } from "zod";

export interface ErrorCodeInfo {
  status: number;
  /** When the code is answered, for the error guide (/docs/errors) and the reference. */
  description: string;
  /** A body's `error` as the code answers it, for the reference's examples. */
  example: { message: string; details?: Record<string, string[]> };
  /** Whether and when a client should retry; absent: not without fixing the request. */
  retry?: string;
}

/**
 * Every error code the API can answer with (spec › Errors; DESIGN › API decisions): its HTTP
 * status, what it means and an example. The error envelope takes the status from here, and the
 * error guide and the OpenAPI document print the rest, so the three cannot drift apart.
 */
export const errorCodes = {
  VALIDATION_ERROR: {
    status: 400,
    description: "The request data is invalid: malformed JSON, a missing or malformed field, a body over 64 KiB. `details` maps each field to its messages.",
    example: { message: "Request data is invalid.", details: { amount: ["This field is required."] } },
  },
  INVALID_AMOUNT: {
    status: 400,
    description: "amount is not a positive decimal string, or has more decimals than the token.",
    example: { message: "Amount must be a positive number." },
  },
  UNSUPPORTED_CURRENCY: {
    status: 400,
    description: "The currency is not offered on that blockchain (see GET /api/blockchains/).",
    example: { message: "Currency 'DOGE' is not supported on base; supported: USDC, ETH." },
  },
  INVALID_BLOCKCHAIN: {
    status: 400,
    description: "The blockchain is not supported by this deployment.",
    example: { message: "Blockchain 'solana' is not supported; see GET /api/blockchains/." },
  },
  WALLET_NOT_CONFIGURED: {
    status: 400,
    description: "No active wallet for that blockchain: add one with POST /api/merchant-wallets/.",
    example: { message: "No active wallet is configured for base; add one with POST /api/merchant-wallets/." },
  },
  DUPLICATE_NONCE: {
    status: 400,
    description: "The nonce was already used for another of your orders: `details.order_id` names it, and GET /api/payment-orders/?nonce=N finds it.",
    example: {
      message: "Nonce 42 has already been used for another order (ORD-7Kq2xW9pLm3N).",
      details: { nonce: ["Already used by order ORD-7Kq2xW9pLm3N; GET /api/payment-orders/?nonce=42 finds it."], order_id: ["ORD-7Kq2xW9pLm3N"] },
    },
  },
  INVALID_ORDER_INFO: {
    status: 400,
    description: "order_info is not a string holding valid JSON.",
    example: { message: "order_info is not valid JSON." },
  },
  UNSUPPORTED_PRICE_CURRENCY: {
    status: 400,
    description: "price_currency is not one the gateway prices in, or the order's chain has no price feed for the pair it needs (token/USD, fiat/USD).",
    example: { message: "Orders cannot be priced in 'XAU'; supported: USD, EUR, GBP, CHF, JPY." },
  },
  ORDER_NOT_REFUNDABLE: {
    status: 400,
    description:
      "The order cannot be refunded (or take a refund address): only confirmed orders and failed ones that were underpaid or paid late, holding some of the order's currency; overpaid_only needs an overpaid order.",
    example: { message: "Only confirmed orders and failed ones that were underpaid or paid late can be refunded; this order is pending." },
  },
  REFUND_EXCEEDS_REFUNDABLE: {
    status: 400,
    description: "The refund is more than what is still refundable: received minus refunds requested, pending or confirmed. The message says how much is left.",
    example: {
      message: "At most 2.5 USDC can still be refunded (received 12.5, minus refunds requested, pending or confirmed).",
      details: { amount: ["Must be at most 2.5."] },
    },
  },
  PAYOUT_NOT_EDITABLE: {
    status: 409,
    description:
      "The payout batch is past the step asked for: only a draft can be changed or approved, only a draft or an approved batch can be cancelled or take its transaction, and a sent batch is settled by the chain.",
    example: { message: "Only a draft batch can be changed; this one is sent." },
  },
  PAYOUT_APPROVAL_REQUIRED: {
    status: 409,
    description:
      "The batch is worth more than the account's approval threshold (or its worth is unknown): a second member must approve it (POST /api/payouts/{id}/approve/) before it is signed.",
    example: { message: "This batch (1250.00 USD) is above the approval threshold (1000 USD): another member must approve it first." },
  },
  PAYOUT_CLAIM_CLOSED: {
    status: 409,
    description: "The claim link cannot take an address: it was already claimed (one claim per link), it expired, or the merchant cancelled it.",
    example: { message: "This link was already claimed." },
  },
  PAYOUT_APPROVAL_REFUSED: {
    status: 403,
    description:
      "This credential cannot approve the batch: approving needs a member's login (not an API key) whose role manages wallets (owner, admin), other than the member who made the batch.",
    example: { message: "A batch is approved by a second member: you made this one." },
  },
  INVALID_AUTHORIZATION: {
    status: 400,
    description:
      "A gasless payment's signed EIP-3009 authorization does not pay this order: `to` is not the order's deposit address, `value` is not exactly the amount due now, the validity window is not within the order's life (or has passed), the signature was not made by `from` over these fields, `from` holds too little, or the token refused it. `details` names the field.",
    example: {
      message: "The authorization does not pay this order.",
      details: { value: ["Must be exactly the amount due now: 12.5 USDC (12500000 base units)."] },
    },
  },
  RELAY_NOT_WORTHWHILE: {
    status: 400,
    description:
      "The order cannot be paid without gas: the amount due is worth less than the smallest gasless payment (GASLESS_MIN_ORDER_USD), or relaying it would cost more than its share of the amount (GASLESS_MAX_COST_SHARE) at the current gas price. The public order's `gasless` is null then. Nothing was sent.",
    example: { message: "The amount due is worth less than $0.01, below the $1.00 a payment without gas needs; pay from your wallet." },
    retry: "No: pay with a wallet that holds gas",
  },
  INVALID_TOKEN: {
    status: 401,
    description: "The credential is missing, malformed, expired or revoked (or a refresh token was already used).",
    example: { message: "Token is invalid or expired." },
    retry: "After refreshing the token",
  },
  INVALID_CREDENTIALS: {
    status: 401,
    description: "Wrong username or password.",
    example: { message: "Invalid username or password." },
  },
  SECOND_FACTOR_REQUIRED: {
    status: 401,
    description:
      "The password was right and the account has two-factor authentication: the body's top-level `second_factor` holds a `challenge` (valid 5 minutes) to send with a code to POST /api/auth/login/second-factor/.",
    example: { message: "Enter a code from your authenticator app (or a recovery code) to finish signing in." },
    retry: "With the challenge and a code, at POST /api/auth/login/second-factor/",
  },
  INSUFFICIENT_PERMISSIONS: {
    status: 403,
    description: "The credential lacks the operation's permission, or an API key called a login-only operation.",
    example: { message: "This credential lacks the 'create_payments' permission." },
  },
  CROSS_ORIGIN_REQUEST: {
    status: 403,
    description: "A dashboard form was submitted from another site (its Origin is not this server's host); nothing was done.",
    example: { message: "This form was sent from another site." },
  },
  NOT_FOUND: {
    status: 404,
    description: "No such resource for your account (another merchant's resource is not found either), or no endpoint at this path.",
    example: { message: "Resource not found." },
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    description: "The path exists, but not with this method; the `Allow` header lists the methods it has.",
    example: { message: "DELETE is not allowed here; allowed: GET, POST." },
  },
  CONFLICT: {
    status: 409,
    description: "The request conflicts with the resource's state (e.g. redelivering to a disabled endpoint, paying an order that has nothing left to pay).",
    example: { message: "The request conflicts with the resource's current state." },
  },
  AUTHORIZATION_USED: {
    status: 409,
    description: "A gasless payment's authorization nonce was already used or canceled (a replay): sign a new authorization.",
    example: { message: "This authorization was already used; sign a new one." },
  },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    status: 409,
    description: "A request with the same Idempotency-Key is still running (`Retry-After: 1`).",
    example: { message: "A request with this Idempotency-Key is still being processed; retry once it has answered." },
    retry: "After Retry-After (1 s), with the same key",
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    description: "The Idempotency-Key was already used (within 24 hours) with a different method, path or body.",
    example: { message: "This Idempotency-Key was already used with a different request (method, path or body); use a new key for a new request." },
    retry: "No: use a new key for a new request",
  },
  RATE_LIMITED: {
    status: 429,
    description: "Too many requests: wait `retry_after` seconds (also in the `Retry-After` header).",
    example: { message: "Too many requests. Try again later." },
    retry: "After retry_after",
  },
  RELAY_BUDGET_EXHAUSTED: {
    status: 429,
    description:
      "The gas the gateway spends relaying gasless payments has reached its hourly cap, for this merchant's orders or for all merchants together: pay with a wallet that holds gas, or wait `retry_after` seconds.",
    example: { message: "Gasless payments for this shop are paused for now; pay from your wallet or try again later." },
    retry: "After retry_after, or pay with gas",
  },
  INTERNAL_ERROR: {
    status: 500,
    description: "Something failed on our side. The body never carries details (no stack, no SQL); quote the x-request-id header.",
    example: { message: "An unexpected error occurred." },
    retry: "With backoff",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description: "A dependency (chain RPC, sandbox devnet) did not answer. Retry later.",
    example: { message: "The sandbox devnet is not running." },
    retry: "With backoff",
  },
  GAS_PRICE_TOO_HIGH: {
    status: 503,
    description:
      "The chain's gas price is above the ceiling the gateway relays gasless payments at. Nothing was sent; pay with a wallet that holds gas, or retry later.",
    example: { message: "Gas on base is above the gasless ceiling (base fee 9.1 gwei + tip 1 gwei > 5 gwei); nothing was sent." },
    retry: "Later",
  },
  PRICE_FEED_STALE: {
    status: 503,
    description:
      "A price feed a fiat-priced order needs was last updated longer ago than its bound (heartbeat plus margin): no rate is locked from a stale price. Retry later, or price the order in the token.",
    example: { message: "The ETH/USD price feed on base was last updated 7300 s ago (more than 4200 s); no rate can be locked now." },
    retry: "Later",
  },
  PRICE_FEED_UNAVAILABLE: {
    status: 503,
    description: "A price feed a fiat-priced order needs could not be read or answered no usable price. Retry later.",
    example: { message: "The ETH/USD price feed on base could not be read; try again shortly." },
    retry: "With backoff",
  },
  SANCTIONED_ADDRESS: {
    status: 400,
    description:
      "The destination failed sanctions screening: it is on the sanctions list the operator loaded (the US Treasury's SDN list) or the screening provider flagged it. No refund or payout is built to it; `details` names the field.",
    example: {
      message: "0x00000000000000000000000000000000005eed02 failed sanctions screening: no money is sent to it.",
      details: { to_address: ["Failed sanctions screening (on the sanctions list)."] },
    },
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof errorCodes;
export const allErrorCodes = Object.keys(errorCodes) as ErrorCode[];
export const errorCode = z.enum(allErrorCodes as [ErrorCode, ...ErrorCode[]]);

/** The HTTP status of a code. */
export const statusOf = (code: ErrorCode): number => errorCodes[code].status;
