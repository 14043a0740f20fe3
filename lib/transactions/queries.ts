import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNull, lt, ne, notInArray, or, sql } from "drizzle-orm";
import type { RecheckWindow } from "@/lib/chains/block-check";
import { recheckFloor } from "@/lib/chains/queries";
import {
  gaslessRelays,
  paymentOrders,
  subscriptionCharges,
  subscriptions,
  transactions,
  type NewTransaction,
  type PaymentOrder,
  type Transaction,
} from "@/lib/db/schema";
import { maintainedCount } from "@/lib/db/list-counts";
import { afterCursor, readKeysetPage, sortKeyText, type KeysetWindow, type SortKeyPart } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";

/** A chain's transfers whose price was not recorded yet (lib/transactions/record-prices.ts), oldest first. */
export async function findUnpricedTransfers(db: DbOrTx, blockchainId: number, limit: number) {
  return db
    .select({ id: transactions.id, currency: transactions.currency, createdAt: transactions.createdAt })
    .from(transactions)
    .where(and(eq(transactions.blockchainId, blockchainId), isNull(transactions.pricedAt)))
    .orderBy(asc(transactions.id))
    .limit(limit);
}

export async function setTransferPrices(db: DbOrTx, id: number, price: Pick<Transaction, "usdRate" | "nativeUsdRate" | "usdRateSource"> & { pricedAt: Date }) {
  await db
    .update(transactions)
    .set(price)
    .where(and(eq(transactions.id, id), isNull(transactions.pricedAt)));
}

/** Transfers on a chain still waiting for confirmations (their block hashes need re-checking). */
export async function findUnconfirmedTransfers(db: DbOrTx, blockchainId: number) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.blockchainId, blockchainId), sql`${transactions.status} = 'pending'`));
}

export async function setTransferStatus(db: DbOrTx, ids: number[], status: string, updatedAt: Date) {
  if (ids.length === 0) return;
  await db.update(transactions).set({ status, updatedAt }).where(inArray(transactions.id, ids));
}

export async function findOrderTransfers(db: DbOrTx, paymentOrderIds: number[]) {
  if (paymentOrderIds.length === 0) return [];
  return db
    .select()
    .from(transactions)
    .where(and(inArray(transactions.paymentOrderId, paymentOrderIds), ne(transactions.status, "dropped")))
    .orderBy(transactions.blockNumber, transactions.logIndex);
}

/**
 * Transfers on a chain that now have the confirmations their order asks for become confirmed,
 * whether or not they completed the order (spec › Transaction status).
 */
export async function confirmDeepTransfers(db: DbOrTx, blockchainId: number, head: bigint, now: Date) {
  await db
    .update(transactions)
    .set({ status: "confirmed", updatedAt: now })
    .where(
      and(
        eq(transactions.blockchainId, blockchainId),
        sql`${transactions.status} = 'pending'`,
        sql`${head}::bigint - ${transactions.blockNumber} + 1 >= (select o.confirmation_threshold from ${paymentOrders} o where o.id = ${transactions.paymentOrderId})`,
      ),
    );
}

/** The transfer an order response shows: the latest that counts toward it (transfers that do not count never show there). */
export async function findLatestOrderTransfer(db: DbOrTx, paymentOrderId: number): Promise<Transaction | null> {
  const [row] = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.paymentOrderId, paymentOrderId), eq(transactions.counted, true), inArray(transactions.status, ["pending", "confirmed"])))
    .orderBy(desc(transactions.blockNumber), desc(transactions.logIndex))
    .limit(1);
  return row ?? null;
}

/** Orders not final yet: every transfer of theirs, confirmed or not, still answers to the chain. */
const openOrderIds = sql`(select o.id from ${paymentOrders} o where o.status in ('pending', 'processing'))`;

/** Whether a transfer's block is still inside the re-check window below `head` (by its order's threshold). */
function withinWindow(head: bigint, window: RecheckWindow) {
  return sql`${transactions.blockNumber} + greatest(${window.thresholdMultiple}::int * (select o.confirmation_threshold from ${paymentOrders} o where o.id = ${transactions.paymentOrderId}), ${window.minBlocks}::int) > ${head}::bigint`;
}

/**
 * The transfers on a chain whose blocks a reorg re-check compares with the chain's: every one not
 * yet confirmed, every one of an order not final (whatever its own status: a transfer confirmed
 * just before a crash kept its order from moving), and confirmed ones still inside the window or
 * above the chain's `finalized` block (lib/chains/finality.ts; `head` where the chain has none).
 */
