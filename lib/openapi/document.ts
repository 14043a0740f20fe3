import { z } from "zod";
import { publicRefundAddressJson, refundJson } from "@/lib/refunds/schemas";
import { payoutJson, payoutWebhookEventJson } from "@/lib/payouts/schemas";
import { apiKeyJson, createdApiKeyJson } from "@/lib/auth/api-key-schemas";
import { allPermissions } from "@/lib/auth/permissions";
import { allRoles, memberOnlyPermissions, roleAllows, type MemberPermission } from "@/lib/auth/roles";
import { apiRoutes } from "@/lib/api-routes";
import { accountJson, loginJson, registerJson, rotatedAccountSecretJson, tokenPairJson, verifyJson } from "@/lib/auth/schemas";
import { blockchainJson } from "@/lib/chains/schemas";
import { apiTags, routeKeyOf, type RouteAccess, type RouteDefinition, type SuccessResponse } from "@/lib/http/define-route";
import { allErrorCodes, errorCodes, statusOf, type ErrorCode } from "@/lib/http/error-codes";
import { defaultPageSize, maxPageSize } from "@/lib/http/pagination";
import { maxBodyBytes } from "@/lib/http/read-body";
import { orderJson, orderListItemJson, publicOrderJson } from "@/lib/orders/schemas";
import { linkJson, linkOrderJson, publicLinkJson } from "@/lib/payment-links/schemas";
import { faucetJson, mineJson, payOrderJson, simulatedPaymentJson } from "@/lib/sandbox/schemas";
import { transactionJson, transactionListItemJson } from "@/lib/transactions/schemas";
import { walletJson } from "@/lib/wallets/schemas";
import {
  attemptJson,
  deliveryJson,
  endpointJson,
  endpointWithSecretJson,
  eventJson,
  inboxCaptureJson,
  inboxMessageJson,
  rotatedEndpointJson,
  testWebhookJson,
  webhookEventJson,
  webhookEventTypes,
  payoutEventTypes,
} from "@/lib/webhooks/schemas";

/**
 * Builds the OpenAPI 3.1 document from the route definitions (lib/api-routes.ts: every operation's
 * access rule, the very zod schemas withApi validates with, and its documentation) and the
 * error-code table (lib/http/error-codes.ts).
 * Pure: no env, no database, so `npm run client:generate` and the tests can call it directly.
 */

type Json = Record<string, unknown>;
type Method = "get" | "post" | "put" | "patch" | "delete";

/** Response schemas shown as named components (and named types in lib/client/schema.d.ts). */
const namedSchemas: Array<[z.ZodType, string]> = [
  [orderJson, "Order"],
  [orderListItemJson, "OrderListItem"],
  [walletJson, "Wallet"],
  [blockchainJson, "Blockchain"],
  [apiKeyJson, "ApiKey"],
  [createdApiKeyJson, "CreatedApiKey"],
  [accountJson, "Account"],
  [rotatedAccountSecretJson, "RotatedAccountSecret"],
  [registerJson, "RegisterResult"],
  [loginJson, "LoginResult"],
  [tokenPairJson, "TokenPair"],
  [verifyJson, "VerifyResult"],
  [transactionJson, "Transaction"],
  [transactionListItemJson, "TransactionListItem"],
  [endpointJson, "WebhookEndpoint"],
  [endpointWithSecretJson, "WebhookEndpointWithSecret"],
  [rotatedEndpointJson, "RotatedWebhookEndpoint"],
  [attemptJson, "WebhookAttempt"],
  [testWebhookJson, "TestWebhookResult"],
  [deliveryJson, "WebhookDelivery"],
  [webhookEventJson, "WebhookEvent"],
  [eventJson, "OrderEvent"],
  [inboxMessageJson, "InboxMessage"],
  [inboxCaptureJson, "InboxCapture"],
  [payOrderJson, "SandboxPayment"],
  [mineJson, "SandboxMineResult"],
  [faucetJson, "SandboxFaucetResult"],
  [publicOrderJson, "PublicOrder"],
  [simulatedPaymentJson, "SimulatedPayment"],
  [linkJson, "PaymentLink"],
  [publicLinkJson, "PublicPaymentLink"],
  [linkOrderJson, "PaymentLinkOrder"],
  [refundJson, "Refund"],
  [payoutJson, "PayoutBatch"],
  [payoutWebhookEventJson, "PayoutWebhookEvent"],
  [publicRefundAddressJson, "RefundAddressResult"],
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const safeIntegerBounds = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Drops what JSON Schema output carries but an OpenAPI component should not ($schema, $id) and,
 * in responses, the ±2^53 bounds of z.int(). Requests keep them: the server refuses an integer a
 * JSON number cannot hold exactly (a nonce above 2^53 − 1, say), so the bound is part of the contract.
 */
function tidy(value: unknown, keepSafeIntegerBounds = false): unknown {
  if (Array.isArray(value)) return value.map((item) => tidy(item, keepSafeIntegerBounds));
  if (!value || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$schema" || key === "$id") continue;
    if (!keepSafeIntegerBounds && (key === "minimum" || key === "maximum") && typeof inner === "number" && safeIntegerBounds.has(inner)) continue;
    out[key] = tidy(inner, keepSafeIntegerBounds);
  }
  return out;
}

/** A request schema (body, query or path parameters) as the client sends it: zod's input side. */
function inputSchema(schema: z.ZodType): Json {
  return tidy(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }), true) as Json;
}

