import "server-only";
import { z } from "zod";
import { findBlockchainById } from "@/lib/chains/catalog";
import { csvRowsPerChunk, csvStream, type CsvValue } from "@/lib/csv/writer";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amounts";
import { exportOrdersBatch, type ExportOrderRow } from "@/lib/orders/queries";
import { notCountedLabels, orderMoney } from "@/lib/orders/order-money";
import type { Transaction } from "@/lib/db/schema";
import { transfersOfOrders } from "@/lib/transactions/queries";
import { fiatValue, valuation } from "@/lib/transactions/valuation";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";

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
  // What arrived beside what counted, and why the rest did not (lib/orders/order-money.ts).
  "amount_arrived",
  "amount_counted",
  "not_counted",
  "payment_reversed",
  "at_risk",
  // Fiat values (lib/transactions/valuation.ts): the locked rate, else the price when the order's payment was detected.
  "price_amount",
  "price_currency",
  "fiat_currency",
  "amount_counted_fiat",
  "amount_arrived_fiat",
  "rate",
  "rate_basis",
  "rate_feeds",
  "rate_time",
] as const;

const isLive = (t: Transaction) => t.status === "pending" || t.status === "confirmed";

/** An order's money in fiat: each transfer of its own asset at its valuation, summed (one currency: the locked rate's, or USD). */
function fiatOfOrder(order: ExportOrderRow, own: Transaction[], decimals: number) {
  const valued = {
    blockchainId: order.blockchainId,
    tokenAddress: order.tokenAddress,
    priceCurrency: order.priceCurrency,
    rate: order.rate,
    rateSource: order.rateSource ? JSON.parse(order.rateSource) : null,
  };
  // The rate shown: the locked one, else the price recorded for the order's latest transfer (a reorged one too: its price still held).
  const latestPriced = [...own].reverse().find((t) => t.usdRate) ?? null;
  const shown = valuation(valued, order, latestPriced);
  if (!shown) return { shown: null, counted: null, arrived: null };
  const sum = (transfers: Transaction[]) => {
    let total = 0n;
    const minor = isFiatCurrency(shown.fiatCurrency) ? fiatCurrencies[shown.fiatCurrency] : 2;
    for (const t of transfers) {
      const value = valuation(valued, t, t) ?? shown;
      const text = fiatValue(BigInt(t.amount), decimals, value.rate, value.fiatCurrency);
      if (text === null) return null;
      total += BigInt(text.replace(".", ""));
    }
    if (minor === 0) return total.toString();
    const digits = total.toString().padStart(minor + 1, "0");
    return `${digits.slice(0, -minor)}.${digits.slice(-minor)}`;
  };
  const live = own.filter(isLive);
  return { shown, counted: sum(live.filter((t) => t.counted)), arrived: sum(live) };
}

function orderRow(order: ExportOrderRow, transfers: Transaction[]): CsvValue[] {
  const money = orderMoney(
    {
      status: order.status,
      tokenAddress: order.tokenAddress,
      expiresAt: new Date(order.expiresAt),
      decimals: order.decimals,
      atRiskReason: order.atRiskReason,
    },
    transfers,
  );
  const own = transfers.filter(
    (t) => t.blockchainId === order.blockchainId && (t.tokenAddress ?? null)?.toLowerCase() === (order.tokenAddress ?? null)?.toLowerCase(),
  );
  const fiat = fiatOfOrder(order, own, order.decimals);
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
    formatAmount(money.arrived, order.decimals),
    formatAmount(money.counted, order.decimals),
    money.uncounted.map((u) => `${formatAmount(u.amount, u.decimals)} ${u.currency} ${notCountedLabels[u.reason]} (${u.txHash})`).join("; ") || null,
    money.reversed ? "yes" : "no",
    order.atRiskReason ? "yes" : "no",
    order.priceAmount,
    order.priceCurrency,
    fiat.shown?.fiatCurrency ?? null,
    fiat.counted,
    fiat.arrived,
    fiat.shown?.rate ?? null,
    fiat.shown?.basis ?? null,
    fiat.shown?.feeds || null,
    fiat.shown?.at ?? null,
  ];
}

/** The merchant's orders created in the range, read in keyset batches as they are consumed. */
async function* orderRows(db: DbOrTx, merchantId: number, range: ExportRange): AsyncGenerator<CsvValue[]> {
  let after: string[] | null = null;
  for (;;) {
    const rows = await exportOrdersBatch(db, merchantId, range, after, batchSize);
    const transfers = await transfersOfOrders(
      db,
      merchantId,
      rows.map((o) => o.id),
    );
    const byOrder = new Map<number, Transaction[]>();
    for (const t of transfers) byOrder.set(t.paymentOrderId!, [...(byOrder.get(t.paymentOrderId!) ?? []), t]);
    for (const order of rows) yield orderRow(order, byOrder.get(order.id) ?? []);
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.sortKey;
  }
}

/** The merchant's orders created in the range as a CSV stream, read in keyset batches as the client consumes it. */
export function ordersCsvStream(db: DbOrTx, merchantId: number, range: ExportRange): ReadableStream<Uint8Array> {
  return csvStream(csvColumns, orderRows(db, merchantId, range));
}
