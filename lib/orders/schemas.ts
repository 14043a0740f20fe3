import { z } from "zod";
import { pageQuery } from "@/lib/http/pagination";

/** Order statuses (spec › States). */
export const orderStatuses = ["pending", "processing", "confirmed", "expired", "failed"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** Failure reasons (DESIGN › Order lifecycle). */
export type FailureReason = "underpaid" | "late_payment" | "reverted";

/** 2048: the common practical URL limit of browsers and HTTP servers. */
export const maxUrlLength = 2048;

/** Default payment window when expires_at is omitted (DESIGN: 30 minutes). */
export const defaultOrderLifetimeMs = 30 * 60 * 1000;

/** Required, but its content is checked by the use-case, which owns the specific error code. */
const present = (description: string) =>
  z.unknown().refine((value) => value !== undefined && value !== null, "This field is required.").describe(description);

const httpUrl = z
  .string()
  .max(maxUrlLength, `Must be at most ${maxUrlLength} characters.`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "Enter a valid http(s) URL.");

export const createOrderBody = z.object({
  amount: present('Positive decimal amount in token units, as a string ("10.50"); at most the token\'s decimals'),
  currency: z.string().trim().min(1, "This field may not be blank.").max(32).describe("Token symbol offered on the blockchain (case-insensitive), e.g. USDC or ETH"),
  blockchain: z.string().trim().min(1, "This field may not be blank.").max(64).describe("Blockchain slug, e.g. base"),
  order_info: present("JSON text with order details; stored and returned exactly as sent"),
  nonce: z
    .number({ error: (issue) => (issue.input === undefined ? "This field is required." : "Must be an integer (a JSON number).") })
    .int("Must be a whole number no larger than 2^53 - 1.")
    .min(0, "Must be zero or greater.")
    .describe("Unique per merchant; a reused nonce is rejected with DUPLICATE_NONCE"),
  webhook_url: httpUrl.nullish().describe("Per-order webhook URL; the account's webhook secret signs deliveries to it"),
  redirect_url: httpUrl.nullish().describe("Where the payment page sends the customer after payment"),
  expires_at: z.iso
    .datetime({ offset: true, message: "Enter an ISO 8601 timestamp with a time zone, e.g. 2030-01-01T12:00:00Z." })
    .nullish()
    .describe("When the payment window closes; must be in the future; defaults to 30 minutes from now"),
});
export type CreateOrderBody = z.infer<typeof createOrderBody>;

/** Sort keys accepted by `ordering`; a leading '-' sorts descending. */
export const orderingFields = ["created_at", "amount", "status"] as const;
export type OrderingField = (typeof orderingFields)[number];
const orderingValues = orderingFields.flatMap((f) => [f, `-${f}`]) as [string, ...string[]];

export const listOrdersQuery = pageQuery.extend({
  status: z.enum(orderStatuses, `Must be one of ${orderStatuses.join(", ")}.`).optional(),
  blockchain: z.string().min(1).max(64).optional(),
  currency: z.string().min(1).max(32).optional(),
  ordering: z
    .enum(orderingValues, `Must be one of ${orderingValues.join(", ")}.`)
    .default("-created_at")
    .transform((value) => ({ field: value.replace(/^-/, "") as OrderingField, descending: value.startsWith("-") })),
});
export type ListOrdersQuery = z.infer<typeof listOrdersQuery>;

export const orderParams = z.object({ orderId: z.string() });
