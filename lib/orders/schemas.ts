import { z } from "zod";
import { env } from "@/lib/env";
import { keysetPageQuery } from "@/lib/http/pagination";
import { decimalString, evmAddress, timestamp } from "@/lib/http/schemas";
import { refundJson } from "@/lib/refunds/schemas";
import { notCountedReasons } from "@/lib/transactions/schemas";

/** How a refund address was given (issue 52). */
export const refundAddressSources = ["payer_signature", "email_link", "merchant"] as const;

/** Order statuses (spec › States). */
export const orderStatuses = ["pending", "processing", "confirmed", "expired", "failed"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

/** Failure reasons (DESIGN › Order lifecycle). */
export type FailureReason = "underpaid" | "late_payment" | "reverted";

/** 2048: the common practical URL limit of browsers and HTTP servers. */
export const maxUrlLength = 2048;

/** Most (chain, token) methods one order accepts. */
export const maxAcceptedMethods = 20;

/** Default payment window when expires_at is omitted (DESIGN: 30 minutes). */
export const defaultOrderLifetimeMs = 30 * 60 * 1000;

/**
 * Required, but its content is checked by the use-case, which owns the specific error code.
 * Documented (OpenAPI, typed client) as the string it must be.
 */
const present = (description: string) =>
  z
    .unknown()
    .refine((value) => value !== undefined && value !== null, "This field is required.")
    .meta({ type: "string", description });

const httpUrl = z
  .string()
  .max(maxUrlLength, `Must be at most ${maxUrlLength} characters.`)
  // The URL parser would quietly drop them (a tab inside "java\tscript:" too); a URL we send a browser to holds none.
  .refine((value) => !/[\u0000-\u0020\u007f-\u009f]/.test(value), "Must not contain spaces or control characters.")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "Enter a valid http(s) URL.")
  .meta({ format: "uri", pattern: "^https?://" });

export const createOrderBody = z
  .object({
    amount: z.unknown().optional().meta({
      type: "string",
      pattern: "^\\d+(\\.\\d+)?$",
      description:
        'Positive decimal amount in token units, as a string ("10.50"); at most the token\'s decimals, at most 2^256 − 1 base units; anything else is INVALID_AMOUNT. Required unless the order is priced in fiat (price_amount)',
    }),
    price_amount: z.unknown().optional().meta({
      type: "string",
      pattern: "^\\d{1,15}(\\.\\d+)?$",
      description:
        "Fiat price as a decimal string (\"19.90\"; at most the currency's minor units), instead of amount: the gateway converts it into `currency` at a rate read from on-chain price feeds and locks it for the order's lifetime",
    }),
    price_currency: z
      .string()
      .trim()
      .min(1, "This field may not be blank.")
      .max(8)
      .optional()
      .describe("ISO 4217 code of price_amount: USD, EUR, GBP, CHF or JPY (where the chain has the feed)"),
    currency: z
      .string()
      .trim()
      .min(1, "This field may not be blank.")
      .max(32)
      .describe("Token symbol offered on the blockchain (case-insensitive), e.g. USDC or ETH"),
    blockchain: z.string().trim().min(1, "This field may not be blank.").max(64).describe("Blockchain slug, e.g. base"),
    order_info: present("JSON text with order details; stored and returned exactly as sent"),
    nonce: z
      .number({ error: (issue) => (issue.input === undefined ? "This field is required." : "Must be an integer (a JSON number).") })
      .int("Must be a whole number no larger than 2^53 - 1.")
      .min(0, "Must be zero or greater.")
      .describe("Unique per merchant, 0 to 2^53 − 1 (a JSON number that is exact in every client); a reused nonce is rejected with DUPLICATE_NONCE"),
    webhook_url: httpUrl.nullish().describe("Per-order webhook URL; the account's webhook secret signs deliveries to it"),
    redirect_url: httpUrl
      .refine((value) => env.GATEWAY_MODE !== "live" || value.startsWith("https:"), "Must be an https URL in live mode.")
      .nullish()
      .describe("Where the payment page sends the customer after payment (https in live mode)"),
    expires_at: z.iso
      .datetime({ offset: true, message: "Enter an ISO 8601 timestamp with a time zone, e.g. 2030-01-01T12:00:00Z." })
      .nullish()
      .describe("When the payment window closes; must be in the future; defaults to 30 minutes from now"),
    accepted_methods: z
      .array(
        z.object({
          blockchain: z.string().trim().min(1, "This field may not be blank.").max(64).describe("Blockchain slug, e.g. polygon"),
          currency: z.string().trim().min(1, "This field may not be blank.").max(32).describe("Token symbol on that blockchain, e.g. USDC"),
        }),
      )
      .max(maxAcceptedMethods, `At most ${maxAcceptedMethods} methods.`)
      .nullish()
      .describe(
        "Further (blockchain, currency) methods the customer may choose on the payment page, besides `blockchain` and `currency` (always accepted, and the method the order starts with). Each blockchain needs an active wallet (WALLET_NOT_CONFIGURED) and the currency must be offered on it (INVALID_BLOCKCHAIN, UNSUPPORTED_CURRENCY). An order priced in a token can accept that token on other blockchains (same amount); with price_amount every method gets its own amount at a locked rate. Omitted: the order accepts only `blockchain` and `currency`",
      ),
  })
  // Run even when fields failed, so every missing field is named in one answer.
  .superRefine(
    (body, ctx) => {
      const fiat = body.price_amount !== undefined && body.price_amount !== null;
      if (fiat && body.amount !== undefined && body.amount !== null)
        ctx.addIssue({ code: "custom", path: ["amount"], message: "Give amount or price_amount, not both." });
      else if (!fiat && (body.amount === undefined || body.amount === null))
        ctx.addIssue({ code: "custom", path: ["amount"], message: "This field is required." });
      if (fiat && !body.price_currency) ctx.addIssue({ code: "custom", path: ["price_currency"], message: "Required with price_amount." });
      if (!fiat && body.price_currency) ctx.addIssue({ code: "custom", path: ["price_amount"], message: "Required with price_currency." });
    },
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  );
export type CreateOrderBody = z.infer<typeof createOrderBody>;

