import { z } from "zod";

/**
 * Building blocks of the response schemas (lib/<domain>/schemas.ts `…Json`). They describe what
 * the serializers emit, for the OpenAPI document and the response-validation tests; routes never
 * parse their own output with them.
 */

/** An ISO 8601 timestamp as `Date#toISOString()` writes it. */
export const timestamp = z.string().meta({ format: "date-time", examples: ["2030-01-01T12:00:00.000Z"] });

/** A decimal amount in token units, as a string (never a float). */
export const decimalString = z.string().regex(/^\d+(\.\d+)?$/).meta({ examples: ["10.5"] });

/** A 0x-prefixed EVM address. */
export const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/).meta({ examples: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"] });

/** A 0x-prefixed 32-byte transaction hash. */
export const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
