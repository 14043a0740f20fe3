import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import { orderMethodAddresses, paymentOrders, transactions, type PaymentOrder } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import type { AcceptedMethod } from "../payment-methods";

/**
 * Orders on a chain the lifecycle must look at: processing ones (a reorg may have taken their
 * transfers), pending ones with money (amount_received, kept by the scanner as transfers are
 * recorded: lib/chains/queries.ts refreshPendingReceived) or past their deadline, and expired ones
 * that received their asset after expiry. Each part is read from a partial index of only such
 * orders (issue 31), never by looking at every open order of the chain; the predicates are
 * literals so the planner can prove they match those indexes.
 */
export async function findOrdersToEvaluate(db: DbOrTx, blockchainId: number, now: Date) {
  const inFlight = await db
    .select()
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.blockchainId, blockchainId),
        sql`(${paymentOrders.status} = 'processing' or (${paymentOrders.status} = 'pending' and ${paymentOrders.amountReceived} > 0))`,
      ),
    );
  const pastDeadline = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), sql`${paymentOrders.status} = 'pending'`, lte(paymentOrders.expiresAt, now)));
  // Late payments: live transfers that did not count (transactions_uncounted_idx), of the order's asset, on an expired order.
  const late = await db
    .selectDistinct({ order: getTableColumns(paymentOrders) })
    .from(transactions)
    .innerJoin(paymentOrders, eq(paymentOrders.id, transactions.paymentOrderId))
    .where(
      and(
        sql`not ${transactions.counted} and ${transactions.status} in ('pending', 'confirmed')`,
        eq(transactions.blockchainId, blockchainId),
        eq(paymentOrders.blockchainId, blockchainId),
        sql`${paymentOrders.status} = 'expired'`,
        sql`${transactions.tokenAddress} is not distinct from ${paymentOrders.tokenAddress}`,
      ),
    );
  const seen = new Set<number>();
  const orders: PaymentOrder[] = [];
  for (const order of [...inFlight, ...pastDeadline, ...late.map((row) => row.order)]) {
    if (seen.has(order.id)) continue;
    seen.add(order.id);
    orders.push(order);
  }
  return orders;
}

/** When the first pending order on a chain reaches its deadline (null: none pending): the one thing a chain's clock decides without a new block. */
export async function nextPendingDeadline(db: DbOrTx, blockchainId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: paymentOrders.expiresAt })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), sql`${paymentOrders.status} = 'pending'`))
    .orderBy(asc(paymentOrders.expiresAt))
    .limit(1);
  return row?.at ?? null;
}

/** Moves an order from `from` to its next state; false if another worker got there first (idempotent transitions). */
export async function transitionOrder(db: DbOrTx, id: number, from: string, values: Partial<PaymentOrder> & { updatedAt: Date }) {
  const [row] = await db
    .update(paymentOrders)
    .set(values)
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, from)))
    .returning();
  return row ?? null;
}

/** Orders on a chain whose deposit address is among `addresses` (any status: late payments count as facts too). */
export async function findOrdersByDepositAddresses(db: DbOrTx, blockchainId: number, addresses: string[]) {
  if (addresses.length === 0) return [];
  return db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), inArray(paymentOrders.receivingAddress, addresses)));
}

/** Whether `address` (checksummed) is the deposit address of any order of any merchant on any of `blockchainIds` (served by the chain/address index). */
export async function isAnyOrderDepositAddress(db: DbOrTx, blockchainIds: number[], address: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(and(inArray(paymentOrders.blockchainId, blockchainIds), eq(paymentOrders.receivingAddress, address)))
    .limit(1);
  return row !== undefined;
}

/** Of `addresses` (checksummed), those that are deposit addresses of the merchant's orders on `blockchainIds` (an order's own or one of its methods'). */
export async function merchantDepositAddressesAmong(db: DbOrTx, merchantId: number, blockchainIds: number[], addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0 || blockchainIds.length === 0) return new Set();
  const [own, methods] = await Promise.all([
    db
      .select({ address: paymentOrders.receivingAddress })
      .from(paymentOrders)
      .where(
        and(eq(paymentOrders.merchantId, merchantId), inArray(paymentOrders.blockchainId, blockchainIds), inArray(paymentOrders.receivingAddress, addresses)),
      ),
    db
      .select({ address: orderMethodAddresses.receivingAddress })
      .from(orderMethodAddresses)
      .innerJoin(paymentOrders, eq(paymentOrders.id, orderMethodAddresses.paymentOrderId))
      .where(
        and(
          eq(paymentOrders.merchantId, merchantId),
          inArray(orderMethodAddresses.blockchainId, blockchainIds),
          inArray(orderMethodAddresses.receivingAddress, addresses),
        ),
      ),
  ]);
  return new Set([...own, ...methods].map((row) => row.address));
}

const openNative = sql`${paymentOrders.status} in ('pending', 'processing') and ${paymentOrders.tokenAddress} is null`;

/**
 * Open orders on a chain paid in its native coin (their deposits may arrive by internal transfer),
 * at most `limit` of them (payment_orders_chain_open_native_idx): the newest, and the next ones
 * after `afterId` in id order (wrapping round), so a pass reads a bounded window however many are
 * open and successive passes cover them all.
 */
