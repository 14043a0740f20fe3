import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { customerLocales } from "@/lib/i18n/locales";

/**
 * Zod building blocks shared by the domains' schemas (lib/<domain>/schemas.ts): the response
 * primitives the serializers emit, and the one path-id parameter every `[id]` route takes.
 */

/** One of the seven languages of the customer pages (lib/i18n/locales.ts): what a store's mail to its customer is written in. */
export const customerLocale = z.enum(customerLocales, { error: `Must be one of ${customerLocales.join(", ")}.` }).meta({ examples: ["de"] });

/** An ISO 8601 timestamp as `Date#toISOString()` writes it. */
export const timestamp = z.string().meta({ format: "date-time", examples: ["2030-01-01T12:00:00.000Z"] });

/** A decimal amount in token units, as a string (never a float). */
export const decimalString = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .meta({ examples: ["10.5"] });

/** A 0x-prefixed EVM address. */
export const evmAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .meta({ examples: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"] });

/** EIP-55: a mixed-case address must match its checksum; all-lower or all-upper hex carries none. */
export function isTypedAddress(value: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return isAddress(value, { strict: true });
}

/**
 * An address a person typed or pasted, returned checksummed. Mixed-case input must carry a valid
 * EIP-55 checksum, so a typo in a checksummed address is caught instead of sending money to it;
 * all-lowercase and all-uppercase input has no checksum to check.
 */
export const typedAddress = z
  .string()
  .trim()
  .refine(isTypedAddress, "Enter a valid EVM address (0x followed by 40 hex digits, with a correct checksum if mixed-case).")
  .transform((value) => getAddress(value))
  .meta({ examples: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"] });

/** A 0x-prefixed 32-byte transaction hash. */
export const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

/** 2^31 − 1: ids are PostgreSQL `serial` (int4) columns. */
const maxRowId = 2_147_483_647;

/**
 * A numeric row id as it appears in a path or a form: 1 to 2^31 − 1 in decimal digits. Anything
 * else names no row, so a route answers 404, never a database error.
 */
export const rowId = z
  .string()
  .regex(/^\d{1,10}$/, "Must be a numeric id.")
  .transform(Number)
  .pipe(z.number().int().min(1, "Must be a numeric id.").max(maxRowId, "Must be a numeric id."))
  .meta({ description: "Numeric id" });

/** The path parameters of every `…/[id]` route. */
export const idParams = z.object({ id: rowId });

/** A path or form id → the row id, or null when it names no row. */
export function parseRowId(text: string): number | null {
  const parsed = rowId.safeParse(text);
  return parsed.success ? parsed.data : null;
}