/** "GET /api/payment-orders/[orderId]" → method and OpenAPI path "/api/payment-orders/{orderId}". */
export function splitRouteKey(key: string): { method: Method; path: string } {
  const [method, routePath] = key.split(" ") as [string, string];
  return { method: method.toLowerCase() as Method, path: routePath.replace(/\[([^\]]+)\]/g, "{$1}") };
}

/** A stable operationId: "POST /api/payment-orders" → postPaymentOrders; "[orderId]" → ByOrderId. */
export function operationIdOf(key: string): string {
  const { method, path } = splitRouteKey(key);
  const words = path
    .replace(/^\/api\//, "")
    .split("/")
    .map((segment) => (segment.startsWith("{") ? `by-${segment.slice(1, -1)}` : segment))
    .join("-")
    .split(/[^A-Za-z0-9]+|(?=[A-Z])/)
    .filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).join("");
}

/** The error codes an operation can answer with: derived from its definition (access, inputs, limits), plus its own. */
export function errorCodesOf(route: RouteDefinition): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.doc.errors ?? []);
  const protectedRoute = route.access !== "public";
  if (route.method === "POST" && protectedRoute) {
    codes.add("IDEMPOTENCY_REQUEST_IN_PROGRESS");
    codes.add("IDEMPOTENCY_KEY_REUSED");
  }
  if (route.body || route.query) codes.add("VALIDATION_ERROR");
  if (protectedRoute) {
    codes.add("INVALID_TOKEN");
    if (route.access !== "authenticated") codes.add("INSUFFICIENT_PERMISSIONS");
    codes.add("RATE_LIMITED");
  }
  if (route.clientLimit) codes.add("RATE_LIMITED");
  // A path parameter that names nothing (or does not parse), or a sandbox tool in live mode.
  if (route.params || route.sandboxOnly) codes.add("NOT_FOUND");
  codes.add("INTERNAL_ERROR");
  return allErrorCodes.filter((code) => codes.has(code));
}

function successSchema(response: SuccessResponse, nameOf: (schema: z.ZodType) => Json): Json {
  switch (response.kind) {
    case "envelope":
      return {
        type: "object",
        properties: {
          success: { const: true },
          data: nameOf(response.data),
          message: { type: "string", examples: [response.message] },
          timestamp: { type: "string", format: "date-time" },
        },
        required: ["success", "data", "message", "timestamp"],
        additionalProperties: false,
      };
    case "page": {
      const extra = response.extra ? (inputSchema(response.extra) as { properties?: Json; required?: string[] }) : {};
      return {
        type: "object",
        properties: {
          ...extra.properties,
          count: {
            type: "integer",
            minimum: 0,
            description:
              "Items over all pages, exact. On the orders, transactions, events and webhook deliveries lists the database keeps this number as items are written, so a long history is never counted on every request.",
          },
          next: {
            type: ["string", "null"],
            description:
              "Path of the next page (keeps the other query parameters), or null when this is the last page. Orders, events, transactions and deliveries add a `cursor`, so the next page starts after this page's last item however deep it is.",
          },
          previous: { type: ["string", "null"], description: "Path of the previous page, or null" },
          results: { type: "array", items: nameOf(response.item) },
        },
        required: [...(extra.required ?? []), "count", "next", "previous", "results"],
        additionalProperties: false,
      };
    }
    case "bare":
      return nameOf(response.schema);
  }
}

