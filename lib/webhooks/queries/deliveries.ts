import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { orderEvents, webhookAttempts, webhookDeliveries, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/map-row";
import { maintainedCount } from "@/lib/db/list-counts";
import { afterCursor, readKeysetPage, sortKeyText, type KeysetWindow, type SortKeyPart } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";

type NewDelivery = typeof webhookDeliveries.$inferInsert;
type NewAttempt = typeof webhookAttempts.$inferInsert;

export async function insertDeliveries(db: DbOrTx, values: NewDelivery[]): Promise<WebhookDelivery[]> {
  if (values.length === 0) return [];
  return db.insert(webhookDeliveries).values(values).returning();
}

export async function findDelivery(db: DbOrTx, merchantId: number, id: number): Promise<WebhookDelivery | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.id, id)))
    .limit(1);
  return row ?? null;
}

/** A delivery by id whoever owns it: for the job drivers, which act for every merchant. */
export async function findDeliveryById(db: DbOrTx, id: number): Promise<WebhookDelivery | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
  return row ?? null;
}

/** The delivery log's order, newest first: created_at then id (the endpoint's deliveries indexes). */
export const deliverySortKey: SortKeyPart[] = [
  { expression: webhookDeliveries.createdAt, type: "timestamptz" },
  { expression: webhookDeliveries.id, type: "integer" },
];

/**
 * One page of an endpoint's deliveries, newest first, optionally of one status; the count exact (the
 * maintained count), deep page numbers read from the nearer end (`readKeysetPage`). Takes the
 * endpoint row the caller found among the merchant's (`findEndpoint`, `getEndpointOrThrow`): its
 * deliveries are the merchant's, so the page and the count read the endpoint's index alone.
 */
export async function listEndpointDeliveries(
  db: DbOrTx,
  endpoint: Pick<WebhookEndpoint, "id" | "merchantId">,
  status: string | undefined,
  window: KeysetWindow,
) {
  const where = and(eq(webhookDeliveries.endpointId, endpoint.id), status ? eq(webhookDeliveries.status, status) : undefined);
  const maintained = maintainedCount("deliveries", endpoint.merchantId, { scopeId: endpoint.id, kinds: status ? [status] : undefined });
  const { page, count, nextKey } = await readKeysetPage(db, { table: webhookDeliveries, where, countOrder: deliverySortKey, maintained }, window, (read) =>
    db
      .select({ delivery: webhookDeliveries, sortKey: sortKeyText(deliverySortKey), total: read.total })
      .from(webhookDeliveries)
      .where(and(where, afterCursor(deliverySortKey, read.after, true)))
      .orderBy(...deliverySortKey.map((k) => (read.reverse ? asc : desc)(k.expression)))
      .limit(read.limit)
      .offset(read.offset),
  );
  return { rows: page.map((row) => row.delivery), count, nextKey };
}

/** Attempts of the given deliveries, oldest first. */
export async function attemptsOf(db: DbOrTx, deliveryIds: number[]): Promise<WebhookAttempt[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
}

export async function insertAttempt(db: DbOrTx, values: NewAttempt): Promise<WebhookAttempt> {
  const [row] = await db.insert(webhookAttempts).values(values).returning();
  return row!;
}

/**
 * Deliveries still to make, as a literal: the planner then reads them from webhook_deliveries_due_idx,
 * the partial index of pending rows only (a parameter would hide that the index holds them all).
 */
export const dueRows = sql`${webhookDeliveries.status} = 'pending'`;

/**
 * Who a delivery goes to: its endpoint, or (no endpoint) the order's webhook_url. Deliveries are
 * claimed and finished per receiver, so a receiver that hangs holds up only its own.
 */
const receiverOf = sql<string>`coalesce('endpoint:' || d.endpoint_id::text, 'url:' || d.url)`;

export interface ClaimOptions {
  /** Most deliveries in flight per receiver, counting `inFlight`. */
  perReceiver?: number;
  /** What this worker already has in flight: none of these orders' deliveries to that receiver is claimed, and each receiver's count comes off its `perReceiver`. */
  inFlight?: ReadonlyArray<{ receiver: string; order: string }>;
}

/** A claimed delivery with the keys it is tracked by while in flight. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  /** `endpoint:<id>` or `url:<webhook_url>`. */
  receiver: string;
  /** `order:<payment order id>`, or `delivery:<id>` for a delivery that belongs to no order. */
  order: string;
}

/**
 * Claims due deliveries for this worker: at most `perReceiver` in flight per receiver, at most
 * `limit` in all, oldest due first, and of one order's deliveries to one receiver only the
 * earliest due, never one whose order already has a delivery to that receiver in flight here (so
 * they go out in event order, one after another). `FOR UPDATE SKIP LOCKED` lets several
 * instances claim side by side without waiting on or taking each other's rows. A claim counts the
 * attempt (the count is the fencing token the outcome is written against) and moves
 * `next_attempt_at` to the lease's end: if the worker dies before recording the outcome, the
 * delivery falls due again then.
 */
