import "server-only";
import { createHash } from "node:crypto";
import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { gaslessRelays, type GaslessRelay } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";

export type NewGaslessRelay = Omit<typeof gaslessRelays.$inferInsert, "id" | "createdAt" | "updatedAt" | "status">;

/** The relay already on record for an authorization (any order), if any. */
export async function findRelayByAuthorization(db: DbOrTx, key: Pick<GaslessRelay, "blockchainId" | "tokenAddress" | "fromAddress" | "authorizationNonce">): Promise<GaslessRelay | null> {
  const [row] = await db
    .select()
    .from(gaslessRelays)
    .where(
      and(
        eq(gaslessRelays.blockchainId, key.blockchainId),
        eq(gaslessRelays.tokenAddress, key.tokenAddress),
        eq(gaslessRelays.fromAddress, key.fromAddress),
        eq(gaslessRelays.authorizationNonce, key.authorizationNonce),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** One of the merchant's orders' relays, oldest first (the dashboard's order view). */
export function listOrderRelays(db: DbOrTx, merchantId: number, paymentOrderId: number): Promise<GaslessRelay[]> {
  return db
    .select()
    .from(gaslessRelays)
    .where(and(eq(gaslessRelays.merchantId, merchantId), eq(gaslessRelays.paymentOrderId, paymentOrderId)))
    .orderBy(asc(gaslessRelays.id));
}

const hourMs = 60 * 60 * 1000;

function merchantLockKey(merchantId: number): string {
  return createHash("sha256").update(`gasless-relay-budget:${merchantId}`).digest().readBigInt64BE(0).toString();
}

export type ReserveOutcome = { relay: GaslessRelay } | { exhausted: true; retryAfterSeconds: number } | { duplicate: true };

/**
 * Records a relay about to be sent when the merchant's gas over the last hour (gas used by mined
 * relays, the gas limit of those still in flight) leaves room
 * for its gas limit. Under a per-merchant transaction lock, so concurrent relays cannot both take
 * the last room; the authorization's unique key refuses a concurrent replay (`duplicate`).
 */
export async function reserveRelay(db: Db, relay: NewGaslessRelay, budgetGas: bigint, now: Date): Promise<ReserveOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${merchantLockKey(relay.merchantId)}::bigint)`);
    const since = new Date(now.getTime() - hourMs);
    const spent = await tx
      .select({ gas: sql<string>`coalesce(${gaslessRelays.gasUsed}, ${gaslessRelays.gasLimit})`, createdAt: gaslessRelays.createdAt })
      .from(gaslessRelays)
      .where(and(eq(gaslessRelays.merchantId, relay.merchantId), gt(gaslessRelays.createdAt, since)))
      .orderBy(asc(gaslessRelays.createdAt));
    let total = spent.reduce((sum, row) => sum + BigInt(row.gas), 0n);
    if (total + relay.gasLimit > budgetGas) {
      // Room comes back as the oldest relays leave the hour: wait until enough of them have.
      let freedAt = now.getTime() + hourMs;
      for (const row of spent) {
        total -= BigInt(row.gas);
        if (total + relay.gasLimit <= budgetGas) {
          freedAt = row.createdAt.getTime() + hourMs;
          break;
        }
      }
      return { exhausted: true as const, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000)) };
    }
    const [row] = await tx
      .insert(gaslessRelays)
      .values({ ...relay, status: "sending", createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    return row ? { relay: row } : { duplicate: true as const };
  });
}

export async function updateRelay(db: DbOrTx, id: number, values: Partial<Omit<GaslessRelay, "id" | "createdAt">>): Promise<void> {
  await db.update(gaslessRelays).set({ ...values, updatedAt: values.updatedAt ?? new Date() }).where(eq(gaslessRelays.id, id));
}

/** A relay that was never sent: forgotten, so it costs the budget nothing and its authorization may be tried again. */
export async function deleteRelay(db: DbOrTx, id: number): Promise<void> {
  await db.delete(gaslessRelays).where(eq(gaslessRelays.id, id));
}

/**
 * What the relayer spent on the merchant's gasless payments per chain, for relays mined in [from, to)
 * (the overview's month, beside the sweeps' gas).
 */
export async function relayGasTotals(db: DbOrTx, merchantId: number, from: Date, to: Date): Promise<Array<{ blockchainId: number; relays: number; gasUsed: bigint; costWei: bigint }>> {
  const rows = await db
    .select({
      blockchainId: gaslessRelays.blockchainId,
      relays: sql<number>`count(*)::int`,
      gasUsed: sql<string>`coalesce(sum(${gaslessRelays.gasUsed}), 0)::text`,
      costWei: sql<string>`coalesce(sum(${gaslessRelays.costWei}), 0)::text`,
    })
    .from(gaslessRelays)
    .where(and(eq(gaslessRelays.merchantId, merchantId), eq(gaslessRelays.status, "mined"), gte(gaslessRelays.updatedAt, from), lt(gaslessRelays.updatedAt, to)))
    .groupBy(gaslessRelays.blockchainId)
    .orderBy(asc(gaslessRelays.blockchainId));
  return rows.map((r) => ({ blockchainId: r.blockchainId, relays: Number(r.relays), gasUsed: BigInt(r.gasUsed), costWei: BigInt(r.costWei) }));
}
