/**
 * Invoice arithmetic on decimal strings, exact (bigint scaled to the currency's places, rounded half
 * up once per line): line = quantity × unit price, each tax = subtotal × rate %, total = subtotal + taxes.
 */
import type { InvoiceLineItem, InvoiceTaxLine } from "@/lib/db/schema/invoices";

function split(value: string): { digits: bigint; scale: number } {
  const [whole = "0", fraction = ""] = value.split(".");
  return { digits: BigInt(whole + fraction), scale: fraction.length };
}

/** `digits / 10^scale` rounded half up to `places` decimals, as base units of 10^-places. */
function rescale(digits: bigint, scale: number, places: number): bigint {
  if (scale <= places) return digits * 10n ** BigInt(places - scale);
  const divisor = 10n ** BigInt(scale - places);
  return (digits + divisor / 2n) / divisor;
}

/** A decimal string → units of 10^-places, rounded half up. */
export function toUnits(value: string, places: number): bigint {
  const { digits, scale } = split(value);
  return rescale(digits, scale, places);
}

/** Units of 10^-places → a decimal string with exactly `places` decimals ("12.50"). */
export function fromUnits(units: bigint, places: number): string {
  const text = units.toString().padStart(places + 1, "0");
  return places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
}

export interface InvoiceTotals {
  lines: bigint[];
  taxes: bigint[];
  subtotal: bigint;
  taxTotal: bigint;
  total: bigint;
}

export function invoiceTotals(items: InvoiceLineItem[], taxes: InvoiceTaxLine[], places: number): InvoiceTotals {
  const lines = items.map((item) => {
    const q = split(item.quantity);
    const p = split(item.unit_price);
    return rescale(q.digits * p.digits, q.scale + p.scale, places);
  });
  const subtotal = lines.reduce((sum, line) => sum + line, 0n);
  const taxAmounts = taxes.map((tax) => {
    const rate = split(tax.rate);
    return rescale(subtotal * rate.digits, places + rate.scale + 2, places);
  });
  const taxTotal = taxAmounts.reduce((sum, t) => sum + t, 0n);
  return { lines, taxes: taxAmounts, subtotal, taxTotal, total: subtotal + taxTotal };
}
