import "server-only";
import { findBlockchainById, findToken } from "@/lib/chains/catalog";
import { sweepMovementsBatch } from "@/lib/chains/queries";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amounts";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";
import { payoutMovementsBatch } from "@/lib/payouts/queries";
import { refundMovementsBatch } from "@/lib/refunds/queries";
import { paymentMovementsBatch, type MovementCursor } from "@/lib/transactions/queries";
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
] as const;

type MovementType = "payment" | "refund" | "sweep" | "payout";

/** One CSV row and what the merge orders it by. */
interface Movement {
  at: Date;
  type: MovementType;
  id: number;
  values: CsvValue[];
}

/** Same-instant movements come out in the order they cause one another: money in, then its sweep, then a refund. */
const typeRank: Record<MovementType, number> = { payment: 0, sweep: 1, refund: 2, payout: 3 };

/**
 * The fiat value of a token amount at an order's locked rate (price-currency units per whole token),
 * exactly, rounded half up to the currency's minor units ("12.50"). Null when the rate is unknown.
 */
export function fiatValue(units: bigint, tokenDecimals: number, rate: string | null, priceCurrency: string | null): string | null {
  if (!rate || !priceCurrency || !isFiatCurrency(priceCurrency)) return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!match) return null;
  const rateFraction = match[2] ?? "";
  const rateUnits = BigInt(match[1]! + rateFraction);
  const minor = fiatCurrencies[priceCurrency];
  const shift = tokenDecimals + rateFraction.length - minor;
  const product = units * rateUnits;
  const value = shift >= 0 ? (product + 10n ** BigInt(shift) / 2n) / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
  if (minor === 0) return value.toString();
  const digits = value.toString().padStart(minor + 1, "0");
  return `${digits.slice(0, -minor)}.${digits.slice(-minor)}`;
}

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

/** Rows of one source in its (time, id) order, read in keyset batches as they are consumed. */
async function* batched<R extends { at: Date; id: number }>(read: (after: MovementCursor | null) => Promise<R[]>): AsyncGenerator<R> {
  let after: MovementCursor | null = null;
  for (;;) {
    const rows = await read(after);
    yield* rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: last.id };
  }
}

async function* payments(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  for await (const t of batched((after) => paymentMovementsBatch(db, merchantId, range, after, batchSize))) {
    const order = t.order;
    const decimals = tokenDecimals(t.blockchainId, t.currency, order?.decimals ?? 18);
    const units = BigInt(t.amount);
    // The locked rate prices the order's own token only: a transfer of another asset has no known rate.
    const sameAsset = order !== null && (order.tokenAddress ?? null)?.toLowerCase() === (t.tokenAddress ?? null)?.toLowerCase();
    const rate = sameAsset ? order.rate : null;
    const chain = findBlockchainById(t.blockchainId);
    yield {
      at: t.at,
      type: "payment",
      id: t.id,
      values: [
        t.at.toISOString(),
        "payment",
        "in",
        t.status,
        slugOf(t.blockchainId),
        t.currency,
        formatAmount(units, decimals),
        rate ? order?.priceCurrency : null,
        fiatValue(units, decimals, rate, order?.priceCurrency ?? null),
        rate,
        order?.orderId,
        order?.priceAmount && order.priceCurrency ? `${order.priceAmount} ${order.priceCurrency}` : null,
        linkIdOf(order?.orderInfo),
        order?.orderInfo,
        t.counted ? "yes" : "no",
        t.txHash,
        t.logIndex,
        t.blockNumber.toString(),
        t.fromAddress,
        t.toAddress,
        // The customer paid this transfer's gas, unless the gateway relayed it ("Pay without gas"): then the relay's cost.
        t.relayCostWei && chain ? formatAmount(BigInt(t.relayCostWei), chain.nativeCurrency.decimals) : null,
        t.relayCostWei && chain ? chain.nativeCurrency.symbol : null,
      ],
    };
  }
}