/** Sort keys accepted by `ordering`; a leading '-' sorts descending. */
export const orderingFields = ["created_at", "amount", "status"] as const;
export type OrderingField = (typeof orderingFields)[number];
const orderingValues = orderingFields.flatMap((f) => [f, `-${f}`]) as [string, ...string[]];

export const listOrdersQuery = keysetPageQuery.extend({
  status: z.enum(orderStatuses, `Must be one of ${orderStatuses.join(", ")}.`).optional(),
  blockchain: z.string().min(1).max(64).optional(),
  currency: z.string().min(1).max(32).optional(),
  nonce: z
    .string()
    .regex(/^\d{1,16}$/, "Must be a whole number.")
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, "Must be a whole number."))
    .optional()
    .describe("The order created with this nonce (at most one): finds what a create answered with DUPLICATE_NONCE"),
  ordering: z
    .enum(orderingValues, `Must be one of ${orderingValues.join(", ")}.`)
    .default("-created_at")
    .transform((value) => ({ field: value.replace(/^-/, "") as OrderingField, descending: value.startsWith("-") })),
});
export type ListOrdersQuery = z.infer<typeof listOrdersQuery>;

/** The order in a path: its public order_id (ORD-…) or its numeric id; anything else names no order (404). */
export const orderParams = z.object({
  orderId: z
    .string()
    .regex(/^(ORD-[A-Za-z0-9]{1,60}|\d{1,10})$/)
    .describe("The order's public order_id (ORD-…) or its numeric id"),
});

// Response shapes: exactly what lib/orders/serialize.ts returns (checked by lib/openapi/shape-checks.ts and tests/openapi).

export const orderTransactionJson = z.object({
  transaction_hash: z.string().describe("Hash of the latest transfer to the deposit address"),
  block_number: z.number().int(),
  confirmations: z.number().int().describe("Blocks on top of the transfer's block, counting it (head − block + 1)"),
  status: z.string().describe("The transfer's status: pending, confirmed, or dropped after a reorg"),
});

