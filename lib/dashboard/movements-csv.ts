import "server-only";
import { findBlockchainById, findToken } from "@/lib/chains/catalog";
import { sweepMovementsBatch } from "@/lib/chains/queries";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amounts";
import { payoutMovementsBatch } from "@/lib/payouts/queries";
import { refundMovementsBatch } from "@/lib/refunds/queries";
import { paymentMovementsBatch, transfersOfOrders, type MovementCursor } from "@/lib/transactions/queries";
import { batchValuation, chargeValuation, fiatValue, gasInUsd, valuation, type Valuation } from "@/lib/transactions/valuation";
import type { Transaction } from "@/lib/db/schema";
import { csvRowsPerChunk, csvStream, type CsvValue } from "@/lib/csv/writer";
import type { ExportRange } from "./orders-csv";

/** Rows read per round trip and per source while streaming. */
const batchSize = csvRowsPerChunk;

export const movementColumns = [
  "occurred_at",
  "type",
  "direction",
  "status",
  "blockchain",
  "currency",
  "amount",
  "fiat_currency",
  "fiat_amount",
  "rate",
  "order_id",
  "order_price",
  "link_id",
  "order_info",
  "counts_toward_order",
  "tx_hash",
  "log_index",
  "block_number",
  "from_address",
  "to_address",
  "gas_fee",
  "gas_currency",
  // Where fiat_amount's rate came from (lib/transactions/valuation.ts): the order's locked rate, or the price when the transfer was detected.
  "rate_basis",
  "rate_feeds",
  "rate_time",
  "gas_fiat_amount",
  "gas_fiat_currency",
] as const;

type MovementType = "payment" | "refund" | "sweep" | "payout";

/** One movement and what the merge orders it by. */
export interface Movement {
  at: Date;
  type: MovementType;
  id: number;
  /** The movement's meaning, for the layouts (./bank-statement-csv.ts). */
  entry: MovementEntry;
  values: CsvValue[];
}

/** What an accountant books of a movement: signed fiat (money in +, out and costs −) and how to name it. */
export interface MovementEntry {
  orderId: string | null;
  /** A subscription's charge: the subscription's public id (SUB-…) and the period charged. */
  subscription?: { id: string; period: number } | null;
  /** A payout leg: its batch, its place in it, the merchant's reference, where it went and whether it moved money. */
  payout?: { batchId: number; leg: number; reference: string | null; toAddress: string; paid: boolean } | null;
  txHash: string | null;
  currency: string;
  amount: string | null;
  fiatCurrency: string | null;
  fiatAmount: string | null;
  gasFiatAmount: string | null;
  gasFiatCurrency: string | null;
  counted: boolean | null;
}

/** Same-instant movements come out in the order they cause one another: money in, then its sweep, then a refund. */
const typeRank: Record<MovementType, number> = { payment: 0, sweep: 1, refund: 2, payout: 3 };

export { fiatValue };

/** The payment link an order came from: link orders carry it as order_info's `payment_link`. */
export function linkIdOf(orderInfo: string | null | undefined): string | null {
  if (!orderInfo?.startsWith('{"payment_link":')) return null;
  try {
    const info: unknown = JSON.parse(orderInfo);
    const link = (info as { payment_link?: unknown }).payment_link;
    return typeof link === "string" ? link : null;
  } catch {
    return null;
  }
}

const slugOf = (blockchainId: number) => findBlockchainById(blockchainId)?.slug ?? String(blockchainId);

function tokenDecimals(blockchainId: number, currency: string, fallback: number): number {
  const chain = findBlockchainById(blockchainId);
  return (chain && findToken(chain, currency)?.decimals) ?? fallback;
}

/** Rows of one source in its (time, id) order, read in keyset batches as they are consumed, each batch with what `load` reads for it. */
async function* batched<R extends { at: Date; id: number }, C = null>(
  read: (after: MovementCursor | null) => Promise<R[]>,
  load: (rows: R[]) => Promise<C> = async () => null as C,
): AsyncGenerator<{ row: R; context: C }> {
  let after: MovementCursor | null = null;
  for (;;) {
    const rows = await read(after);
    const context = await load(rows);
    for (const row of rows) yield { row, context };
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: last.id };
  }
}

