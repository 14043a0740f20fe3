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
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** A dependency (chain RPC, devnet) did not answer. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCode = z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]);