export const orderJson = z.object({
  id: z.number().int().describe("Internal numeric id; the single-order path accepts it too"),
  order_id: z.string().describe("Public id, ORD-…"),
  amount: decimalString.describe("Amount due, in token units"),
  currency: z.string().describe("Token symbol, e.g. USDC"),
  blockchain: z.string().nullable().describe("Blockchain slug, e.g. base"),
  status: z.enum(orderStatuses).describe("pending → processing → confirmed; or expired / failed"),
  receiving_address: evmAddress.describe("The order's own deposit address: the customer pays here"),
  payment_url: z.string().describe("Hosted payment page for the customer"),
  qr_code_url: z.string().describe("Path of an SVG QR code of the payment URI"),
  order_info: z.string().describe("The JSON text given at creation, unchanged"),
  nonce: z.number().int(),
  webhook_url: z.string().nullable(),
  redirect_url: z.string().nullable(),
  created_at: timestamp,
  expires_at: timestamp.describe("When the payment window closes"),
  confirmed_at: timestamp.nullable().describe("Set once the order is confirmed"),
  transaction: orderTransactionJson.nullable().describe("null until a transfer to the deposit address is detected"),
  amount_received: decimalString.describe("What counted transfers added up to (can exceed amount)"),
  failure_reason: z.enum(["underpaid", "late_payment", "reverted"]).nullable().describe("Why a failed order failed; null otherwise"),
  price_amount: z
    .string()
    .nullable()
    .describe('Fiat-priced orders: the price as given, with the currency\'s minor units ("19.90"); null for token-priced orders'),
  price_currency: z.string().nullable().describe("ISO 4217 code of price_amount (USD, EUR, …); null for token-priced orders"),
  rate: decimalString.nullable().describe("The locked rate: price_currency units per one whole token (e.g. 3412.57 USD per ETH); null for token-priced orders"),
  rate_source: z
    .array(
      z.object({
        pair: z.string().describe('Feed pair, e.g. "ETH/USD"'),
        feed_address: evmAddress.describe("The Chainlink AggregatorV3 feed read on the order's chain"),
        round_id: z.string().describe("The feed round the answer came from (uint80, as a string)"),
        answer: z.string().describe("The raw answer (integer, scaled by 10^decimals)"),
        decimals: z.number().int(),
        updated_at: timestamp.describe("When the feed last updated that answer"),
      }),
    )
    .nullable()
    .describe("Where the rate came from: the token/USD feed, and the fiat/USD feed unless priced in USD"),
  sweep: z
    .object({
      status: z
        .enum(["pending", "submitted", "succeeded", "failed"])
        .describe("pending: queued; submitted: sent; succeeded: the deposit reached your wallet; failed: gave up (flush it yourself)"),
      destination: evmAddress.describe("Your wallet bound into the deposit address at creation: the only place the funds can go"),
      transaction_hash: z.string().nullable().describe("The flush transaction, once sent"),
    })
    .nullable()
    .describe(
      "Where the money in the deposit address went: set once the order settled with money in it (confirmed, or failed / expired with an underpayment, a late payment or another asset); null otherwise",
    ),
  refund_address: evmAddress
    .nullable()
    .describe("The address the customer left on the payment page for a refund (overpaid, underpaid or late orders); null otherwise"),
  refund_address_payer_signed: z
    .boolean()
    .describe(
      "Whether refund_address was signed by a wallet that paid this order (always, since issue 24; false only for an address left unsigned before that, or none)",
    ),
  refund_address_signed_by: evmAddress.nullable().describe("The paying address whose signature set refund_address; null when unsigned or none"),
  refund_address_source: z
    .enum(refundAddressSources)
    .nullable()
    .describe(
      "How refund_address was given: payer_signature (signed by a paying wallet), email_link (through a one-time link mailed to the address the customer gave while the payment was due), merchant (entered by a member after contact with the customer, with fresh proof; in the audit log); null when none or left before this was recorded",
    ),
  refund_address_given_by: z
    .string()
    .nullable()
    .describe("Who gave it: the paying address that signed, the e-mail address the link went to, or the member who entered it"),
  refunds: z.array(refundJson).describe("Refunds of this order, oldest first (POST /api/payment-orders/{order_id}/refunds/)"),
  at_risk: z
    .boolean()
    .describe(
      "A chain reorganisation took away the payment of this order after it was confirmed: it stays confirmed (you were told), but the money may not have arrived; check before shipping more. A payment.reorged webhook said so",
    ),
  at_risk_reason: z.enum(["payment_reorged"]).nullable().describe("Why the order is at risk; null when it is not"),
  at_risk_since: timestamp.nullable().describe("When the gateway found the payment gone; null when the order is not at risk"),
  accepted_methods: z
    .array(
      z.object({
        blockchain: z.string().nullable().describe("Blockchain slug"),
        currency: z.string().describe("Token symbol"),
        amount: decimalString.describe("What the customer pays by this method, in token units"),
        rate: decimalString.nullable().describe("Fiat-priced orders: the rate locked for this method (price_currency per whole token); null otherwise"),
        receiving_address: evmAddress.describe("The order's deposit address on this blockchain"),
      }),
    )
    .describe(
      "The (blockchain, currency) methods the customer may pay by, the order's own first; one entry for an order created without accepted_methods. Until money arrives the customer may switch on the payment page; blockchain, currency, amount, rate and receiving_address then show the method chosen",
    ),
  payment_method: z
    .object({ blockchain: z.string().nullable(), currency: z.string() })
    .nullable()
    .describe("The method the money came by (then fixed): set once a payment counted toward the order; null before"),
  amount_arrived: decimalString.describe(
    "Everything of the order's own token that arrived at its deposit address and still stands on chain, counted or not (a late payment arrived too, and was swept to your wallet). Compare with amount_counted",
  ),
  amount_counted: decimalString.describe(
    "What counts toward the order (the same as amount_received): arrived by expires_at, the order's token, not reorged out",
  ),
  not_counted: z
    .array(
      z.object({
        transaction_hash: z.string(),
        amount: decimalString.describe("In the transfer's own token"),
        currency: z.string(),
        reason: z
          .enum(notCountedReasons)
          .describe("after_expiry (arrived late), wrong_asset (another token or coin), reorged (its block left the chain), reverted (the transaction failed)"),
      }),
    )
    .describe(
      "Each transfer to the order that does not count toward it, and why (GET /api/transactions/{hash}/ has the same reason); empty when everything counted",
    ),
  payment_reversed: z
    .boolean()
    .describe(
      "A chain reorganisation took back a payment that had counted and nothing replaced it: the order is at risk (confirmed) or pending again, waiting for the payment (a payment.reorged webhook said so)",
    ),
  screening: z
    .object({
      status: z
        .enum(["clear", "flagged", "held", "released"])
        .describe(
          "clear: no payer of this order matched the sanctions list (or the screening provider) so far; flagged: a payer matched and your policy is `record`, so the payment goes on; held: a match holds the payment (policy `hold`: no payment.confirmed until a member releases it; `refund`: never confirmed, refund it); released: a held payment a member released. A match also sends payment.flagged",
        ),
      list_date: z
        .string()
        .nullable()
        .describe(
          "The publish date (YYYY-MM-DD) of the sanctions list the operator loaded, which payers are screened against; null: no list loaded, so nothing is screened against one",
        ),
    })
    .describe("Sanctions screening of the order's payers (docs: /docs/screening)"),
});
export type OrderJsonShape = z.infer<typeof orderJson>;

