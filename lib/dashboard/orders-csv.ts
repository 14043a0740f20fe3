import "server-only";
import { z } from "zod";
import { findBlockchainById } from "@/lib/chains/catalog";
import { csvRowsPerChunk, csvStream, type CsvValue } from "@/lib/csv/writer";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amounts";
import { exportOrdersBatch, type ExportOrderRow } from "@/lib/orders/queries";

/** A year of orders per export keeps one download bounded; the form asks again for more. */
export const maxExportDays = 366;
const dayMs = 24 * 60 * 60 * 1000;
/** Rows read per round trip while streaming: one chunk of the stream. */
const batchSize = csvRowsPerChunk;

/** A calendar date as YYYY-MM-DD that exists (2024-02-31 does not: it must read back the same). */
const isoDate = z.string().refine((s) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const time = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === s;
}, "Enter a real date as YYYY-MM-DD.");

/** `from` and `to` are whole UTC days, both included. */
export const exportOrdersQuery = z
  .object({ from: isoDate, to: isoDate })
  .transform((q) => ({ from: new Date(`${q.from}T00:00:00Z`), to: new Date(Date.parse(`${q.to}T00:00:00Z`) + dayMs) }))
  .refine((r) => r.to.getTime() > r.from.getTime(), { message: "The end date must not be before the start date.", path: ["to"] })
  .refine((r) => r.to.getTime() - r.from.getTime() <= maxExportDays * dayMs, { message: `Export at most ${maxExportDays} days at once.`, path: ["to"] });
export type ExportRange = z.output<typeof exportOrdersQuery>;

export const csvColumns = [
  "order_id",
  "created_at",
  "status",
  "failure_reason",
  "blockchain",
  "currency",
  "amount",
  "amount_received",
  "nonce",
  "receiving_address",
  "expires_at",
  "confirmed_at",
  "order_info",
] as const;

function orderRow(order: ExportOrderRow): CsvValue[] {
  return [
    order.orderId,
    order.createdAt,
    order.status,
    order.failureReason,
    findBlockchainById(order.blockchainId)?.slug ?? String(order.blockchainId),
    order.currency,
    formatAmount(BigInt(order.amount), order.decimals),
    formatAmount(BigInt(order.amountReceived), order.decimals),
    order.nonce,
    order.receivingAddress,
    order.expiresAt,
    order.confirmedAt,
    order.orderInfo,
  ];
}

/** The merchant's orders created in the range, read in keyset batches as they are consumed. */
async function* orderRows(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<CsvValue[]> {
  let after: string[] | null = null;
  for (;;) {
    const rows = await exportOrdersBatch(db, merchantId, range, after, batchSize);
    for (const order of rows) yield orderRow(order);
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.sortKey;
  }
}

/** The merchant's orders created in the range as a CSV stream, read in keyset batches as the client consumes it. */
export function ordersCsvStream(db: DbOrTx, merchantId: number, range: ExportRange): ReadableStream<Uint8Array> {
  return csvStream(csvColumns, orderRows(db, merchantId, range));
}
