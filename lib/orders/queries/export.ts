import { sql, type SQLWrapper } from "drizzle-orm";
import { paymentOrders } from "@/lib/db/schema";
import { rowsOf } from "@/lib/db/map-row";
import { afterCursor, sortKeyText } from "@/lib/db/list-window";
import type { DbOrTx } from "@/lib/db/types";
import { sortKeys } from "./list";

/** An order as the CSV export writes it: only its columns, timestamps already as ISO 8601 UTC text. */
export interface ExportOrderRow {
  orderId: string;
  createdAt: string;
  status: string;
  failureReason: string | null;
  blockchainId: number;
  currency: string;
  amount: string;
  amountReceived: string;
  decimals: number;
  nonce: string;
  receivingAddress: string;
  expiresAt: string;
  confirmedAt: string | null;
  orderInfo: string;
  id: number;
  tokenAddress: string | null;
  atRiskReason: string | null;
  priceAmount: string | null;
  priceCurrency: string | null;
  rate: string | null;
  /** The rate's feed answers as JSON text (lib/pricing/lock-price.ts RateSource[]). */
  rateSource: string | null;
  /** The keyset cursor after this row (created_at and id as the database's text, so microseconds survive). */
  sortKey: string[];
}

/** A timestamptz as JavaScript's `toISOString()` writes it (UTC, milliseconds, `Z`). */
const isoText = (column: SQLWrapper) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One batch of the CSV export, oldest first, after the keyset cursor: one range of the (merchant,
 * created_at, id) index per batch, so batches stay cheap however deep the export goes, and rows
 * created meanwhile cannot shift it. Only the exported columns are read, as text, through a raw
 * statement: mapping all of an order's ~40 columns through drizzle's row mapper (and parsing four
 * timestamps into Dates) took most of an export's time (issue 31: 45% of CPU in drizzle, 18% GC).
 */
export async function exportOrdersBatch(
  db: DbOrTx,
  merchantId: number,
  range: { from: Date; to: Date },
  after: string[] | null,
  limit: number,
): Promise<ExportOrderRow[]> {
  const keys = sortKeys.created_at;
  const o = paymentOrders;
  // After a cursor, the cursor alone is the lower bound: beside `created_at >= from` the index
  // scan would start at `from` and read every row already exported (each batch slower).
  const lowerBound = after ? afterCursor(keys, { ordering: "created_at", key: after }, false) : sql`${o.createdAt} >= ${range.from.toISOString()}::timestamptz`;
  const result = await db.execute(sql`select ${o.orderId} as "orderId", ${isoText(o.createdAt)} as "createdAt", ${o.status} as "status",
      ${o.failureReason} as "failureReason", ${o.blockchainId} as "blockchainId", ${o.currency} as "currency",
      ${o.amount}::text as "amount", ${o.amountReceived}::text as "amountReceived", ${o.decimals} as "decimals",
      ${o.nonce}::text as "nonce", ${o.receivingAddress} as "receivingAddress", ${isoText(o.expiresAt)} as "expiresAt",
      ${isoText(o.confirmedAt)} as "confirmedAt", ${o.orderInfo} as "orderInfo", ${o.id} as "id", ${o.tokenAddress} as "tokenAddress",
      ${o.atRiskReason} as "atRiskReason", ${o.priceAmount} as "priceAmount", ${o.priceCurrency} as "priceCurrency", ${o.rate} as "rate",
      ${o.rateSource}::text as "rateSource", ${sortKeyText(keys)} as "sortKey"
    from ${o}
    where ${o.merchantId} = ${merchantId} and ${lowerBound} and ${o.createdAt} < ${range.to.toISOString()}::timestamptz
    order by ${o.createdAt}, ${o.id}
    limit ${limit}`);
  return rowsOf(result) as unknown as ExportOrderRow[];
}