export const orderListItemJson = orderJson.pick({ id: true, order_id: true, amount: true, currency: true, status: true, created_at: true });

/**
 * What the hosted payment page and its public status endpoint show of an order (lib/orders/public-order.ts
 * `serializePublicOrder`): only what the customer needs to pay. Never the merchant's order_info, nonce,
 * webhook URL, wallet settings, deposit destination or ids (tests/api/pay/public-order.test.ts checks the exact key set).
 */
export const publicOrderJson = z.object({
  order_id: z.string(),
  shop_name: z.string(),
  amount: decimalString,
  currency: z.string(),
  token: z.object({ symbol: z.string(), address: z.string().nullable().describe("null for the native coin"), decimals: z.number().int() }),
  blockchain: z.object({
    slug: z.string(),
    name: z.string(),
    chain_id: z.number().int(),
    native_currency: z.object({ symbol: z.string(), name: z.string(), decimals: z.number().int() }),
    rpc_url: z.string().nullable().describe("Browser RPC: the sandbox devnet's URL only; null elsewhere"),
    explorer_url: z.string().nullable(),
  }),
  receiving_address: z.string(),
  status: z.string(),
  failure_reason: z.string().nullable(),
  amount_received: decimalString,
  amount_missing: decimalString,
  price_amount: z.string().nullable().describe("Fiat-priced orders: the price shown to the customer"),
  price_currency: z.string().nullable(),
  rate: z.string().nullable().describe("Locked rate: price_currency per whole token"),
  rate_updated_at: timestamp.nullable().describe("When the token's price feed last updated the rate's answer"),
  confirmations: z.number().int(),
  confirmation_threshold: z.number().int(),
  transaction_hash: z.string().nullable(),
  transaction_url: z.string().nullable().describe("Block-explorer link (live chains and public testnets only)"),
  qr_code_url: z.string(),
  expires_at: timestamp,
  redirect_url: z.string().nullable().describe("Only once the order is settled (confirmed, expired or failed): the way back to the shop"),
  refund_address_allowed: z.boolean().describe("Whether the customer may leave a refund address: the order was overpaid, underpaid or paid late"),
  refund_address: z.string().nullable().describe("The refund address the customer left (set once)"),
  sandbox: z.boolean(),
  item: z
    .object({ name: z.string(), quantity: z.number().int() })
    .nullable()
    .describe("Orders from a payment link: the link's title and the quantity bought; null otherwise"),
  gasless: z
    .object({
      name: z.string().describe("The token's EIP-712 domain name"),
      version: z.string().describe("The token's EIP-712 domain version"),
      valid_after: z.number().int().describe("Unix seconds: the earliest validAfter to sign (the order's creation)"),
      valid_before: z.number().int().describe("Unix seconds: the latest validBefore to sign (the order's expiry)"),
    })
    .nullable()
    .describe("Pay without gas (POST /api/pay/{order_id}/gasless/): what to sign for a token with EIP-3009; null when the order cannot be paid that way now"),
  methods: z
    .array(
      z.object({
        blockchain: z.object({ slug: z.string(), name: z.string() }),
        currency: z.string(),
        amount: decimalString,
        selected: z.boolean().describe("The method the page shows now"),
      }),
    )
    .describe("The payment methods the customer may choose (POST /api/pay/{order_id}/method/); one for an order with a single method"),
  method_fixed: z.boolean().describe("Money has arrived: the method can no longer change"),
  amount_arrived: decimalString.describe("Everything of the order's token that arrived and still stands on chain, counted or not (a late payment too)"),
  not_counted: z
    .array(
      z.object({
        transaction_hash: z.string(),
        transaction_url: z.string().nullable().describe("Block-explorer link (live chains and public testnets only)"),
        amount: decimalString,
        currency: z.string(),
        reason: z
          .enum(["after_expiry", "wrong_asset", "reorged"])
          .describe("after_expiry: arrived after the deadline; wrong_asset: another token or coin; reorged: the network reversed it"),
      }),
    )
    .describe("What the customer sent that does not pay the order, and why"),
  payment_reversed: z.boolean().describe("The network reversed a payment that had counted (a reorg); the order waits for it again"),
});

/** The customer's view of an order, as the pay page's components type it: derived from its schema, never declared twice. */
export type PublicOrder = z.output<typeof publicOrderJson>;

export const chooseMethodBody = z.object({
  blockchain: z.string().trim().min(1, "This field may not be blank.").max(64).describe("Blockchain slug of one of the order's methods"),
  currency: z.string().trim().min(1, "This field may not be blank.").max(32).describe("Token symbol of that method"),
});