/** The transfers of the orders of a batch, by order: what a sweep moved and what a refund's money was worth when it arrived. */
async function transfersByOrder(db: DbOrTx, merchantId: number, orderIds: number[]): Promise<Map<number, Transaction[]>> {
  const byOrder = new Map<number, Transaction[]>();
  for (const t of await transfersOfOrders(db, merchantId, [...new Set(orderIds)]))
    byOrder.set(t.paymentOrderId!, [...(byOrder.get(t.paymentOrderId!) ?? []), t]);
  return byOrder;
}

const isLive = (t: Transaction) => t.status === "pending" || t.status === "confirmed";
const sameToken = (a: string | null, b: string | null) => (a ?? null)?.toLowerCase() === (b ?? null)?.toLowerCase();
/** The latest live transfer of an asset to the order: its detected price values that asset's later movements (sweep, refund). */
const latestOf = (transfers: Transaction[], tokenAddress: string | null) =>
  transfers.filter((t) => isLive(t) && sameToken(t.tokenAddress, tokenAddress)).at(-1) ?? null;

const valuationColumns = (v: Valuation | null): CsvValue[] => [v?.basis ?? null, v?.feeds || null, v?.at ?? null];

async function* payments(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  for await (const { row: t } of batched((after) => paymentMovementsBatch(db, merchantId, range, after, batchSize))) {
    const order = t.order;
    const charge = t.charge?.subscriptionId ? { ...t.charge, subscriptionId: t.charge.subscriptionId } : null;
    const decimals = tokenDecimals(t.blockchainId, t.currency, order?.decimals ?? 18);
    const units = BigInt(t.amount);
    const value = charge ? chargeValuation(charge, t) : valuation(order?.orderId ? order : null, t, t);
    const fiat = value ? fiatValue(units, decimals, value.rate, value.fiatCurrency) : null;
    const chain = findBlockchainById(t.blockchainId);
    // The customer paid this transfer's gas, unless the gateway relayed it ("Pay without gas"): then the relay's cost;
    // a subscription's charge is sent (and its gas paid) by the gateway's key.
    const relayWei = charge ? (t.fee ? BigInt(t.fee) : null) : t.relayCostWei ? BigInt(t.relayCostWei) : null;
    const gasFiat = chain ? gasInUsd(relayWei, chain.nativeCurrency.decimals, t) : null;
    yield {
      at: t.at,
      type: "payment",
      id: t.id,
      entry: {
        orderId: order?.orderId ?? null,
        subscription: charge ? { id: charge.subscriptionId, period: charge.period ?? 0 } : null,
        txHash: t.txHash,
        currency: t.currency,
        amount: formatAmount(units, decimals),
        fiatCurrency: value?.fiatCurrency ?? null,
        fiatAmount: fiat,
        gasFiatAmount: gasFiat,
        gasFiatCurrency: gasFiat ? "USD" : null,
        counted: t.counted,
      },
      values: [
        t.at.toISOString(),
        "payment",
        "in",
        t.status,
        slugOf(t.blockchainId),
        t.currency,
        formatAmount(units, decimals),
        value?.fiatCurrency ?? null,
        fiat,
        value?.rate ?? null,
        order?.orderId,
        order?.priceAmount && order.priceCurrency
          ? `${order.priceAmount} ${order.priceCurrency}`
          : charge?.priceAmount && charge.priceCurrency
            ? `${charge.priceAmount} ${charge.priceCurrency}`
            : null,
        linkIdOf(order?.orderInfo),
        charge ? JSON.stringify({ subscription: charge.subscriptionId, period: charge.period }) : order?.orderInfo,
        t.counted ? "yes" : "no",
        t.txHash,
        t.logIndex,
        t.blockNumber.toString(),
        t.fromAddress,
        t.toAddress,
        relayWei !== null && chain ? formatAmount(relayWei, chain.nativeCurrency.decimals) : null,
        relayWei !== null && chain ? chain.nativeCurrency.symbol : null,
        ...valuationColumns(value),
        gasFiat,
        gasFiat ? "USD" : null,
      ],
    };
  }
}