async function* refundsOut(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  for await (const r of batched((after) => refundMovementsBatch(db, merchantId, range, after, batchSize))) {
    const units = BigInt(r.amount);
    const decimals = r.order.decimals;
    yield {
      at: r.at,
      type: "refund",
      id: r.id,
      values: [
        r.at.toISOString(),
        "refund",
        "out",
        r.status,
        slugOf(r.blockchainId),
        r.currency,
        formatAmount(units, decimals),
        r.order.rate ? r.order.priceCurrency : null,
        fiatValue(units, decimals, r.order.rate, r.order.priceCurrency),
        r.order.rate,
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
      ],
    };
  }
}

/** A batch's USD rate (dollars per whole token) from the token/USD feed reading it locked, if any. */
function usdRateOf(rateSource: unknown): string | null {
  const reading = Array.isArray(rateSource) ? (rateSource[0] as { pair?: string; answer?: string; decimals?: number } | undefined) : undefined;
  if (!reading?.pair?.endsWith("/USD") || !reading.answer || reading.decimals === undefined) return null;
  return formatAmount(BigInt(reading.answer), reading.decimals);
}

/**
 * Payout legs (lib/payouts) whose batch transaction was mined: one row each, valued at the batch's
 * locked rate (its fiat when the legs were entered in fiat, else USD at the token/USD feed it read);
 * `order_info` names the batch and the leg's reference.
 */
async function* payoutsOut(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  for await (const p of batched((after) => payoutMovementsBatch(db, merchantId, range, after, batchSize))) {
    const { batch, leg } = p;
    const units = BigInt(leg.amount);
    const fiatCurrency = batch.amountCurrency ?? (usdRateOf(batch.rateSource) ? "USD" : null);
    const rate = batch.amountCurrency ? batch.rate : usdRateOf(batch.rateSource);
    yield {
      at: p.at,
      type: "payout",
      id: p.id,
      values: [
        p.at.toISOString(),
        "payout",
        "out",
        leg.status,
        slugOf(batch.blockchainId),
        batch.currency,
        formatAmount(units, batch.decimals),
        rate ? fiatCurrency : null,
        batch.amountCurrency ? leg.fiatAmount : fiatValue(units, batch.decimals, rate, fiatCurrency),
        rate,
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
      ],
    };
  }
}

async function* sweepsInternal(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<Movement> {
  for await (const s of batched((after) => sweepMovementsBatch(db, merchantId, range, after, batchSize))) {
    const chain = findBlockchainById(s.blockchainId);
    // This order's share of its sweep batches' gas, in the native coin's base units (lib/chains/sweep-cost-queries.ts).
    const gas: string | null = s.gasCostWei;
    yield {
      at: s.at,
      type: "sweep",
      id: s.id,
      values: [
        s.at.toISOString(),
        "sweep",
        "internal",
        s.status,
        slugOf(s.blockchainId),
        s.order.currency,
        // A sweep moves the deposit's whole balance between the merchant's own addresses; its cost is the gas.
        null,
        null,
        null,
        null,
        s.order.orderId,
        null,
        linkIdOf(s.order.orderInfo),
        s.order.orderInfo,
        null,
        s.txHash,
        null,
        s.blockNumber?.toString() ?? null,
        s.order.receivingAddress,
        s.order.depositDestination,
        gas && chain ? formatAmount(BigInt(gas), chain.nativeCurrency.decimals) : null,
        gas && chain ? chain.nativeCurrency.symbol : null,
      ],
    };
  }
}

const before = (a: Movement, b: Movement) =>
  a.at.getTime() - b.at.getTime() || typeRank[a.type] - typeRank[b.type] || a.id - b.id;

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
 * Every on-chain movement of the merchant's money in the range — payments into deposit addresses,
 * refunds sent, deposits swept to their wallet, payout legs paid — as one CSV in time order, streamed: each source is
 * read in keyset batches as the client consumes the body.
 */
export function movementsCsvStream(db: DbOrTx, merchantId: number, range: ExportRange): ReadableStream<Uint8Array> {
  return csvStream(movementColumns, movementRows(db, merchantId, range));
}

/** The merged sources' rows, in order. The sources start reading only when the stream is first pulled for rows. */
async function* movementRows(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<CsvValue[]> {
  for await (const movement of mergedMovements([payments(db, merchantId, range), sweepsInternal(db, merchantId, range), refundsOut(db, merchantId, range), payoutsOut(db, merchantId, range)])) yield movement.values;
}