export async function findTransfersToRecheck(
  db: DbOrTx,
  blockchainId: number,
  head: bigint,
  window: RecheckWindow,
  finalized: bigint = head,
): Promise<Transaction[]> {
  // Three reads, each from an index of only what it needs (issue 31), never the chain's whole history. A subscription
  // charge's transfer is the charge tracker's (lib/subscriptions/charge.ts trackCharges), which carries its status here.
  const unconfirmed = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.blockchainId, blockchainId), sql`${transactions.status} = 'pending'`, isNull(transactions.subscriptionChargeId)));
  const recent = await db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.blockchainId, blockchainId),
        eq(transactions.status, "confirmed"),
        isNull(transactions.subscriptionChargeId),
        gt(transactions.blockNumber, recheckFloor(head, window, finalized)),
        or(withinWindow(head, window), gt(transactions.blockNumber, finalized)),
      ),
    );
  // Transfers of orders not final: those with money in flight (processing, or pending with some
  // received: payment_orders_chain_in_flight_idx, then each order's transfers by transactions_order_idx)…
  // (Two steps: the planner, not knowing how few such orders there are, would hash-join them against every transfer.)
  const inFlight = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(sql`(${paymentOrders.status} = 'processing' or (${paymentOrders.status} = 'pending' and ${paymentOrders.amountReceived} > 0))`);
  const ofInFlight =
    inFlight.length === 0
      ? []
      : await db
          .select({ transfer: transactions })
          .from(transactions)
          .where(
            and(
              inArray(
                transactions.paymentOrderId,
                inFlight.map((o) => o.id),
              ),
              eq(transactions.blockchainId, blockchainId),
              eq(transactions.status, "confirmed"),
            ),
          );
  // …and live transfers that did not count, of an order still open (transactions_uncounted_idx).
  const uncounted = await db
    .select({ transfer: getTableColumns(transactions) })
    .from(transactions)
    .innerJoin(paymentOrders, eq(paymentOrders.id, transactions.paymentOrderId))
    .where(
      and(
        sql`not ${transactions.counted} and ${transactions.status} in ('pending', 'confirmed')`,
        eq(transactions.blockchainId, blockchainId),
        eq(transactions.status, "confirmed"),
        inArray(paymentOrders.status, ["pending", "processing"]),
      ),
    );
  const ofOpenOrders = [...ofInFlight, ...uncounted];
  const byId = new Map<number, Transaction>();
  for (const transfer of [...unconfirmed, ...recent, ...ofOpenOrders.map((row) => row.transfer)]) byId.set(transfer.id, transfer);
  return [...byId.values()];
}

/**
 * The chain was replaced (a devnet restart): what it held vanished. Drops every transfer not yet
 * confirmed, every transfer of an order not final, and confirmed ones inside the re-check window
 * below the last scanned block; returns them (their orders are judged by the caller).
 */
export async function dropTransfersOfOpenOrders(db: DbOrTx, blockchainId: number, lastScanned: bigint, window: RecheckWindow, now: Date) {
  return db
    .update(transactions)
    .set({ status: "dropped", updatedAt: now })
    .where(
      and(
        eq(transactions.blockchainId, blockchainId),
        ne(transactions.status, "dropped"),
        or(ne(transactions.status, "confirmed"), inArray(transactions.paymentOrderId, openOrderIds), withinWindow(lastScanned, window)),
      ),
    )
    .returning({ id: transactions.id, paymentOrderId: transactions.paymentOrderId, counted: transactions.counted });
}

/**
 * Transfers reorged out: dropped, whatever they were, unless a rescan re-recorded one at another
 * block since it was read (compare-and-set on the block hash).
 */
export async function dropTransfers(db: DbOrTx, gone: Pick<Transaction, "id" | "blockHash">[], now: Date) {
  if (gone.length === 0) return [];
  return db
    .update(transactions)
    .set({ status: "dropped", updatedAt: now })
    .where(and(ne(transactions.status, "dropped"), or(...gone.map((t) => and(eq(transactions.id, t.id), eq(transactions.blockHash, t.blockHash))))))
    .returning({ id: transactions.id, paymentOrderId: transactions.paymentOrderId, counted: transactions.counted });
}

export interface TransactionFilters {
  blockchainId?: number;
  /** API status; "failed" also matches transfers dropped by a reorg. */
  status?: "pending" | "confirmed" | "failed";
}

/** The stored statuses a status filter keeps: "failed" also means dropped. */
function filteredStatuses(status: TransactionFilters["status"]): string[] | undefined {
  return status === "failed" ? ["failed", "dropped"] : status !== undefined ? [status] : undefined;
}

function transactionWhere(merchantId: number, filters: TransactionFilters) {
  const statuses = filteredStatuses(filters.status);
  return and(
    eq(transactions.merchantId, merchantId),
    filters.blockchainId !== undefined ? eq(transactions.blockchainId, filters.blockchainId) : undefined,
    statuses === undefined ? undefined : statuses.length === 1 ? eq(transactions.status, statuses[0]!) : inArray(transactions.status, statuses),
  );
}

