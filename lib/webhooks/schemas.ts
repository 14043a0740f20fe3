import { z } from "zod";
import { secondFactorReauth } from "@/lib/auth/schemas";
import { keysetPageQuery } from "@/lib/http/pagination";
import { timestamp } from "@/lib/http/schemas";
import { orderJson } from "@/lib/orders/schemas";
import { maxWebhookUrlLength } from "./url-safety";

/** Events of a payout batch (lib/payouts): each carries the batch, and no sequence. */
export const payoutEventTypes = ["payout.created", "payout.approved", "payout.sent", "payout.confirmed", "payout.failed"] as const;
export type PayoutEventType = (typeof payoutEventTypes)[number];
/** Events of an order (order_events, numbered per order); the events list reads these. */
export const orderEventTypes = [
  "payment.pending",
  "payment.confirmed",
  "payment.failed",
  "payment.expired",
  "refund.created",
  "refund.confirmed",
  "payment.reorged",
  "payment.flagged",
] as const;
/** Events of a subscription (lib/subscriptions), numbered by its history. */
export const subscriptionEventTypes = [
  "subscription.created",
  "subscription.charged",
  "subscription.payment_failed",
  "subscription.past_due",
  "subscription.canceled",
  "subscription.charge_reorged",
] as const;
/** Events of an invoice (lib/invoices): each carries the invoice, and no sequence. */
export const invoiceEventTypes = ["invoice.sent", "invoice.paid", "invoice.overdue", "invoice.voided"] as const;
export type InvoiceEventType = (typeof invoiceEventTypes)[number];
/** Events a webhook endpoint can subscribe to (DESIGN › Webhooks). */
export const webhookEventTypes = [...orderEventTypes, ...payoutEventTypes, ...subscriptionEventTypes, ...invoiceEventTypes] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
/** Events a test send can sample (POST /api/webhook-endpoints/{id}/test/): an order's or an invoice's. */
export const testableEventTypes = [...orderEventTypes, ...invoiceEventTypes] as const;
export type TestableEventType = (typeof testableEventTypes)[number];
export type OrderEventType = (typeof orderEventTypes)[number];
export const webhookEventType = z.enum(webhookEventTypes, `Must be one of ${webhookEventTypes.join(", ")}.`);

/** Delivery states: pending (due or waiting for a retry), succeeded (a 2xx came back), failed (gave up). */
export const deliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** 500: a description is a label, not a document. */
export const maxDescriptionLength = 500;

// The URL's scheme and addresses are checked by the use-case (it needs the mode and DNS).
const url = z
  .string()
  .trim()
  .min(1, "This field may not be blank.")
  .max(maxWebhookUrlLength, `Must be at most ${maxWebhookUrlLength} characters.`)
  .meta({ format: "uri", pattern: "^https?://" })
  .describe("Where deliveries are POSTed: an http(s) URL; https in live mode, resolving only to public addresses");

const events = z
  .array(webhookEventType)
  .max(webhookEventTypes.length * 2)
  .transform((list) => webhookEventTypes.filter((type) => list.includes(type)))
  .describe("Event types to receive; an empty list (the default) subscribes to all of them");

const description = z
  .string()
  .trim()
  .max(maxDescriptionLength, `Must be at most ${maxDescriptionLength} characters.`)
  .nullish()
  .describe("A note for yourself, e.g. 'order fulfilment service'");

const isActive = z.boolean().describe("Inactive endpoints receive nothing; defaults to true");

export const createEndpointBody = z.object({
  url,
  events: events.optional(),
  description,
  is_active: isActive.optional(),
  reauth: secondFactorReauth.optional(),
});
export type CreateEndpointBody = z.infer<typeof createEndpointBody>;

export const updateEndpointBody = z
  .object({ url: url.optional(), events: events.optional(), description, is_active: isActive.optional() })
  .refine((body) => body.url !== undefined || body.events !== undefined || body.description !== undefined || body.is_active !== undefined, {
    message: "Provide at least one of url, events, description, is_active.",
  });
export type UpdateEndpointBody = z.infer<typeof updateEndpointBody>;

export const testEndpointBody = z.object({
  event: z.enum(testableEventTypes, `Must be one of ${testableEventTypes.join(", ")}.`).describe("Which event to send a signed sample of"),
});
export type TestEndpointBody = z.infer<typeof testEndpointBody>;

/** The capture URL's token (inb_…): the credential of the sandbox inbox. */
export const inboxParams = z.object({
  token: z
    .string()
    .regex(/^inb_[0-9A-Za-z]{1,64}$/)
    .describe("The inbox token (inb_…), from GET /api/sandbox/inbox/"),
});

