import { and, arrayContains, asc, count, desc, eq, inArray, or, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints, type WebhookEndpoint } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/map-row";
import type { DbOrTx } from "@/lib/db/types";

type NewEndpoint = typeof webhookEndpoints.$inferInsert;
interface Window {
  limit: number;
  offset: number;
}

export async function insertEndpoint(db: DbOrTx, values: NewEndpoint): Promise<WebhookEndpoint> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function countEndpoints(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, merchantId));
  return row?.value ?? 0;
}

/**
 * Whether one of the merchant's endpoints has answered a delivery (a real event or a test) with a
 * 2xx: one probe of the (endpoint, status, created_at) index per endpoint, however long the history.
 * Written as a LATERAL newest-first LIMIT 1 so the planner reads that index by endpoint and status;
 * as a plain EXISTS it planned a semi join over the whole status range, costed past the JIT threshold
 * at a million deliveries (20 ms, most of it compiling; issue 31).
 */
export async function hasEndpointWithSuccessfulDelivery(db: DbOrTx, merchantId: number): Promise<boolean> {
  const [row] = rowsOf(
    await db.execute(sql`
      select exists (
        select 1 from ${webhookEndpoints} e
        cross join lateral (
          select 1 from ${webhookDeliveries} d where d.endpoint_id = e.id and d.status = 'succeeded' order by d.created_at desc limit 1
        ) delivered
        where e.merchant_id = ${merchantId}
      ) as delivered`),
  );
  return row?.delivered === true;
}

export async function findEndpoint(db: DbOrTx, merchantId: number, id: number): Promise<WebhookEndpoint | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.id, id)))
    .limit(1);
  return row ?? null;
}

/** One page of a merchant's endpoints, newest first, and their total. */
export async function listEndpoints(db: DbOrTx, merchantId: number, window: Window) {
  const where = eq(webhookEndpoints.merchantId, merchantId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ value: count() }).from(webhookEndpoints).where(where),
  ]);
  return { rows, count: total?.value ?? 0 };
}

export async function updateEndpoint(
  db: DbOrTx,
  merchantId: number,
  id: number,
  changes: Partial<Omit<NewEndpoint, "id" | "merchantId" | "createdAt">> & { updatedAt: Date },
): Promise<WebhookEndpoint | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(db: DbOrTx, merchantId: number, id: number): Promise<WebhookEndpoint | null> {
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.id, id)))
    .returning();
  return row ?? null;
}

/** A merchant's active endpoints subscribed to `type` (an empty list subscribes to everything). */
export async function subscribedEndpoints(db: DbOrTx, merchantId: number, type: string): Promise<WebhookEndpoint[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.merchantId, merchantId),
        eq(webhookEndpoints.isActive, true),
        or(sql`cardinality(${webhookEndpoints.events}) = 0`, arrayContains(webhookEndpoints.events, [type])),
      ),
    )
    .orderBy(asc(webhookEndpoints.id));
}

/** A merchant's active endpoints, whatever they subscribe to (security notices cannot be opted out of). */
export async function activeEndpoints(db: DbOrTx, merchantId: number): Promise<Array<Pick<WebhookEndpoint, "id" | "url">>> {
  return db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.isActive, true)))
    .orderBy(asc(webhookEndpoints.id));
}

export async function findEndpointsByIds(db: DbOrTx, ids: number[]): Promise<WebhookEndpoint[]> {
  if (ids.length === 0) return [];
  return db.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, ids));
}

/** Every endpoint secret of a merchant, current and previous (the inbox checks signatures against them). */
export async function endpointSecrets(db: DbOrTx, merchantId: number) {
  return db
    .select({
      id: webhookEndpoints.id,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.merchantId, merchantId));
}

/** Turns an endpoint off on the receiver's request (410 Gone); only the delivery that saw it decides. */
export async function disableEndpoint(db: DbOrTx, id: number, reason: string, now: Date): Promise<void> {
  await db.update(webhookEndpoints).set({ isActive: false, disabledReason: reason, updatedAt: now }).where(eq(webhookEndpoints.id, id));
}
