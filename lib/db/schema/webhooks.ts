/** Events and their delivery (lib/webhooks): the transactional outbox, endpoints, deliveries, attempts, the sandbox inbox. */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./columns";
import { merchants } from "./accounts";
import { paymentOrders } from "./orders";

export const orderEvents = pgTable(
  "order_events",
  {
    /** `evt_…`; also the webhook body's id */
    id: text("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    paymentOrderId: integer("payment_order_id")
      .notNull()
      .references(() => paymentOrders.id, { onDelete: "cascade" }),
    /** One of lib/webhooks/schemas.ts orderEventTypes (payment.*, refund.*). */
    type: text("type").notNull(),
    /** 1, 2, 3… per order, in the order the transitions happened: receivers order events by it. */
    sequence: integer("sequence").notNull(),
    /** The order exactly as GET returned it at the moment of the transition. */
    data: jsonb("data").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    index("order_events_merchant_idx").on(t.merchantId, t.createdAt, t.sequence, t.id),
    index("order_events_merchant_type_idx").on(t.merchantId, t.type, t.createdAt, t.sequence, t.id),
    uniqueIndex("order_events_order_sequence_key").on(t.paymentOrderId, t.sequence),
  ],
);
export type OrderEvent = typeof orderEvents.$inferSelect;

/**
 * Account-level security events (issue 13): payout wallet added or changed. Kept for the merchant
 * and announced as `wallet.updated` webhooks to every active endpoint (deliveries with no order event).
 */
export const accountEvents = pgTable(
  "account_events",
  {
    /** `evt_…`; also the webhook body's id */
    id: text("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** wallet.updated */
    type: text("type").notNull(),
    data: jsonb("data").notNull(),
    /** Who did it: access_token | session */
    actor: text("actor").notNull(),
    clientIp: text("client_ip"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("account_events_merchant_idx").on(t.merchantId, t.createdAt)],
);
export type AccountEvent = typeof accountEvents.$inferSelect;

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Subscribed event types; empty = all. */
    events: text("events").array().notNull(),
    description: text("description"),
    isActive: boolean("is_active").notNull().default(true),
    /** Kept readable: signing needs it. */
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /** Why delivery stopped on its own (e.g. the receiver answered 410 Gone). */
    disabledReason: text("disabled_reason"),
    ...timestamps,
  },
  (t) => [index("webhook_endpoints_merchant_idx").on(t.merchantId)],
);
export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    /** `msg_…`: the Standard Webhooks `webhook-id`, the same on every retry. */
    messageId: text("message_id").notNull(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** null for test sends */
    eventId: text("event_id").references(() => orderEvents.id, { onDelete: "cascade" }),
    /** null for deliveries to an order's webhook_url */
    endpointId: integer("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    url: text("url").notNull(),
    /** The exact bytes sent and signed, identical across retries. */
    body: text("body").notNull(),
    /** pending | succeeded | failed */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    completedAt: ts("completed_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("webhook_deliveries_message_key").on(t.messageId),
    // The outbox claim (issue 31): only deliveries still to make are in it, so claiming costs the
    // same beside ten million delivered rows as beside none.
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt, t.id)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_endpoint_status_idx").on(t.endpointId, t.status, t.createdAt, t.id),
    index("webhook_deliveries_event_idx").on(t.eventId),
    // Retention (lib/retention): delivered payloads past the retention period, oldest first.
    index("webhook_deliveries_completed_idx")
      .on(t.completedAt)
      .where(sql`status = 'succeeded'`),
  ],
);
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: ts("attempted_at").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    requestHeaders: jsonb("request_headers").notNull(),
    /** First 2 KiB of the response body. */
    responseBody: text("response_body"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

/** What the sandbox capture URL received. */
export const sandboxInboxMessages = pgTable(
  "sandbox_inbox_messages",
  {
    id: serial("id").primaryKey(),
    merchantId: integer("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    receivedAt: ts("received_at").notNull(),
    method: text("method").notNull(),
    headers: jsonb("headers").notNull(),
    body: text("body").notNull(),
    /** Result of checking both signatures against the merchant's secrets. */
    signatureValid: boolean("signature_valid"),
    signatureDetails: jsonb("signature_details"),
  },
  (t) => [index("sandbox_inbox_merchant_idx").on(t.merchantId, t.receivedAt)],
);
export type SandboxInboxMessage = typeof sandboxInboxMessages.$inferSelect;