async function* refundsOut(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  const read = (after: MovementCursor | null) => refundMovementsBatch(db, merchantId, range, after, batchSize);
  for await (const { row: r, context } of batched(read, (rows) =>
    transfersByOrder(
      db,
      merchantId,
      rows.map((row) => row.order.id),
    ),
  )) {
    const units = BigInt(r.amount);
    const decimals = r.order.decimals;
    // Money going back is valued as it was when it arrived: the order's locked rate, else the price when its transfer was detected.
    const value = valuation(r.order, { blockchainId: r.blockchainId, tokenAddress: r.tokenAddress }, latestOf(context.get(r.order.id) ?? [], r.tokenAddress));
    const fiat = value ? fiatValue(units, decimals, value.rate, value.fiatCurrency) : null;
    yield {
      at: r.at,
      type: "refund",
      id: r.id,
      entry: {
        orderId: r.order.orderId,
        txHash: r.txHash,
        currency: r.currency,
        amount: formatAmount(units, decimals),
        fiatCurrency: value?.fiatCurrency ?? null,
        fiatAmount: fiat,
        gasFiatAmount: null,
        gasFiatCurrency: null,
        counted: null,
      },
      values: [
        r.at.toISOString(),
        "refund",
        "out",
        r.status,
        slugOf(r.blockchainId),
        r.currency,
        formatAmount(units, decimals),
        value?.fiatCurrency ?? null,
        fiat,
        value?.rate ?? null,
        r.order.orderId,
        r.order.priceAmount && r.order.priceCurrency ? `${r.order.priceAmount} ${r.order.priceCurrency}` : null,
        linkIdOf(r.order.orderInfo),
        r.order.orderInfo,
        null,
        r.txHash,
        r.logIndex,
        r.blockNumber?.toString() ?? null,
        r.fromAddress,
        r.toAddress,
        // Sent and paid for from the merchant's own wallet: the gateway does not see its fee.
        null,
        null,
        ...valuationColumns(value),
        null,
        null,
      ],
    };
  }
}

/**
 * Each succeeded sweep as one row per asset it moved (what still stands of every transfer to the
 * deposit: the sweep flushes the whole balance), the gas on the first: the order's share of its
 * batches' gas, in the native coin and in US dollars at the native price recorded with the order's
 * latest transfer.
 */
async function* sweepsInternal(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  const read = (after: MovementCursor | null) => sweepMovementsBatch(db, merchantId, range, after, batchSize);
  for await (const { row: s, context } of batched(read, (rows) =>
    transfersByOrder(
      db,
      merchantId,
      rows.map((row) => row.order.id),
    ),
  )) {
    const chain = findBlockchainById(s.blockchainId);
    const transfers = (context.get(s.order.id) ?? []).filter(isLive);
    const assets = new Map<string, { currency: string; tokenAddress: string | null; units: bigint }>();
    for (const t of transfers) {
      const key = (t.tokenAddress ?? "native").toLowerCase();
      const asset = assets.get(key) ?? { currency: t.currency, tokenAddress: t.tokenAddress, units: 0n };
      asset.units += BigInt(t.amount);
      assets.set(key, asset);
    }
    const gas: string | null = s.gasCostWei;
    const gasWei = gas ? BigInt(gas) : null;
    const gasFiat = chain ? gasInUsd(gasWei, chain.nativeCurrency.decimals, transfers.at(-1) ?? null) : null;
    const rows = assets.size ? [...assets.values()] : [{ currency: s.order.currency, tokenAddress: s.order.tokenAddress, units: null }];
    for (const [i, asset] of rows.entries()) {
      const decimals = tokenDecimals(s.blockchainId, asset.currency, s.order.decimals);
      const value =
        asset.units === null
          ? null
          : valuation(s.order, { blockchainId: s.blockchainId, tokenAddress: asset.tokenAddress }, latestOf(transfers, asset.tokenAddress));
      const amount = asset.units === null ? null : formatAmount(asset.units, decimals);
      const fiat = value && asset.units !== null ? fiatValue(asset.units, decimals, value.rate, value.fiatCurrency) : null;
      const first = i === 0;
      yield {
        at: s.at,
        type: "sweep",
        id: s.id,
        entry: {
          orderId: s.order.orderId,
          txHash: s.txHash,
          currency: asset.currency,
          amount,
          fiatCurrency: value?.fiatCurrency ?? null,
          fiatAmount: fiat,
          gasFiatAmount: first ? gasFiat : null,
          gasFiatCurrency: first && gasFiat ? "USD" : null,
          counted: null,
        },
        values: [
          s.at.toISOString(),
          "sweep",
          "internal",
          s.status,
          slugOf(s.blockchainId),
          asset.currency,
          // Moved between the merchant's own addresses: not income again; its cost is the gas.
          amount,
          value?.fiatCurrency ?? null,
          fiat,
          value?.rate ?? null,
          s.order.orderId,
          s.order.priceAmount && s.order.priceCurrency ? `${s.order.priceAmount} ${s.order.priceCurrency}` : null,
          linkIdOf(s.order.orderInfo),
          s.order.orderInfo,
          null,
          s.txHash,
          null,
          s.blockNumber?.toString() ?? null,
          s.order.receivingAddress,
          s.order.depositDestination,
          first && gasWei !== null && chain ? formatAmount(gasWei, chain.nativeCurrency.decimals) : null,
          first && gasWei !== null && chain ? chain.nativeCurrency.symbol : null,
          ...valuationColumns(value),
          first ? gasFiat : null,
          first && gasFiat ? "USD" : null,
        ],
      };
    }
  }
}