/** The transaction list's order, newest first: created_at then id (the merchant's transactions indexes). */
export const transactionSortKey: SortKeyPart[] = [
  { expression: transactions.createdAt, type: "timestamptz" },
  { expression: transactions.id, type: "integer" },
];

/** One page of a merchant's transfers, newest first; read with one extra row, counted exactly (the maintained count). */
export async function listMerchantTransactions(db: DbOrTx, merchantId: number, filters: TransactionFilters, window: KeysetWindow) {
  const where = transactionWhere(merchantId, filters);
  const maintained = maintainedCount("transactions", merchantId, {
    scopeId: filters.blockchainId,
    kinds: filteredStatuses(filters.status),
  });
  const { page, count, nextKey } = await readKeysetPage(db, { table: transactions, where, countOrder: transactionSortKey, maintained }, window, (read) =>
    db
      .select({ transfer: transactions, sortKey: sortKeyText(transactionSortKey), total: read.total })
      .from(transactions)
      .where(and(where, afterCursor(transactionSortKey, read.after, true)))
      .orderBy(...transactionSortKey.map((k) => (read.reverse ? asc : desc)(k.expression)))
      .limit(read.limit)
      .offset(read.offset),
  );
  return { rows: page.map((row) => row.transfer), count, nextKey };
}

/**
 * A merchant's transfer by transaction hash (case-insensitive), with its order, or the subscription
 * and period it charged; the first log of the transaction when it has several.
 */
export async function findMerchantTransaction(db: DbOrTx, merchantId: number, txHash: string) {
  const [row] = await db
    .select({
      transfer: transactions,
      order: paymentOrders,
      charge: { subscriptionId: subscriptions.subscriptionId, period: subscriptionCharges.period },
    })
    .from(transactions)
    .leftJoin(paymentOrders, eq(paymentOrders.id, transactions.paymentOrderId))
    .leftJoin(subscriptionCharges, eq(subscriptionCharges.id, transactions.subscriptionChargeId))
    .leftJoin(subscriptions, eq(subscriptions.id, subscriptionCharges.subscriptionId))
    .where(and(eq(transactions.merchantId, merchantId), eq(transactions.txHash, txHash.toLowerCase())))
    .orderBy(transactions.logIndex)
    .limit(1);
  return row ?? null;
}

/**
 * Records transfers once. A transfer seen again (a rescan, a re-inclusion after a reorg) takes what
 * the chain says now: its block, and, unless it is already confirmed, its status, amount and
 * whether it counts, since a re-included transaction can have a different effect.
 */
