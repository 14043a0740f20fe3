import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { chainCursors, paymentOrders, transactions, type NewTransaction } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";

export async function findCursor(db: DbOrTx, blockchainId: number) {
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.blockchainId, blockchainId)).limit(1);
  return row ?? null;
}

export async function saveCursor(
  db: DbOrTx,
  values: { blockchainId: number; genesisHash: string; lastBlock: bigint; lastBlockHash: string; updatedAt: Date },
) {
  await db
    .insert(chainCursors)
    .values(values)
    .onConflictDoUpdate({
      target: chainCursors.blockchainId,
      set: { genesisHash: values.genesisHash, lastBlock: values.lastBlock, lastBlockHash: values.lastBlockHash, updatedAt: values.updatedAt },
    });
}

/** Advances the cursor only if nobody else moved it meanwhile (two scanners: the loser's work is discarded). */
export async function advanceCursor(
  db: DbOrTx,
  blockchainId: number,
  expected: { lastBlock: bigint; genesisHash: string },
  next: { lastBlock: bigint; lastBlockHash: string; updatedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(chainCursors)
    .set(next)
    .where(
      and(
        eq(chainCursors.blockchainId, blockchainId),
        eq(chainCursors.lastBlock, expected.lastBlock),
        eq(chainCursors.genesisHash, expected.genesisHash),
      ),
    )
    .returning({ id: chainCursors.blockchainId });
  return rows.length === 1;
}

/** Orders on a chain whose deposit address is among `addresses` (any status: late payments count as facts too). */
export async function findOrdersByDepositAddresses(db: DbOrTx, blockchainId: number, addresses: string[]) {
  if (addresses.length === 0) return [];
  return db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), inArray(paymentOrders.receivingAddress, addresses)));
}

/**
 * Records transfers once. A transfer seen again (a rescan, a re-inclusion after a reorg) takes what
 * the chain says now: its block, and, unless it is already confirmed, its status, amount and
 * whether it counts, since a re-included transaction can have a different effect.
 */
export async function upsertTransfers(db: DbOrTx, rows: NewTransaction[]) {
  if (rows.length === 0) return;
  const unlessConfirmed = (column: string) => sql.raw(`case when "transactions"."status" = 'confirmed' then "transactions"."${column}" else excluded."${column}" end`);
  await db
    .insert(transactions)
    .values(rows)
    .onConflictDoUpdate({
      target: [transactions.blockchainId, transactions.txHash, transactions.logIndex, transactions.toAddress],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        blockTimestamp: sql`excluded.block_timestamp`,
        status: unlessConfirmed("status"),
        amount: unlessConfirmed("amount"),
        counted: unlessConfirmed("counted"),
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/**
 * Removes an order's internal-transfer rows of one block that a fresh attribution no longer
 * credits (a block is attributed whole each time), so an old, larger credit cannot linger next
 * to the new one. Confirmed rows are facts already announced and stay.
 */
export async function removeStaleInternalTransfers(db: DbOrTx, paymentOrderId: number, blockNumber: bigint, logIndex: number, keepTxHashes: string[]) {
  await db
    .delete(transactions)
    .where(
      and(
        eq(transactions.paymentOrderId, paymentOrderId),
        eq(transactions.blockNumber, blockNumber),
        eq(transactions.logIndex, logIndex),
        eq(transactions.status, "pending"),
        keepTxHashes.length ? notInArray(transactions.txHash, keepTxHashes) : undefined,
      ),
    );
}
