import { z } from "zod";

/** Every error code the API can answer with, and its HTTP status (spec › Errors; DESIGN › API decisions). */
export const errorStatus = {
  VALIDATION_ERROR: 400,
  INVALID_AMOUNT: 400,
  UNSUPPORTED_CURRENCY: 400,
  INVALID_BLOCKCHAIN: 400,
  WALLET_NOT_CONFIGURED: 400,
  DUPLICATE_NONCE: 400,
  INVALID_ORDER_INFO: 400,
  /** A fiat price_currency the gateway does not price in, or no price feed for the pair on the chain. */
  UNSUPPORTED_PRICE_CURRENCY: 400,
  /** A refund of an order that is not confirmed or failed (underpaid / late payment), or that holds none of its asset. */
  ORDER_NOT_REFUNDABLE: 400,
  /** A refund larger than what is still refundable (received minus refunds requested, pending or confirmed). */
  REFUND_EXCEEDS_REFUNDABLE: 400,
  INVALID_TOKEN: 401,
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** The request conflicts with the resource's state (e.g. a sweep already running). */
  CONFLICT: 409,
  /** A request with the same Idempotency-Key is still running; retry once it has answered. */
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  /** The Idempotency-Key was already used with a different request (method, path or body). */
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** A dependency (chain RPC, devnet) did not answer. */
  SERVICE_UNAVAILABLE: 503,
  /** A price feed's last answer is older than its bound: no rate is locked from it. */
  PRICE_FEED_STALE: 503,
  /** A price feed could not be read, or answered nothing usable. */
  PRICE_FEED_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCode = z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]);