/** An error body as the reference shows it. */
const errorExample = (code: ErrorCode) => ({ success: false, error: { code, ...errorCodes[code].example }, timestamp: "2030-01-01T12:00:00.000Z" });

function errorResponses(codes: ErrorCode[], protectedRoute: boolean): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const out: Json = {};
  for (const [status, list] of byStatus) {
    const rateLimited = status === 429;
    const secondFactor = list.includes("SECOND_FACTOR_REQUIRED");
    out[String(status)] = {
      description: list.map((code) => `\`${code}\`: ${errorCodes[code].description}`).join("\n\n"),
      headers: {
        "x-request-id": { $ref: "#/components/headers/RequestId" },
        ...(rateLimited ? { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } : {}),
        ...(protectedRoute && status !== 401 ? rateLimitHeaderRefs : {}),
      },
      content: {
        "application/json": {
          schema: {
            allOf: [
              ref(rateLimited ? "RateLimitedError" : secondFactor ? "SecondFactorRequiredError" : "Error"),
              { type: "object", properties: { error: { type: "object", properties: { code: { type: "string", enum: list } } } } },
            ],
          },
          examples: Object.fromEntries(
            list.map((code) => [
              code,
              {
                value: {
                  ...errorExample(code),
                  ...(rateLimited ? { retry_after: 1800 } : {}),
                  ...(code === "SECOND_FACTOR_REQUIRED"
                    ? { second_factor: { challenge: "eyJhbGciOiJIUzI1NiJ9…", methods: ["totp", "recovery_code"], expires_at: "2030-01-01T12:05:00.000Z" } }
                    : {}),
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

const idempotencyHeaderRefs = {
  "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" },
  "Original-Request": { $ref: "#/components/headers/OriginalRequest" },
  "Idempotent-Redacted": { $ref: "#/components/headers/IdempotentRedacted" },
};

const rateLimitHeaderRefs = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
};

const paramDescriptions: Record<string, string> = {
  page: "Page number, from 1 (default 1). On the orders, transactions, events and webhook deliveries lists a page nearer the end than the start is read from the end, skipping only the items after it (the same items as counted from the start), so the first and the last pages cost the same at any size; follow `next` links to go deep from anywhere.",
  page_size: `Items per page (default ${defaultPageSize}; values above ${maxPageSize} are capped at ${maxPageSize})`,
  orderId: "The order's public order_id (ORD-…) or its numeric id",
  id: "Numeric id",
  transactionHash: "0x-prefixed transaction hash",
};

function parameters(schema: z.ZodType | undefined, where: "query" | "path"): Json[] {
  if (!schema) return [];
  const json = inputSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as Json & { description?: string };
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      description: description ?? paramDescriptions[name],
      schema: rest,
    };
  });
}

const accessText = (access: RouteAccess): string => {
  if (access === "public") return "No credential needed.";
  if (access === "login") return "Needs a login (access token or dashboard session); API keys are refused with 403.";
  if (access === "authenticated") return "Any valid credential (access token or API key).";
  if ((memberOnlyPermissions as readonly string[]).includes(access)) {
    return `Needs a login whose role in the account carries \`${access}\` (${rolesWith(access)}); API keys are refused with 403.`;
  }
  return `Needs the \`${access}\` permission (an API key carrying it, or a login whose role carries it: ${rolesWith(access)}).`;
};

/** "owner, admin, developer": the roles carrying a permission. */
const rolesWith = (access: RouteAccess): string => allRoles.filter((role) => roleAllows(role, access as MemberPermission)).join(", ");

function security(access: RouteAccess): Json[] {
  if (access === "public") return [];
  if (access === "login" || (memberOnlyPermissions as readonly string[]).includes(access)) return [{ bearerAuth: [] }];
  return [{ bearerAuth: [] }, { apiKeyAuth: [] }];
}

const requestBodyText = `A JSON object of at most ${maxBodyBytes / 1024} KiB (${maxBodyBytes} bytes): a larger body, malformed JSON or anything but an object is 400 VALIDATION_ERROR.`;

function operation(route: RouteDefinition, nameOf: (schema: z.ZodType) => Json): Json {
  const { access, doc } = route;
  const protectedRoute = access !== "public";
  const idempotent = protectedRoute && route.method === "POST";
  const codes = errorCodesOf(route);
  const status = doc.response.kind === "page" ? 200 : doc.response.status;
  return {
    operationId: operationIdOf(routeKeyOf(route)),
    summary: doc.summary,
    description: [doc.description, accessText(access), route.sandboxOnly ? "Sandbox only: 404 NOT_FOUND in live mode." : undefined]
      .filter(Boolean)
      .join("\n\n"),
    tags: [...doc.tags],
    "x-permission": access,
    ...(route.sandboxOnly ? { "x-sandbox-only": true } : {}),
    security: security(access),
    parameters: [
      ...parameters(route.params, "path"),
      ...parameters(route.query, "query"),
      ...(idempotent ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            description: requestBodyText,
            content: { "application/json": { schema: inputSchema(route.body), ...(doc.bodyExamples ? { examples: doc.bodyExamples } : {}) } },
          },
        }
      : {}),
    responses: {
      [String(status)]: {
        description:
          doc.response.kind === "page"
            ? "A page of results (the bare list shape)."
            : doc.response.kind === "bare"
              ? "The result (a bare object, no envelope)."
              : "The result in the success envelope.",
        headers: {
          "x-request-id": { $ref: "#/components/headers/RequestId" },
          ...(protectedRoute ? rateLimitHeaderRefs : {}),
          ...(idempotent ? idempotencyHeaderRefs : {}),
        },
        content: { "application/json": { schema: successSchema(doc.response, nameOf) } },
      },
      ...errorResponses(codes, protectedRoute),
    },
  };
}

const webhookDescriptions: Record<(typeof webhookEventTypes)[number], string> = {
  "payment.pending":
    "Transfers of the order's token to its deposit address add up to the amount: the order is `processing`, waiting for confirmations. Do not ship yet.",
  "payment.confirmed": "The payment has the required confirmations: the order is `confirmed`. Fulfil the order.",
  "payment.failed": "The order is `failed`; `failure_reason` says why (underpaid, late_payment, reverted).",
  "payment.expired": "The payment window closed with nothing received: the order is `expired`.",
  "refund.created":
    "A refund was requested (`POST /api/payment-orders/{order_id}/refunds/`): the new entry of `data.refunds` has status `requested` until your wallet's transfer is seen on chain.",
  "refund.confirmed": "A refund's transfer has the order's confirmations: its entry in `data.refunds` is `confirmed` with its `transaction_hash`.",
  "payout.created":
    "A payout batch was saved as a draft (`POST /api/payouts/`): `data` is the batch with its legs; `approval_required` says whether a second member must approve it.",
  "payout.approved": "A second member approved the batch: `data.transaction` is now the transaction to sign.",
  "payout.sent": "The batch's transaction was reported (`POST /api/payouts/{id}/transaction/`): `data.transaction_hash`; the legs settle from its receipt.",
  "payout.confirmed":
    "The batch transaction has your wallet's confirmations: each leg in `data.legs` is `confirmed`, or `failed` with its `failure_reason` (a recipient that refused the money fails alone).",
  "payout.failed": "The batch transaction paid no leg (it reverted, or every leg was refused): `data.legs` say why.",
  "payment.reorged":
    "A chain reorganisation took away the order's payment. Either the order went back from `processing` to `pending` (the payment is no longer on chain: do not ship; a `payment.pending` follows if it is paid again), or it was already `confirmed`: it stays `confirmed`, now with `at_risk: true` (`at_risk_reason: payment_reorged`), and its transfer reads `failed` (`not_counted_reason: reorged`) in /api/transactions/. Check the money arrived before shipping more. Sent once per order and cause.",
  "payment.flagged":
    "The payer of the order's payment failed sanctions screening (the SDN list the operator loaded, or the screening provider). What follows is your store's screening policy: `record`, the payment goes on as usual; `hold`, no `payment.confirmed` until a member who manages the account releases it in the dashboard (audited); `refund`, it is never confirmed and can be refunded. Sent once per order and screening pass.",
  "subscription.created":
    "A subscription was created (`data` is the subscription as GET /api/subscriptions/{id}/ returns it). It charges once the customer has granted its `authorization`.",
  "subscription.charged": "A period was charged: the amount moved from the customer's wallet to yours; `data.periods_charged` counts them.",
  "subscription.payment_failed": "A charge failed (the customer's wallet is short, or the allowance was revoked); it is retried over the plan's grace days.",
  "subscription.past_due":
    "The grace days passed without a successful charge: the subscription is `past_due`, still retried until the plan's past-due days pass.",
  "subscription.canceled": "The subscription is `canceled` (by you, or after its past-due days); nothing more is charged.",
  "subscription.charge_reorged":
    "A chain reorganisation took away a charge's transaction: its charge reads `reorged` in `charges`, `data.periods_charged` no longer counts it, and the gateway charges the period again while it runs (a `subscription.charged` follows). Do not count that period as paid until then.",
  "invoice.sent":
    "An invoice was mailed to its client for the first time: `data` is the invoice (GET /api/invoices/{id}/), status `sent`. Carries no `sequence` (an invoice is no order).",
  "invoice.paid": "Payments confirmed on chain add up to the invoice's total: status `paid`, `paid_at` set.",
  "invoice.overdue": "The due date passed with money still due: status `overdue`.",
  "invoice.voided": "A sent invoice was voided: status `void`; it takes no more payments.",
};

const isPayoutEvent = (type: string) => (payoutEventTypes as readonly string[]).includes(type);

function webhooks(): Json {
  const header = (name: string, description: string, example: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string", examples: [example] },
  });
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${type
            .split(".")
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join("")}`,
          summary: type,
          description: `${webhookDescriptions[type]}\n\nPOSTed to every active endpoint subscribed to \`${type}\` (signed with the endpoint's secret)${isPayoutEvent(type) ? "" : " and to the order's \`webhook_url\` if it has one (signed with the account's webhook secret)"}. Answer any 2xx to acknowledge; anything else is retried with exponential backoff for about three days. Delivery is at least once: de-duplicate on \`id\` (or \`webhook-id\`).`,
          tags: ["Webhooks"],
          security: [],
          parameters: [
            header(
              "x-webhook-signature",
              "Hex HMAC-SHA256 of the exact body bytes, keyed with the whole secret string (`whsec_…`)",
              "5d41402abc4b2a76b9719d911017c592",
            ),
            header("webhook-id", "Standard Webhooks message id (msg_…): the same on every retry of one delivery", "msg_2a9S8kdu3LmqPz"),
            header("webhook-timestamp", "Unix seconds when this attempt was signed; reject if more than 5 minutes off", "1893499200"),
            header(
              "webhook-signature",
              'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, keyed with the base64-decoded part after `whsec_`; two signatures during a secret rotation',
              "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
            ),
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: type.startsWith("subscription.")
                  ? {
                      type: "object",
                      required: ["id", "event", "created_at", "sequence", "data"],
                      properties: {
                        id: { type: "string", description: "Event id (evt_…): the same on every delivery and retry of this event" },
                        event: { const: type },
                        created_at: { type: "string", format: "date-time" },
                        sequence: { type: "integer", description: "The entry's place in the subscription's history: apply a subscription's events by it" },
                        data: { type: "object", description: "The subscription as GET /api/subscriptions/{id}/ returns it after the change (without history)" },
                      },
                    }
                  : { allOf: [ref(isPayoutEvent(type) ? "PayoutWebhookEvent" : "WebhookEvent"), { type: "object", properties: { event: { const: type } } }] },
              },
            },
          },
          responses: {
            "200": { description: "Any 2xx acknowledges the delivery." },
            default: { description: "Anything else (or no answer within the timeout) is retried; 410 Gone disables the endpoint." },
          },
        },
      },
    ]),
  );
}