export async function claimDueDeliveries(db: DbOrTx, now: Date, leaseUntil: Date, limit: number, options: ClaimOptions = {}): Promise<ClaimedDelivery[]> {
  const perReceiver = options.perReceiver ?? limit;
  const inFlight = options.inFlight ?? [];
  const counts = new Map<string, number>();
  for (const { receiver } of inFlight) counts.set(receiver, (counts.get(receiver) ?? 0) + 1);
  const busyOrders = JSON.stringify(inFlight.map((f) => `${f.receiver} ${f.order}`));
  const busyReceivers = JSON.stringify(Object.fromEntries(counts));
  const candidates = rowsOf(
    await db.execute(sql`
      with due as (
        select d.id, d.next_attempt_at, ${receiverOf} as receiver, coalesce('order:' || e.payment_order_id::text, 'delivery:' || d.id::text) as order_key
        from ${webhookDeliveries} d left join ${orderEvents} e on e.id = d.event_id
        where d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz
      ), firsts as (
        select *, row_number() over (partition by receiver, order_key order by id) as in_order from due
      ), open as (
        select f.*, row_number() over (partition by f.receiver order by f.next_attempt_at, f.id) as in_receiver, coalesce(b.n, 0) as busy
        from firsts f left join (select key, value::int as n from jsonb_each_text(${busyReceivers}::jsonb)) b on b.key = f.receiver
        where f.in_order = 1 and f.receiver || ' ' || f.order_key not in (select jsonb_array_elements_text(${busyOrders}::jsonb))
      )
      select id, receiver, order_key from open where in_receiver + busy <= ${perReceiver} order by next_attempt_at, id limit ${limit}`),
  );
  if (candidates.length === 0) return [];
  const keys = new Map(candidates.map((r) => [Number(r.id), { receiver: String(r.receiver), order: String(r.order_key) }]));
  const lockable = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.id, [...keys.keys()]), eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: leaseUntil, updatedAt: now })
    .where(and(inArray(webhookDeliveries.id, lockable), eq(webhookDeliveries.status, "pending")))
    .returning();
  return claimed.sort((a, b) => a.id - b.id).map((delivery) => ({ delivery, ...keys.get(delivery.id)! }));
}

/** Counts one attempt on a delivery outside the lease machinery (test sends, the Inngest driver). */
export async function countAttempt(db: DbOrTx, id: number, now: Date): Promise<WebhookDelivery | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending")))
    .returning();
  return row ?? null;
}

export interface AttemptOutcomeRow {
  id: number;
  /** The attempt number this worker claimed (the fencing token). */
  attempt: number;
  status: string;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  completedAt: Date | null;
  url: string;
}

/**
 * Records attempt outcomes for many deliveries in one statement (`UPDATE … FROM (VALUES …)`), each row
 * fenced on its own attempt number. Returns the ids it applied to.
 */
export async function finishAttempts(db: DbOrTx, rows: AttemptOutcomeRow[], now: Date): Promise<number[]> {
  if (rows.length === 0) return [];
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}::integer, ${r.attempt}::integer, ${r.status}::text, ${iso(r.nextAttemptAt)}::timestamptz, ${r.lastStatusCode}::integer, ${r.lastError}::text, ${iso(r.completedAt)}::timestamptz, ${r.url}::text)`,
    ),
    sql`, `,
  );
  const result = await db.execute(sql`
    update ${webhookDeliveries} as d
    set status = v.status, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, completed_at = v.completed_at, url = v.url, updated_at = ${now.toISOString()}::timestamptz
    from (values ${values}) as v(id, attempt, status, next_attempt_at, last_status_code, last_error, completed_at, url)
    where d.id = v.id and d.attempts = v.attempt and d.status = 'pending'
    returning d.id`);
  return rowsOf(result).map((r) => Number(r.id));
}

/**
 * Locks the given deliveries that still exist (a deleted endpoint takes its deliveries with it) and
 * returns their fencing state, so the attempt log can be written for exactly those: nobody can
 * delete them until the transaction ends, and no foreign key can fail.
 */
export async function lockDeliveries(db: DbOrTx, ids: number[]): Promise<Array<Pick<WebhookDelivery, "id" | "attempts" | "status">>> {
  if (ids.length === 0) return [];
  return db
    .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts, status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, ids))
    .orderBy(asc(webhookDeliveries.id))
    .for("update");
}

export async function insertAttempts(db: DbOrTx, values: NewAttempt[]): Promise<WebhookAttempt[]> {
  if (values.length === 0) return [];
  return db.insert(webhookAttempts).values(values).returning();
}

/** Gives up on a pending delivery (never touches one that already succeeded). */
export async function failPendingDelivery(db: DbOrTx, id: number, reason: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: "failed", lastError: reason, nextAttemptAt: null, completedAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  return rows.length === 1;
}

/** Starts a new cycle of attempts for a delivery, due now; same row, same message id. */
export async function restartDelivery(db: DbOrTx, merchantId: number, id: number, now: Date): Promise<WebhookDelivery | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, completedAt: null, lastError: null, lastStatusCode: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(webhookDeliveries.id, id)))
    .returning();
  return row ?? null;
}

/** Due deliveries not yet handed to Inngest (the Inngest driver's dispatcher). */
export async function dueUndispatchedDeliveries(db: DbOrTx, now: Date, limit: number) {
  return db
    .select({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(and(dueRows, isNotNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
}

/** Marks deliveries as handed to Inngest (`next_attempt_at` null), unless they changed since they were read. */
export async function markDispatched(db: DbOrTx, items: Array<{ id: number; nextAttemptAt: Date }>, now: Date): Promise<void> {
  for (const item of items) {
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: null, updatedAt: now })
      .where(and(eq(webhookDeliveries.id, item.id), eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.nextAttemptAt, item.nextAttemptAt)));
  }
}

/** Webhook deliveries of an order's events (endpoints and the order's webhook_url), newest first, with their attempts. */
export async function orderDeliveries(db: DbOrTx, merchantId: number, paymentOrderId: number) {
  const deliveries = await db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(orderEvents, eq(orderEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.merchantId, merchantId), eq(orderEvents.paymentOrderId, paymentOrderId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  const rows = deliveries.map((d) => d.delivery);
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
  return { rows, attempts };
}
