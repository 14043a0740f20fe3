import { inflateSync } from "node:zlib";

/**
 * The text lines a pdfkit PDF draws with its standard fonts: each content stream inflated, each
 * `[<hex> kern <hex> …] TJ` array's hex runs decoded (WinAnsi, read as latin1) and joined.
 */
export function pdfTextLines(pdf: Buffer): string[] {
  const raw = pdf.toString("latin1");
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    const end = raw.indexOf("endstream", start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString("latin1");
    } catch {
      continue; // not a deflated content stream (fonts are standard: none are embedded)
    }
    for (const array of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?[\d.]+)*)\]\s*TJ/g)) {
      lines.push([...array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => Buffer.from(hex[1]!, "hex").toString("latin1")).join(""));
    }
  }
  return lines;
}