const overview = `Multi-chain crypto payment gateway: create payment orders, each with its own deposit address; the gateway watches the chain, waits for confirmations and tells your backend through signed webhooks.

**Authentication.** Send \`Authorization: Bearer <credential>\`: a JWT access token from \`POST /api/auth/login\` (24 hours; refresh with \`POST /api/auth/token/refresh\`) or an API key (\`sk_live_…\` / \`sk_test_…\`) made with \`POST /api/api-keys\`. Each operation's \`x-permission\` says what it needs: \`public\`, \`authenticated\` (any credential), \`login\` (never an API key) or one of the permissions ${allPermissions.map((p) => `\`${p}\``).join(", ")}.

**Responses.** Single objects come in the envelope \`{ success, data, message, timestamp }\`; lists are the bare page \`{ count, next, previous, results }\` (\`page\`, \`page_size\` up to ${maxPageSize}); the auth endpoints answer bare objects. Errors are \`{ success: false, error: { code, message, details? }, timestamp }\` with the status of their code. Paths work with and without a trailing slash.

**Unknown paths and methods.** A path that names no endpoint, or a resource id that names nothing of yours, is 404 \`NOT_FOUND\` (response \`NotFound\`). A method a path does not have (say \`DELETE /api/payment-orders/\`) is 405 \`METHOD_NOT_ALLOWED\` with an \`Allow\` header listing the methods it has (response \`MethodNotAllowed\`); \`OPTIONS\` on any path answers 204 with the same \`Allow\`. Request bodies are JSON objects of at most ${maxBodyBytes / 1024} KiB.

**Rate limits.** Per merchant and plan (standard 1000, premium 5000 requests an hour), shared by all of a merchant's credentials. Every authenticated response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (unix seconds); over the limit: 429 \`RATE_LIMITED\` with \`retry_after\` and \`Retry-After\`.

**Idempotent retries.** Every authenticated POST accepts an \`Idempotency-Key\` header (1–255 printable ASCII characters, e.g. a UUID v4), kept 24 hours per merchant: a retry with the same key and the same request gets the first answer again (status and body, plus \`Idempotent-Replayed: true\`) instead of creating a second order; secrets in such an answer (API keys, webhook secrets) are not stored and come back as null, listed in \`Idempotent-Redacted\`. The same key with another request: 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first is still running: 409 \`IDEMPOTENCY_REQUEST_IN_PROGRESS\`. A create answered \`DUPLICATE_NONCE\` names the existing order in \`details.order_id\`, and \`GET /api/payment-orders/?nonce=N\` finds it. List endpoints refuse unknown query parameters with 400 \`VALIDATION_ERROR\`.

Guides: [Quick start](/docs/quick-start) · [Webhooks](/docs/webhooks) · [Sandbox](/docs/sandbox) · [Errors and rate limits](/docs/errors).`;

