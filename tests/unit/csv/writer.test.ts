import { describe, expect, test } from "vitest";
import { CsvDecimal, csvField, csvRow, csvStream, type CsvValue } from "@/lib/csv/writer";

describe("csvField and csvRow (RFC 4180)", () => {
  test("quotes a field holding a comma, quote or line break, doubling its quotes; leaves the rest as it is", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(42)).toBe("42");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });

  test("a text a spreadsheet would run as a formula gets a leading apostrophe (CSV injection)", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvField(`${start}1`).replace(/^"/, "")).toMatch(/^'/);
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvField(-1)).toBe("'-1");
  });

  test("a signed decimal marked as one is written bare (a bank statement's amount); nothing else can pass as one", () => {
    expect(csvField(new CsvDecimal("-12.50"))).toBe("-12.50");
    expect(csvField(new CsvDecimal("3"))).toBe("3");
    for (const text of ["-1+1", "=1", "-", "1e5", " 1", "-1,5"]) expect(() => new CsvDecimal(text)).toThrow();
  });

  test("a row ends with CRLF", () => {
    expect(csvRow(["a", 1, null, "b,c"])).toBe('a,1,,"b,c"\r\n');
  });
});

async function* counted(n: number, pulled: { rows: number; ended: boolean }): AsyncGenerator<CsvValue[]> {
  try {
    for (let i = 1; i <= n; i++) {
      pulled.rows++;
      yield [i, `row ${i}`];
    }
  } finally {
    pulled.ended = true;
  }
}

describe("csvStream", () => {
  test("writes the header, then the rows in chunks, and reads rows only as the body is consumed", async () => {
    const pulled = { rows: 0, ended: false };
    const reader = csvStream(["n", "name"], counted(5, pulled), 2).getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    // The stream pulls one chunk ahead of its reader (the default high-water mark of one chunk).
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(decoder.decode(value));
      expect(pulled.rows).toBeLessThanOrEqual(2 * chunks.length);
    }
    expect(chunks).toEqual(["n,name\r\n", "1,row 1\r\n2,row 2\r\n", "3,row 3\r\n4,row 4\r\n", "5,row 5\r\n"]);
    expect(pulled).toEqual({ rows: 5, ended: true });
  });

  test("with no rows: the header alone", async () => {
    expect(await new Response(csvStream(["n"], counted(0, { rows: 0, ended: false }))).text()).toBe("n\r\n");
  });

  test("a client that goes away ends the rows' source: nothing more is read", async () => {
    const pulled = { rows: 0, ended: false };
    const reader = csvStream(["n", "name"], counted(1_000, pulled), 10).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(pulled.ended).toBe(true);
    expect(pulled.rows).toBeLessThan(1_000);
  });
});