export async function findOpenNativeOrders(
  db: DbOrTx,
  blockchainId: number,
  window: { newest: number; afterId: number; next: number },
): Promise<{ orders: PaymentOrder[]; lastId: number }> {
  const onChain = and(eq(paymentOrders.blockchainId, blockchainId), openNative);
  const newest = await db.select().from(paymentOrders).where(onChain).orderBy(desc(paymentOrders.id)).limit(window.newest);
  let rotating = await db
    .select()
    .from(paymentOrders)
    .where(and(onChain, gt(paymentOrders.id, window.afterId)))
    .orderBy(asc(paymentOrders.id))
    .limit(window.next);
  if (rotating.length < window.next && window.afterId > 0) {
    const wrapped = await db
      .select()
      .from(paymentOrders)
      .where(and(onChain, lte(paymentOrders.id, window.afterId)))
      .orderBy(asc(paymentOrders.id))
      .limit(window.next - rotating.length);
    rotating = [...rotating, ...wrapped];
  }
  const byId = new Map<number, PaymentOrder>();
  for (const order of [...rotating, ...newest]) byId.set(order.id, order);
  // Where the next pass goes on from (0: from the start).
  return { orders: [...byId.values()], lastId: rotating.at(-1)?.id ?? 0 };
}

/**
 * Deposit addresses on a chain where its native coin is awaited, at most `limit` + 1 (the newest
 * first; one more says there are more): of orders paid in the chain's coin (pending or processing,
 * payment_orders_chain_open_native_idx) and of pending orders with several methods, one of them
 * this chain's coin (order_method_addresses). The scanner reads their balances.
 */
export async function findOpenNativeAddresses(db: DbOrTx, blockchainId: number, limit: number): Promise<string[]> {
  const own = await db
    .select({ address: paymentOrders.receivingAddress })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, blockchainId), openNative))
    .orderBy(desc(paymentOrders.id))
    .limit(limit + 1);
  const native = JSON.stringify([{ blockchainId, tokenAddress: null }]);
  const byMethod = await db
    .select({ address: orderMethodAddresses.receivingAddress })
    .from(orderMethodAddresses)
    .innerJoin(paymentOrders, eq(paymentOrders.id, orderMethodAddresses.paymentOrderId))
    .where(
      and(eq(orderMethodAddresses.blockchainId, blockchainId), eq(paymentOrders.status, "pending"), sql`${paymentOrders.acceptedMethods} @> ${native}::jsonb`),
    )
    .orderBy(desc(paymentOrders.id))
    .limit(limit + 1);
  return [...new Set([...own, ...byMethod].map((r) => r.address))].slice(0, limit + 1);
}

/**
 * A confirmed order whose payment a reorg took away stays confirmed but is flagged at risk, once:
 * null when it is not confirmed or already flagged.
 */
export async function flagOrderAtRisk(db: DbOrTx, id: number, reason: "payment_reorged", now: Date): Promise<PaymentOrder | null> {
  const [row] = await db
    .update(paymentOrders)
    .set({ atRiskReason: reason, atRiskAt: now, updatedAt: now })
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, "confirmed"), isNull(paymentOrders.atRiskReason)))
    .returning();
  return row ?? null;
}

/** Money that fixes an order's method: a live transfer that counted toward it. */
const paymentArrived = sql`exists (select 1 from ${transactions} t where t.payment_order_id = ${paymentOrders.id} and t.counted and t.status in ('pending', 'confirmed'))`;

/**
 * Makes `method` the order's own (chain, token, amount, rate, deposit address, threshold), only
 * while it is pending with no money arrived; null when it is not (the method is fixed).
 */
export async function switchOrderMethod(db: DbOrTx, id: number, method: AcceptedMethod, now: Date): Promise<PaymentOrder | null> {
  const [row] = await db
    .update(paymentOrders)
    .set({
      blockchainId: method.blockchainId,
      currency: method.currency,
      tokenAddress: method.tokenAddress,
      decimals: method.decimals,
      amount: method.amount,
      rate: method.rate,
      rateSource: method.rateSource,
      receivingAddress: method.receivingAddress,
      depositDestination: method.depositDestination,
      depositSalt: method.depositSalt,
      depositFactory: method.depositFactory,
      depositFactoryVersion: method.depositFactoryVersion,
      confirmationThreshold: method.confirmationThreshold,
      updatedAt: now,
    })
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, "pending"), eq(paymentOrders.amountReceived, "0"), sql`not ${paymentArrived}`))
    .returning();
  return row ?? null;
}

/** Orders with several methods whose deposit address on `blockchainId` is among `addresses` (the scanner: money by a method not chosen yet). */
export async function findOrdersByMethodAddresses(db: DbOrTx, blockchainId: number, addresses: string[]): Promise<PaymentOrder[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .select({ order: getTableColumns(paymentOrders) })
    .from(orderMethodAddresses)
    .innerJoin(paymentOrders, eq(paymentOrders.id, orderMethodAddresses.paymentOrderId))
    .where(and(eq(orderMethodAddresses.blockchainId, blockchainId), inArray(orderMethodAddresses.receivingAddress, addresses)));
  return rows.map((r) => r.order);
}
