/**
 * A signed decimal number written bare ("-12.50"): a bank-statement amount, which accounting
 * software reads as a number only without the apostrophe a text starting with "-" gets. Only a
 * plain decimal is accepted, so nothing a spreadsheet would run can pass as one.
 */
export class CsvDecimal {
  constructor(readonly text: string) {
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal number: ${text}`);
  }
}

/** A CSV field's value: text and numbers as written, null and undefined as an empty field. */
export type CsvValue = string | number | CsvDecimal | null | undefined;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled.
 * A text starting with = + - @ (or a tab / carriage return) would run as a formula in a
 * spreadsheet (CSV injection, OWASP), so it gets a leading apostrophe first.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof CsvDecimal) return value.text;
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, ended by CRLF (RFC 4180). */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvField).join(",") + "\r\n";
}

/** Rows written per chunk of the stream: the exports read their sources in batches of this size. */
export const csvRowsPerChunk = 500;

/**
 * A CSV download as a stream of UTF-8 bytes: the header line first, then the rows `rows` yields, up to
 * `rowsPerChunk` per chunk, read only as the client consumes the body (a source that reads its rows in
 * batches of the same size reads one batch per chunk). When the client goes away, `rows` is ended
 * (`return`), so the reads behind it stop.
 */
export function csvStream(columns: readonly string[], rows: AsyncGenerator<readonly CsvValue[]>, rowsPerChunk = csvRowsPerChunk): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvRow(columns)));
        return;
      }
      let chunk = "";
      for (let i = 0; i < rowsPerChunk; i++) {
        const next = await rows.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += csvRow(next.value);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