/**
 * Payout legs (lib/payouts) whose batch transaction was mined: one row each, valued at the batch's
 * locked rate (`batchValuation`); `order_info` names the batch and the leg's reference.
 */
async function* payoutsOut(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  for await (const { row: p } of batched((after) => payoutMovementsBatch(db, merchantId, range, after, batchSize))) {
    const { batch, leg } = p;
    const units = BigInt(leg.amount);
    const value = batchValuation(batch);
    const fiat = value ? (batch.amountCurrency ? leg.fiatAmount : fiatValue(units, batch.decimals, value.rate, value.fiatCurrency)) : null;
    const amount = formatAmount(units, batch.decimals);
    yield {
      at: p.at,
      type: "payout",
      id: p.id,
      entry: {
        orderId: null,
        payout: { batchId: batch.id, leg: leg.position, reference: leg.reference, toAddress: leg.toAddress, paid: leg.status !== "failed" },
        txHash: batch.txHash,
        currency: batch.currency,
        amount,
        fiatCurrency: value?.fiatCurrency ?? null,
        fiatAmount: fiat,
        gasFiatAmount: null,
        gasFiatCurrency: null,
        counted: null,
      },
      values: [
        p.at.toISOString(),
        "payout",
        "out",
        leg.status,
        slugOf(batch.blockchainId),
        batch.currency,
        amount,
        value?.fiatCurrency ?? null,
        fiat,
        value?.rate ?? null,
        null,
        null,
        null,
        JSON.stringify({ payout_batch: batch.id, leg: leg.position, reference: leg.reference }),
        null,
        batch.txHash,
        null,
        batch.blockNumber?.toString() ?? null,
        batch.fromAddress,
        leg.toAddress,
        // Sent and paid for from the merchant's own wallet, one fee for the whole batch: not split per leg here.
        null,
        null,
        ...valuationColumns(value),
        null,
        null,
      ],
    };
  }
}

const before = (a: Movement, b: Movement) => a.at.getTime() - b.at.getTime() || typeRank[a.type] - typeRank[b.type] || a.id - b.id;

/** The sources merged into one (time, cause, id) order: each is already sorted, so only their heads are compared. */
export async function* mergedMovements(sources: Array<AsyncGenerator<Movement>>): AsyncGenerator<Movement> {
  const heads = await Promise.all(sources.map(async (source) => ({ source, next: await source.next() })));
  for (;;) {
    let first: (typeof heads)[number] | null = null;
    for (const head of heads) if (!head.next.done && (!first || before(head.next.value, first.next.value as Movement) < 0)) first = head;
    if (!first) return;
    yield first.next.value as Movement;
    first.next = await first.source.next();
  }
}

/**
 * Every on-chain movement of the merchant's money in the range — payments into deposit addresses and
 * subscription charges into its wallet, refunds sent, deposits swept to their wallet, payout legs paid — as one CSV in time order, streamed: each source is
 * read in keyset batches as the client consumes the body.
 */
export function movementsCsvStream(db: DbOrTx, merchantId: number, range: ExportRange): ReadableStream<Uint8Array> {
  return csvStream(movementColumns, movementRows(db, merchantId, range));
}

/** Every movement of the merchant's in the range, merged in order. The sources start reading only when first pulled. */
export function movements(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  return mergedMovements([
    payments(db, merchantId, range),
    sweepsInternal(db, merchantId, range),
    refundsOut(db, merchantId, range),
    payoutsOut(db, merchantId, range),
  ]);
}

async function* movementRows(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<CsvValue[]> {
  for await (const movement of movements(db, merchantId, range)) yield movement.values;
}
