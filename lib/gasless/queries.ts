import "server-only";
import { createHash } from "node:crypto";
import { and, asc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { gaslessRelays, type GaslessRelay } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";

export type NewGaslessRelay = Omit<typeof gaslessRelays.$inferInsert, "id" | "createdAt" | "updatedAt" | "status">;

/** The relay already on record for an authorization (any order), if any. */
export async function findRelayByAuthorization(
  db: DbOrTx,
  key: Pick<GaslessRelay, "blockchainId" | "tokenAddress" | "fromAddress" | "authorizationNonce">,
): Promise<GaslessRelay | null> {
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

/** One lock for every reservation: the global budget is shared by all merchants. */
const budgetLockKey = createHash("sha256").update("gasless-relay-budget").digest().readBigInt64BE(0).toString();

/** Gas a relay counts against the budgets: what it used once mined, its gas limit while in flight. */
const countedGas = sql<string>`coalesce(${gaslessRelays.gasUsed}, ${gaslessRelays.gasLimit})`;

export interface RelayBudgets {
  /** Most gas over the last hour for one merchant's orders (GASLESS_GAS_PER_MERCHANT_PER_HOUR). */
  perMerchant: bigint;
  /** Most gas over the last hour for all merchants together (GASLESS_GAS_PER_HOUR). */
  total: bigint;
}

export type ReserveOutcome = { relay: GaslessRelay } | { exhausted: "merchant" | "all"; retryAfterSeconds: number } | { duplicate: true };

/** Seconds until enough of `rows` (oldest first) have left the hour for `gas` more to fit under `budget`. */
function secondsUntilRoom(rows: Array<{ gas: bigint; createdAt: Date }>, gas: bigint, budget: bigint, now: Date): number {
  let total = rows.reduce((sum, row) => sum + row.gas, 0n);
  let freedAt = now.getTime() + hourMs;
  for (const row of rows) {
    total -= row.gas;
    if (total + gas <= budget) {
      freedAt = row.createdAt.getTime() + hourMs;
      break;
    }
  }
  return Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
}

/**
 * Records a relay about to be sent when both the merchant's gas and everyone's over the last hour
 * (gas used by mined relays, the gas limit of those still in flight) leave room for its gas limit.
 * Under one transaction lock for all reservations, so concurrent relays (any merchants, any
 * instances) cannot together go past either budget; the authorization's unique key refuses a
 * concurrent replay (`duplicate`).
 */
export async function reserveRelay(db: Db, relay: NewGaslessRelay, budgets: RelayBudgets, now: Date): Promise<ReserveOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${budgetLockKey}::bigint)`);
    const since = new Date(now.getTime() - hourMs);
    const rows = (
      await tx
        .select({ gas: countedGas, createdAt: gaslessRelays.createdAt, merchantId: gaslessRelays.merchantId })
        .from(gaslessRelays)
        .where(gt(gaslessRelays.createdAt, since))
        .orderBy(asc(gaslessRelays.createdAt))
    ).map((row) => ({ ...row, gas: BigInt(row.gas) }));
    const merchantRows = rows.filter((row) => row.merchantId === relay.merchantId);
    const sum = (list: typeof rows) => list.reduce((total, row) => total + row.gas, 0n);
    if (sum(merchantRows) + relay.gasLimit > budgets.perMerchant) {
      return { exhausted: "merchant" as const, retryAfterSeconds: secondsUntilRoom(merchantRows, relay.gasLimit, budgets.perMerchant, now) };
    }
    if (sum(rows) + relay.gasLimit > budgets.total) {
      return { exhausted: "all" as const, retryAfterSeconds: secondsUntilRoom(rows, relay.gasLimit, budgets.total, now) };
    }
    const [row] = await tx
      .insert(gaslessRelays)
      .values({ ...relay, status: "sending", createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    return row ? { relay: row } : { duplicate: true as const };
  });
}

/** Gas counted against the global budget since `since` (all merchants and chains): the budget-use gauge. */
export async function relayGasSince(db: DbOrTx, since: Date): Promise<bigint> {
  const [row] = await db
    .select({ gas: sql<string>`coalesce(sum(${countedGas}), 0)::text` })
    .from(gaslessRelays)
    .where(gt(gaslessRelays.createdAt, since));
  return BigInt(row?.gas ?? "0");
}

export async function updateRelay(db: DbOrTx, id: number, values: Partial<Omit<GaslessRelay, "id" | "createdAt">>): Promise<void> {
  await db
    .update(gaslessRelays)
    .set({ ...values, updatedAt: values.updatedAt ?? new Date() })
    .where(eq(gaslessRelays.id, id));
}

/** A relay that was never sent: forgotten, so it costs the budget nothing and its authorization may be tried again. */
export async function deleteRelay(db: DbOrTx, id: number): Promise<void> {
  await db.delete(gaslessRelays).where(eq(gaslessRelays.id, id));
}

/**
 * What the relayer spent on the merchant's gasless payments per chain, for relays mined in [from, to)
 * (the overview's month, beside the sweeps' gas).
 */
export async function relayGasTotals(
  db: DbOrTx,
  merchantId: number,
  from: Date,
  to: Date,
): Promise<Array<{ blockchainId: number; relays: number; gasUsed: bigint; costWei: bigint }>> {
  const rows = await db
    .select({
      blockchainId: gaslessRelays.blockchainId,
      relays: sql<number>`count(*)::int`,
      gasUsed: sql<string>`coalesce(sum(${gaslessRelays.gasUsed}), 0)::text`,
      costWei: sql<string>`coalesce(sum(${gaslessRelays.costWei}), 0)::text`,
    })
    .from(gaslessRelays)
    .where(
      and(eq(gaslessRelays.merchantId, merchantId), eq(gaslessRelays.status, "mined"), gte(gaslessRelays.updatedAt, from), lt(gaslessRelays.updatedAt, to)),
    )
    .groupBy(gaslessRelays.blockchainId)
    .orderBy(asc(gaslessRelays.blockchainId));
  return rows.map((r) => ({ blockchainId: r.blockchainId, relays: Number(r.relays), gasUsed: BigInt(r.gasUsed), costWei: BigInt(r.costWei) }));
}
