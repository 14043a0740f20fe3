import "server-only";
import type { OrderEvent, WebhookDelivery } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { newId } from "@/lib/ids";
import { lockOrder } from "@/lib/orders/queries";
import { insertAccountEvent, insertDeliveries, insertEvent, subscribedEndpoints } from "./queries";

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
  return JSON.stringify(
    sequence === null
      ? { id, event: type, created_at: createdAt.toISOString(), data }
      : { id, event: type, created_at: createdAt.toISOString(), sequence, data },
  );
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
  const common = {
    merchantId: input.merchantId,
    eventId: event.id,
    eventType: input.type,
    body,
    status: "pending",
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
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
  return insertEvent(tx, {
    id: newId("event"),
    merchantId: input.merchantId,
    paymentOrderId: input.paymentOrderId,
    type: input.type,
    data: input.data,
    createdAt: now,
  });
}

export interface AccountEventInput {
  merchantId: number;
  /** An account event type (wallet.updated, payout.*): it belongs to no order and carries no sequence. */
  type: string;
  data: unknown;
  actor: { kind: string; clientIp: string | null };
}

/**
 * Records an account event (kept in `account_events`) and queues one delivery of it, due now, to each
 * of `endpoints` (the caller decides who hears of it), in the caller's transaction. As with order
 * events, nothing is sent here: after the commit, `notifyDeliveriesDue()` gets them going.
 */
export async function recordAccountEvent(
  tx: DbOrTx,
  input: AccountEventInput,
  endpoints: ReadonlyArray<{ id: number; url: string }>,
  now: Date,
): Promise<void> {
  const id = newId("event");
  await insertAccountEvent(tx, {
    id,
    merchantId: input.merchantId,
    type: input.type,
    data: input.data,
    actor: input.actor.kind,
    clientIp: input.actor.clientIp,
    createdAt: now,
  });
  await queueDeliveries(tx, { merchantId: input.merchantId, type: input.type, body: eventBody(id, input.type, now, null, input.data) }, endpoints, now);
}

/**
 * An event that belongs to no order (a subscription's): one pending delivery per active endpoint
 * subscribed to the type, due now, with the caller's `sequence` (its resource's own numbering).
 * Call inside the transaction that makes the change, then `notifyDeliveriesDue()` after the commit.
 */
export async function recordResourceEvent(
  tx: DbOrTx,
  input: { merchantId: number; type: string; sequence: number; data: unknown },
  now = new Date(),
): Promise<{ id: string; deliveries: WebhookDelivery[] }> {
  const id = newId("event");
  const endpoints = await subscribedEndpoints(tx, input.merchantId, input.type);
  const deliveries = await queueDeliveries(
    tx,
    { merchantId: input.merchantId, type: input.type, body: eventBody(id, input.type, now, input.sequence, input.data) },
    endpoints,
    now,
  );
  return { id, deliveries };
}

/** One pending delivery of an event's bytes to each endpoint, due now. */
async function queueDeliveries(
  tx: DbOrTx,
  event: { merchantId: number; type: string; body: string },
  endpoints: ReadonlyArray<{ id: number; url: string }>,
  now: Date,
): Promise<WebhookDelivery[]> {
  if (endpoints.length === 0) return [];
  const common = {
    merchantId: event.merchantId,
    eventId: null,
    eventType: event.type,
    body: event.body,
    status: "pending",
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
  return insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({ ...common, messageId: newId("webhookMessage"), endpointId: endpoint.id, url: endpoint.url })),
  );
}
