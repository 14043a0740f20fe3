import "server-only";
import type { OrderEvent, WebhookDelivery } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { lockOrder } from "@/lib/orders/queries";
import { insertDeliveries, insertEvent, subscribedEndpoints } from "./queries";

export interface OrderEventInput {
  merchantId: number;
  /** payment_orders.id (the numeric id) */
  paymentOrderId: number;
  /** One of lib/webhooks/schemas.ts webhookEventTypes (payment.*, refund.*) */
  type: string;
  /** The order exactly as GET /api/payment-orders/{order_id}/ returns it after the transition. */
  data: unknown;
  /** The order's own webhook_url, if it has one. */
  webhookUrl: string | null;
}

/**
 * The exact bytes every delivery of an event sends and signs: `{ id, event, created_at, sequence, data }`.
 * Account events (wallet.updated) belong to no order and carry no sequence.
 */
export function eventBody(id: string, type: string, createdAt: Date, sequence: number | null, data: unknown): string {
  return JSON.stringify(sequence === null ? { id, event: type, created_at: createdAt.toISOString(), data } : { id, event: type, created_at: createdAt.toISOString(), sequence, data });
}

/**
 * The transactional outbox (DESIGN › Storage): call inside the transaction that changes the
 * order. It writes the event and one pending delivery per active endpoint subscribed to the type,
 * plus one to the order's webhook_url (signed with the account secret), all due now. Nothing is
 * sent here; after the commit, `notifyDeliveriesDue()` (lib/jobs/kick.ts) gets them going at
 * once, and the job driver's periodic run would find them anyway.
 */
export async function recordOrderEvent(tx: DbOrTx, input: OrderEventInput, now = new Date()): Promise<{ event: OrderEvent; deliveries: WebhookDelivery[] }> {
  const event = await insertOrderEvent(tx, input, now);
  const body = eventBody(event.id, event.type, now, event.sequence, input.data);
  const endpoints = await subscribedEndpoints(tx, input.merchantId, input.type);
  const common = { merchantId: input.merchantId, eventId: event.id, eventType: input.type, body, status: "pending", nextAttemptAt: now, createdAt: now, updatedAt: now };
  const deliveries = await insertDeliveries(tx, [
    ...endpoints.map((endpoint) => ({ ...common, messageId: newId("webhookMessage"), endpointId: endpoint.id, url: endpoint.url })),
    ...(input.webhookUrl ? [{ ...common, messageId: newId("webhookMessage"), endpointId: null, url: input.webhookUrl }] : []),
  ]);
  return { event, deliveries };
}

/** Every order event goes in here, numbered in its order's sequence. */
async function insertOrderEvent(tx: DbOrTx, input: Omit<OrderEventInput, "webhookUrl">, now: Date): Promise<OrderEvent> {
  // Writers that did not move the order's status (refunds) hold no lock on it: take it, so two
  // events of one order are numbered one after the other, never both max + 1.
  await lockOrder(tx, input.paymentOrderId);
  return insertEvent(tx, { id: newId("event"), merchantId: input.merchantId, paymentOrderId: input.paymentOrderId, type: input.type, data: input.data, createdAt: now });
}

/**
 * An event that belongs to no order (a subscription's): one pending delivery per active endpoint
 * subscribed to the type, due now, with the caller's `sequence` (its resource's own numbering).
 * Call inside the transaction that makes the change, then `notifyDeliveriesDue()` after the commit.
 */
export async function recordResourceEvent(tx: DbOrTx, input: { merchantId: number; type: string; sequence: number; data: unknown }, now = new Date()): Promise<{ id: string; deliveries: WebhookDelivery[] }> {
  const id = newId("event");
  const endpoints = await subscribedEndpoints(tx, input.merchantId, input.type);
  if (endpoints.length === 0) return { id, deliveries: [] };
  const body = eventBody(id, input.type, now, input.sequence, input.data);
  const deliveries = await insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      messageId: newId("webhookMessage"),
      merchantId: input.merchantId,
      eventId: null,
      endpointId: endpoint.id,
      eventType: input.type,
      url: endpoint.url,
      body,
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
  return { id, deliveries };
}
