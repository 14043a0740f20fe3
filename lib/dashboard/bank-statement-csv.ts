import "server-only";
import { z } from "zod";
import { CsvDecimal, csvStream, type CsvValue } from "@/lib/csv/writer";
import type { DbOrTx } from "@/lib/db/types";
import { fiatCurrencies } from "@/lib/pricing/convert";
import { movements, type Movement } from "./movements-csv";
import type { ExportRange } from "./orders-csv";

/**
 * The "bank statement" layout of the accounting export (docs/design/data-and-counts.md › Exports):
 * the four columns accounting software imports a bank statement from (Xero, QuickBooks, Sage,
 * FreeAgent, Lexoffice map them by name), one currency per file. Amounts are signed: money in +,
 * refunds and network fees −; a sweep moves money between the merchant's own addresses and books
 * only its gas.
 */
export const bankStatementColumns = ["Date", "Description", "Amount", "Reference"] as const;

export const bankStatementQuery = z.object({
  currency: z.enum(Object.keys(fiatCurrencies) as [keyof typeof fiatCurrencies, ...Array<keyof typeof fiatCurrencies>]).default("USD"),
});

const negate = (amount: string) => (/^0(\.0+)?$/.test(amount) ? amount : `-${amount}`);
const reasonText = (counted: boolean | null) => (counted === false ? " (did not count toward the order: late or another asset)" : "");

/** The statement lines of one movement in `currency`: its money, and its network fee as a line of its own. */
function statementLines(movement: Movement, currency: string): CsvValue[][] {
  const { entry } = movement;
  const date = movement.at.toISOString().slice(0, 10);
  const payout = entry.payout;
  // A payout leg that failed moved nothing: the statement books only legs that were paid.
  if (payout && !payout.paid) return [];
  const reference = entry.orderId ?? entry.subscription?.id ?? payout?.reference ?? (payout ? `payout ${payout.batchId}` : entry.txHash);
  const charge = entry.subscription;
  const what = `${entry.amount ?? ""} ${entry.currency}`.trim();
  const lines: CsvValue[][] = [];
  if (entry.fiatAmount && entry.fiatCurrency === currency && movement.type !== "sweep") {
    const description =
      movement.type === "payment" && charge
        ? `Subscription charge ${what} for ${charge.id} (period ${charge.period + 1}), tx ${entry.txHash}`
        : movement.type === "payment"
          ? `Payment ${what} for ${entry.orderId ?? "no order"}${reasonText(entry.counted)}, tx ${entry.txHash}`
          : payout
            ? `Payout ${what} to ${payout.toAddress} (batch ${payout.batchId}, leg ${payout.leg}${payout.reference ? `, ${payout.reference}` : ""}), tx ${entry.txHash}`
            : `Refund ${what} for ${entry.orderId}, tx ${entry.txHash}`;
    lines.push([date, description, new CsvDecimal(movement.type === "payment" ? entry.fiatAmount : negate(entry.fiatAmount)), reference]);
  }
  if (entry.gasFiatAmount && entry.gasFiatCurrency === currency) {
    const description =
      movement.type === "sweep"
        ? `Network fee: sweep of ${entry.orderId} to your wallet, tx ${entry.txHash}`
        : charge
          ? `Network fee: subscription charge of ${charge.id} sent by the gateway, tx ${entry.txHash}`
          : `Network fee: gasless payment relayed for ${entry.orderId}, tx ${entry.txHash}`;
    lines.push([date, description, new CsvDecimal(negate(entry.gasFiatAmount)), reference]);
  }
  return lines;
}

async function* statementRows(db: DbOrTx, merchantId: number, range: ExportRange, currency: string): AsyncGenerator<CsvValue[]> {
  for await (const movement of movements(db, merchantId, range)) yield* statementLines(movement, currency);
}

/** The merchant's movements in the range as a bank statement in one fiat currency, streamed like the full export. */
export function bankStatementCsvStream(db: DbOrTx, merchantId: number, range: ExportRange, currency: string): ReadableStream<Uint8Array> {
  return csvStream(bankStatementColumns, statementRows(db, merchantId, range, currency));
}