function components(nameOf: (schema: z.ZodType) => Json, registry: z.core.$ZodRegistry<{ id: string }>): Json {
  nameOf(webhookEventJson);
  nameOf(payoutWebhookEventJson);
  const generated = tidy(z.toJSONSchema(registry, { io: "output", unrepresentable: "any", uri: (id) => `#/components/schemas/${id}` })) as { schemas: Json };
  const codeNames = allErrorCodes;
  const error = {
    type: "object",
    properties: {
      success: { const: false },
      error: {
        type: "object",
        properties: {
          code: { type: "string", enum: codeNames, description: "Stable, machine-readable; the HTTP status follows from it" },
          message: { type: "string", description: "For humans; may change" },
          details: {
            type: "object",
            additionalProperties: { type: "array", items: { type: "string" } },
            description: "VALIDATION_ERROR: field name → messages",
          },
        },
        required: ["code", "message"],
        additionalProperties: false,
      },
      timestamp: { type: "string", format: "date-time" },
    },
    required: ["success", "error", "timestamp"],
    additionalProperties: false,
  };
  return {
    schemas: {
      ...generated.schemas,
      Error: error,
      RateLimitedError: {
        ...error,
        properties: { ...error.properties, retry_after: { type: "integer", minimum: 0, description: "Seconds until the limit resets" } },
        required: [...error.required, "retry_after"],
      },
      SecondFactorRequiredError: {
        ...error,
        properties: {
          ...error.properties,
          second_factor: {
            type: "object",
            description: "SECOND_FACTOR_REQUIRED only: send `challenge` and a code to POST /api/auth/login/second-factor/ before `expires_at` (5 minutes)",
            properties: {
              challenge: { type: "string" },
              methods: { type: "array", items: { type: "string", enum: ["totp", "recovery_code"] } },
              expires_at: { type: "string", format: "date-time" },
            },
            required: ["challenge", "methods", "expires_at"],
            additionalProperties: false,
          },
        },
      },
      ErrorCode: { type: "string", enum: codeNames, "x-status": Object.fromEntries(codeNames.map((code) => [code, statusOf(code)])) },
    },
    responses: {
      NotFound: {
        description: errorCodes.NOT_FOUND.description,
        headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
        content: { "application/json": { schema: ref("Error"), example: errorExample("NOT_FOUND") } },
      },
      MethodNotAllowed: {
        description: `${errorCodes.METHOD_NOT_ALLOWED.description} Answered for every method a path does not list.`,
        headers: { "x-request-id": { $ref: "#/components/headers/RequestId" }, Allow: { $ref: "#/components/headers/Allow" } },
        content: { "application/json": { schema: ref("Error"), example: errorExample("METHOD_NOT_ALLOWED") } },
      },
    },
    headers: {
      Allow: { description: "The methods the path has, e.g. `GET, POST, HEAD, OPTIONS`", schema: { type: "string" } },
      RequestId: { description: "This request's id; quote it when asking for support", schema: { type: "string", format: "uuid" } },
      RateLimitLimit: { description: "Requests allowed in the current hour", schema: { type: "integer" } },
      RateLimitRemaining: { description: "Requests left in the current hour", schema: { type: "integer" } },
      RateLimitReset: { description: "When the window resets (unix seconds)", schema: { type: "integer" } },
      RetryAfter: { description: "Seconds to wait before retrying", schema: { type: "integer" } },
      IdempotentReplayed: {
        description: "`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (absent on the first)",
        schema: { type: "string", enum: ["true"] },
      },
      OriginalRequest: { description: "On a replay: the x-request-id of the request that produced the answer", schema: { type: "string", format: "uuid" } },
      IdempotentRedacted: {
        description:
          "On a replay of an answer that carried a secret (API key, webhook secret): the JSON paths of the secrets, which are null in the replayed body. Secrets are shown once and never stored.",
        schema: { type: "string", examples: ["data.key"] },
      },
    },
    parameters: {
      IdempotencyKey: {
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "Makes this POST safe to retry: within 24 hours, the same key with the same request (method, path, body; JSON key order ignored) replays the first answer (status and body, with `Idempotent-Replayed: true`) instead of running again. The same key with a different request is 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running, 409 `IDEMPOTENCY_REQUEST_IN_PROGRESS`. Answers 2xx and 4xx are stored (except 409 and 429); after a 5xx the key is free again. Secrets in an answer (an API key, a webhook secret) are never stored: a replay carries null in their place and names them in `Idempotent-Redacted`. Keys are per merchant, 1 to 255 printable ASCII characters, e.g. a UUID v4.",
        schema: { type: "string", minLength: 1, maxLength: 255, examples: ["5f1c7a8e-3b9d-4c2a-8f6e-1d2b3c4d5e6f"] },
      },
    },
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "JWT",
        description: "Access token from POST /api/auth/login (24 hours). Carries every permission; the only credential for login-only operations.",
      },
      apiKeyAuth: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "sk_live_… / sk_test_…",
        description: "API key from POST /api/api-keys, sent as `Authorization: Bearer sk_…`. Carries the permissions it was created with.",
      },
    },
  };
}