export const listDeliveriesQuery = keysetPageQuery.extend({
  status: z.enum(deliveryStatuses, `Must be one of ${deliveryStatuses.join(", ")}.`).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

/** Types in the event history (GET /api/events/): exactly what webhooks carry. */

export const listEventsQuery = keysetPageQuery.extend({
  event: z
    .enum(orderEventTypes, `Must be one of ${orderEventTypes.join(", ")}.`)
    .optional()
    .describe("Only events of this type, e.g. payment.confirmed"),
  order_id: z.string().min(1).max(64).optional().describe("Only events of this order (its public ORD-… id)"),
});
export type ListEventsQuery = z.infer<typeof listEventsQuery>;

// Response shapes: exactly what lib/webhooks/serialize.ts returns, and the webhook body itself.

/** The body of every webhook delivery (lib/webhooks/outbox.ts `eventBody`). */
export const webhookEventJson = z.object({
  id: z.string().describe("Event id (evt_…): the same on every delivery and retry of this event; de-duplicate on it"),
  event: z.enum(orderEventTypes),
  created_at: timestamp,
  sequence: z
    .number()
    .int()
    .describe("1, 2, 3… per order in the order its transitions happened: apply an order's events by it, since retries can deliver them out of order"),
  data: orderJson.describe("The order exactly as GET /api/payment-orders/{order_id}/ returned it after the change"),
});

export const endpointJson = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(webhookEventType).describe("Subscribed event types; empty = all"),
  description: z.string().nullable(),
  is_active: z.boolean(),
  disabled_reason: z.string().nullable().describe("Why delivery stopped on its own (e.g. the receiver answered 410 Gone); null otherwise"),
  created_at: timestamp,
  updated_at: timestamp,
});

export const endpointWithSecretJson = endpointJson.extend({
  secret: z.string().describe("Signing secret (whsec_…): shown at creation and rotation only"),
});

export const rotatedEndpointJson = endpointWithSecretJson.extend({
  previous_secret_expires_at: timestamp.nullable().describe("Until then deliveries carry a signature with the old secret too"),
});

export const attemptJson = z.object({
  id: z.number().int(),
  delivery_id: z.number().int(),
  attempted_at: timestamp,
  status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came"),
  duration_ms: z.number().int(),
  request_headers: z.record(z.string(), z.string()).describe("What was sent, signatures included"),
  response_body: z.string().nullable().describe("The start of the receiver's answer"),
  error: z.string().nullable().describe("Network error or timeout, if any"),
});

export const testWebhookJson = attemptJson.extend({
  webhook_id: z.string().describe("The webhook-id header sent"),
  event: z.enum(orderEventTypes),
  url: z.string(),
  succeeded: z.boolean().describe("Whether the receiver answered 2xx"),
});

export const deliveryJson = z.object({
  id: z.number().int(),
  webhook_id: z.string().describe("webhook-id header (msg_…): the same on every retry of this delivery"),
  event_id: z.string().nullable().describe("The event (evt_…); null for test sends"),
  event: z.string(),
  endpoint_id: z.number().int().nullable().describe("null for deliveries to an order's webhook_url"),
  url: z.string(),
  status: z.enum(deliveryStatuses),
  attempts: z.number().int().describe("Attempts in the current cycle"),
  next_attempt_at: timestamp.nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  payload: webhookEventJson.describe("The exact body sent"),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: timestamp.nullable(),
  attempt_log: z.array(attemptJson).describe("Attempts, oldest first"),
});

export const eventJson = z.object({
  id: z.string(),
  event: z.string(),
  order_id: z.string(),
  created_at: timestamp,
  sequence: z
    .number()
    .int()
    .describe("1, 2, 3… per order in the order its transitions happened: apply an order's events by it, since retries can deliver them out of order"),
  data: orderJson.describe("The order after the change, as the webhook carried it"),
});

const signatureCheck = z.string().describe("valid, invalid, missing, stale_timestamp, bad_timestamp, missing_headers or no_matching_signature");

export const inboxMessageJson = z.object({
  id: z.number().int(),
  received_at: timestamp,
  method: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  signature_valid: z.boolean().nullable().describe("Whether every signature present verified; null when none was present"),
  signature_details: z.object({ x_webhook_signature: signatureCheck, webhook_signature: signatureCheck, signed_with: z.string().nullable() }).nullable(),
});

export const inboxCaptureJson = z.object({
  id: z.number().int(),
  signature_valid: z.boolean().nullable(),
  signature_details: inboxMessageJson.shape.signature_details,
});
