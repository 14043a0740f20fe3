import type { z } from "zod";
import type { OrderEvent, SandboxInboxMessage, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "@/lib/db/schema";
import type { inboxMessageJson, webhookEventJson } from "./schemas";

type WebhookEventBody = z.output<typeof webhookEventJson>;
type SignatureDetails = NonNullable<z.output<typeof inboxMessageJson>["signature_details"]>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A webhook endpoint as the API shows it (DESIGN › Shapes), without its secret. */
export function serializeEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    is_active: endpoint.isActive,
    /** Why delivery stopped on its own, e.g. the receiver answered 410 Gone; null otherwise. */
    disabled_reason: endpoint.disabledReason,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** The endpoint with its signing secret: only at creation and rotation. */
export function serializeEndpointWithSecret(endpoint: WebhookEndpoint) {
  return { ...serializeEndpoint(endpoint), secret: endpoint.secret };
}

export function serializeAttempt(attempt: WebhookAttempt) {
  return {
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    attempted_at: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    request_headers: attempt.requestHeaders as Record<string, string>,
    response_body: attempt.responseBody,
    error: attempt.error,
  };
}

/** A delivery with its attempt log (oldest first). `attempts` counts the current cycle. */
export function serializeDelivery(delivery: WebhookDelivery, attempts: WebhookAttempt[]) {
  return {
    id: delivery.id,
    webhook_id: delivery.messageId,
    event_id: delivery.eventId,
    event: delivery.eventType,
    endpoint_id: delivery.endpointId,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === "pending" ? iso(delivery.nextAttemptAt) : null,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    // The exact body sent: the gateway wrote it from the event serializer (webhookEventJson describes it).
    payload: JSON.parse(delivery.body) as WebhookEventBody,
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
    completed_at: iso(delivery.completedAt),
    attempt_log: attempts.filter((a) => a.deliveryId === delivery.id).map(serializeAttempt),
  };
}

export function serializeEvent(event: OrderEvent, orderId: string) {
  return {
    id: event.id,
    event: event.type,
    order_id: orderId,
    created_at: event.createdAt.toISOString(),
    sequence: event.sequence,
    // The order as GET returned it when the event was recorded (lib/webhooks/outbox.ts writes it; jsonb reads back untyped).
    data: event.data as WebhookEventBody["data"],
  };
}

export function serializeInboxMessage(message: SandboxInboxMessage) {
  return {
    id: message.id,
    received_at: message.receivedAt.toISOString(),
    method: message.method,
    headers: message.headers as Record<string, string>,
    body: message.body,
    signature_valid: message.signatureValid,
    // Written by lib/webhooks/capture-inbox-message.ts in this shape (jsonb reads back untyped).
    signature_details: message.signatureDetails as SignatureDetails | null,
  };
}

/** An endpoint as the audit log keeps it: never its secrets. */
export function auditedEndpoint(endpoint: WebhookEndpoint) {
  return { url: endpoint.url, events: endpoint.events, description: endpoint.description, is_active: endpoint.isActive };
}