export interface DocumentOptions {
  /** Where the API is served (the request's origin when served; a placeholder in generated files). */
  serverUrl?: string;
}

/** The OpenAPI 3.1 document of every operation in the route table. */
export function buildOpenApiDocument(options: DocumentOptions = {}): Json {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>(namedSchemas);
  const used = new Set<string>();
  // A response schema becomes a component; unnamed ones are named after their operation.
  let current = "";
  const nameOf = (schema: z.ZodType): Json => {
    let name = names.get(schema);
    if (!name) {
      name = `${current[0]!.toUpperCase()}${current.slice(1)}Result`;
      names.set(schema, name);
    }
    if (!used.has(name)) {
      used.add(name);
      registry.add(schema, { id: name });
    }
    return ref(name);
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const route of apiRoutes) {
    const { method, path } = splitRouteKey(routeKeyOf(route));
    current = operationIdOf(routeKeyOf(route));
    (paths[path] ??= {})[method] = operation(route, nameOf);
  }

  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Payment Gateway API",
      version: "1.0.0",
      summary: "Accept crypto payments on several blockchains.",
      description: overview,
    },
    servers: [{ url: options.serverUrl ?? "http://localhost:3000", description: options.serverUrl ? "This deployment" : "npm run dev" }],
    tags: Object.entries(apiTags).map(([name, description]) => ({ name, description })),
    paths: sortedPaths,
    webhooks: webhooks(),
    components: components(nameOf, registry),
  };
}