export async function upsertTransfers(db: DbOrTx, rows: NewTransaction[]) {
  if (rows.length === 0) return;
  const unlessConfirmed = (column: string) =>
    sql.raw(`case when "transactions"."status" = 'confirmed' then "transactions"."${column}" else excluded."${column}" end`);
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

/**
 * What arrived of the order's own asset at its deposit address and still stands on chain: counted
 * transfers and late ones alike (a late payment is refundable too); never another asset, a
 * reverted or a dropped transfer.
 */
export async function sumOrderAssetReceived(db: DbOrTx, order: Pick<PaymentOrder, "id" | "tokenAddress">): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${transactions.amount}), 0)::text` })
    .from(transactions)
    .where(
      and(
        eq(transactions.paymentOrderId, order.id),
        inArray(transactions.status, ["pending", "confirmed"]),
        sql`lower(coalesce(${transactions.tokenAddress}, '')) = lower(coalesce(${order.tokenAddress ?? null}::text, ''))`,
      ),
    );
  return BigInt(row?.total ?? "0");
}

export type RecordedNative = { orderId: number | null; amount: string; blockNumber: bigint; logIndex: number; txHash: string };

/** The native-coin transfers recorded for these orders that still stand (pending or confirmed). */
export async function findRecordedNative(db: DbOrTx, orderIds: number[]): Promise<RecordedNative[]> {
  return db
    .select({
      orderId: transactions.paymentOrderId,
      amount: transactions.amount,
      blockNumber: transactions.blockNumber,
      logIndex: transactions.logIndex,
      txHash: transactions.txHash,
    })
    .from(transactions)
    .where(and(inArray(transactions.paymentOrderId, orderIds), isNull(transactions.tokenAddress), inArray(transactions.status, ["pending", "confirmed"])));
}

/**
 * Every transfer seen for these orders of the merchant's, dropped ones included, in block order:
 * what arrived and what counted for a page or an export batch of orders. Ordered here, not by the
 * statement: a batch's few rows, never a sort in the database.
 */
export async function transfersOfOrders(db: DbOrTx, merchantId: number, paymentOrderIds: number[]) {
  if (paymentOrderIds.length === 0) return [];
  const rows = await db
    .select()
    .from(transactions)
    .where(and(eq(transactions.merchantId, merchantId), inArray(transactions.paymentOrderId, paymentOrderIds)));
  return rows.sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : a.logIndex - b.logIndex));
}

/** Every transfer seen for an order, dropped ones included (the detail page shows what happened). */
export async function orderTransfers(db: DbOrTx, merchantId: number, paymentOrderId: number) {
  return db
    .select()
    .from(transactions)
    .where(and(eq(transactions.merchantId, merchantId), eq(transactions.paymentOrderId, paymentOrderId)))
    .orderBy(asc(transactions.blockNumber), asc(transactions.logIndex));
}

/** Where a movement export's keyset stands: the last row's time and id. */
export interface MovementCursor {
  at: Date;
  id: number;
}

/**
 * A batch of the merchant's transfers into deposit addresses, and subscription charges into its wallet,
 * whose block time is in the range, with their order's (or subscription's) references and locked price, in (block time, id) order after `after`: the accounting
 * export (lib/dashboard/movements-csv.ts). Dropped transfers left the chain and are not movements.
 */
export async function paymentMovementsBatch(db: DbOrTx, merchantId: number, range: { from: Date; to: Date }, after: MovementCursor | null, limit: number) {
  return db
    .select({
      id: transactions.id,
      at: transactions.blockTimestamp,
      blockchainId: transactions.blockchainId,
      txHash: transactions.txHash,
      logIndex: transactions.logIndex,
      blockNumber: transactions.blockNumber,
      fromAddress: transactions.fromAddress,
      toAddress: transactions.toAddress,
      currency: transactions.currency,
      tokenAddress: transactions.tokenAddress,
      amount: transactions.amount,
      status: transactions.status,
      counted: transactions.counted,
      /** What the gateway paid to relay this transfer (a gasless payment, lib/gasless); null when the customer paid its gas. */
      relayCostWei: gaslessRelays.costWei,
      /** The transaction's fee: the gateway's key paid it for a subscription's charge. */
      fee: transactions.fee,
      usdRate: transactions.usdRate,
      nativeUsdRate: transactions.nativeUsdRate,
      usdRateSource: transactions.usdRateSource,
      pricedAt: transactions.pricedAt,
      order: {
        orderId: paymentOrders.orderId,
        orderInfo: paymentOrders.orderInfo,
        blockchainId: paymentOrders.blockchainId,
        tokenAddress: paymentOrders.tokenAddress,
        decimals: paymentOrders.decimals,
        priceAmount: paymentOrders.priceAmount,
        priceCurrency: paymentOrders.priceCurrency,
        rate: paymentOrders.rate,
        rateSource: paymentOrders.rateSource,
      },
      /** A subscription's charge (its public id and period; for a fiat plan the price and the rate locked for the period). */
      charge: {
        subscriptionId: subscriptions.subscriptionId,
        period: subscriptionCharges.period,
        priceAmount: subscriptionCharges.priceAmount,
        priceCurrency: subscriptionCharges.priceCurrency,
        rate: subscriptionCharges.rate,
        rateSource: subscriptionCharges.rateSource,
        ratedAt: subscriptionCharges.ratedAt,
      },
    })
    .from(transactions)
    .leftJoin(paymentOrders, eq(paymentOrders.id, transactions.paymentOrderId))
    .leftJoin(subscriptionCharges, eq(subscriptionCharges.id, transactions.subscriptionChargeId))
    .leftJoin(subscriptions, eq(subscriptions.id, subscriptionCharges.subscriptionId))
    .leftJoin(
      gaslessRelays,
      and(eq(gaslessRelays.txHash, transactions.txHash), eq(gaslessRelays.blockchainId, transactions.blockchainId), eq(gaslessRelays.status, "mined")),
    )
    .where(
      and(
        eq(transactions.merchantId, merchantId),
        ne(transactions.status, "dropped"),
        // One range of the (merchant, block_timestamp, id) index per batch: after a cursor, the row
        // comparison alone is the lower bound (beside `>= from` the scan would restart at `from`
        // and pass every row already exported, each batch slower; issue 31).
        after
          ? sql`(${transactions.blockTimestamp}, ${transactions.id}) > (${after.at.toISOString()}::timestamptz, ${after.id}::integer)`
          : gte(transactions.blockTimestamp, range.from),
        lt(transactions.blockTimestamp, range.to),
      ),
    )
    .orderBy(asc(transactions.blockTimestamp), asc(transactions.id))
    .limit(limit);
}
