import { and, eq, gte, inArray, isNotNull, isNull, notExists, sql, type SQLWrapper } from "drizzle-orm";
import { subscriptionCharges, subscriptionEvents, subscriptionMails, subscriptionPlans, subscriptions, type SubscriptionMailKind } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

/** The subscriptions whose customer can be mailed: an address left, and the allowance granted. */
const mailable = and(isNotNull(subscriptions.customerEmail), isNotNull(subscriptions.authorizedAt));

/** No mail of `kind` (a kind, or the history entry's own kind) about `sourceId` went yet. */
const notMailed = (db: DbOrTx, kind: SubscriptionMailKind | SQLWrapper, sourceId: SQLWrapper) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(subscriptionMails)
      .where(and(eq(subscriptionMails.kind, kind), eq(subscriptionMails.sourceId, sourceId))),
  );

/** Records the allowance in place, once (the first proof wins); true when this call recorded it. */
export async function markSubscriptionAuthorized(db: DbOrTx, subscriptionRowId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(subscriptions)
    .set({ authorizedAt: now })
    .where(and(eq(subscriptions.id, subscriptionRowId), isNull(subscriptions.authorizedAt)))
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

/** Records the customer's language from the subscribe page, unless the store set one (or an earlier call recorded it). */
export async function setSubscriptionLocaleIfUnset(db: DbOrTx, subscriptionRowId: number, locale: string): Promise<void> {
  await db
    .update(subscriptions)
    .set({ customerLocale: locale })
    .where(and(eq(subscriptions.id, subscriptionRowId), isNull(subscriptions.customerLocale)));
}

/** Subscriptions authorized since `since`, with an address, whose customer has not had the welcome mail. */
export async function findAuthorizedMailsDue(db: DbOrTx, since: Date, limit: number) {
  return db
    .select({ subscription: subscriptions, planName: subscriptionPlans.name })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(mailable, gte(subscriptions.authorizedAt, since), notMailed(db, "authorized", subscriptions.id)))
    .limit(limit);
}

/** Confirmed charges (since `since`) of mailable subscriptions whose receipt has not gone. */
export async function findChargeReceiptsDue(db: DbOrTx, since: Date, limit: number) {
  return db
    .select({ charge: subscriptionCharges, subscription: subscriptions, planName: subscriptionPlans.name })
    .from(subscriptionCharges)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionCharges.subscriptionId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(
      and(
        eq(subscriptionCharges.status, "confirmed"),
        gte(subscriptionCharges.confirmedAt, since),
        mailable,
        notMailed(db, "charge_receipt", subscriptionCharges.id),
      ),
    )
    .limit(limit);
}

/** History entries (since `since`) the customer is told of (past due, canceled) not yet mailed. */
export async function findNoticesDue(db: DbOrTx, since: Date, limit: number) {
  return db
    .select({ event: subscriptionEvents, subscription: subscriptions, planName: subscriptionPlans.name })
    .from(subscriptionEvents)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionEvents.subscriptionId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(
      and(
        inArray(subscriptionEvents.kind, ["past_due", "canceled"]),
        gte(subscriptionEvents.createdAt, since),
        mailable,
        notMailed(db, subscriptionEvents.kind, subscriptionEvents.id),
      ),
    )
    .limit(limit);
}

/** Claims one mail (false when another run did): at most one per kind and source. */
export async function claimSubscriptionMail(
  db: DbOrTx,
  mail: { subscriptionId: number; merchantId: number; kind: SubscriptionMailKind; sourceId: number; sentAt: Date },
): Promise<boolean> {
  const rows = await db.insert(subscriptionMails).values(mail).onConflictDoNothing().returning({ id: subscriptionMails.id });
  return rows.length > 0;
}
