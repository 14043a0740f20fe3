import { parse } from "csv-parse/sync";

/** A CSV body as a spreadsheet reads it back (RFC 4180: quotes, doubled quotes, CRLF), row by row. */
export function parseCsv(text: string): string[][] {
  return parse(text, { relax_column_count: false }) as string[][];
}

/** A CSV body as its header and one object per row, keyed by the header. */
export function csvObjects(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rows] = parseCsv(text);
  return { header, rows: rows.map((row) => Object.fromEntries(row.map((value, i) => [header[i]!, value]))) };
}
