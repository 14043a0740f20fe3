import { beforeAll, describe, expect, test } from "vitest";
import { paymentOrders, type NewPaymentOrder } from "@/lib/db/schema";
import { createOrder as createOrderUseCase } from "@/lib/orders/create-order";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../helpers/factories";
import { signInAs } from "./session";
import { parseCsv } from "../helpers/csv";

const { GET: exportOrders, POST: postExport } = await import("@/app/(dashboard)/dashboard/orders/export/route");
const { csvField } = await import("@/lib/csv/writer");

const database = setupTestDatabase();

async function download(query: Record<string, string>) {
  const url = new URL("http://localhost:3000/dashboard/orders/export");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await exportOrders(new Request(url), undefined);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

let alice: TestMerchant;
let bob: TestMerchant;
let nonce = 1;

async function orderAt(merchant: TestMerchant, createdAt: string, orderInfo = '{"sku":"A1"}') {
  return createOrderUseCase(
    database.db,
    merchant.id,
    { amount: "12.5", currency: "USDC", blockchain: "base", order_info: orderInfo, nonce: nonce++ },
    { now: new Date(createdAt) },
  );
}

beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  await createWallet(alice);
  await createWallet(bob);
});

describe("GET /dashboard/orders/export", () => {
  test("without a session: 401, no data", async () => {
    signInAs(null);
    const res = await download({ from: "2024-01-01", to: "2024-01-31" });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain("ORD-");
    expect(JSON.parse(res.text)).toEqual({
      success: false,
      error: { code: "INVALID_TOKEN", message: "Sign in to export orders." },
      timestamp: expect.any(String),
    });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the range is whole UTC days, both ends included, and only the merchant's own orders", async () => {
    const before = await orderAt(alice, "2024-01-09T23:59:59.999Z");
    const first = await orderAt(alice, "2024-01-10T00:00:00.000Z");
    const last = await orderAt(alice, "2024-01-12T23:59:59.999Z");
    const after = await orderAt(alice, "2024-01-13T00:00:00.000Z");
    const bobs = await orderAt(bob, "2024-01-11T12:00:00.000Z");

    signInAs(alice);
    const res = await download({ from: "2024-01-10", to: "2024-01-12" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="orders-2024-01-10-to-2024-01-12.csv"');
    const rows = parseCsv(res.text);
    expect(rows[0]![0]).toBe("order_id");
    const ids = rows.slice(1).map((r) => r[0]);
    expect(ids).toEqual([first.orderId, last.orderId]);
    expect(ids).not.toContain(before.orderId);
    expect(ids).not.toContain(after.orderId);
    expect(res.text).not.toContain(bobs.orderId);
    const header = rows[0]!;
    const row = Object.fromEntries(header.map((h, i) => [h, rows[1]![i]]));
    expect(row).toMatchObject({
      status: "pending",
      blockchain: "base",
      currency: "USDC",
      amount: "12.5",
      amount_received: "0",
      created_at: "2024-01-10T00:00:00.000Z",
    });

    signInAs(bob);
    const theirs = parseCsv((await download({ from: "2024-01-10", to: "2024-01-12" })).text);
    expect(theirs.slice(1).map((r) => r[0])).toEqual([bobs.orderId]);
  });

  test("quotes, commas and line breaks survive; cells that would run as formulas are neutralised", async () => {
    const tricky = '{"note":"a, \\"quoted\\"\\nline"}';
    const a = await orderAt(alice, "2023-05-01T10:00:00Z", tricky);
    const b = await orderAt(alice, "2023-05-01T11:00:00Z", "-1");
    signInAs(alice);
    const res = await download({ from: "2023-05-01", to: "2023-05-01" });
    const rows = parseCsv(res.text);
    const info = rows[0]!.indexOf("order_info");
    expect(rows.find((r) => r[0] === a.orderId)![info]).toBe(tricky);
    expect(rows.find((r) => r[0] === b.orderId)![info]).toBe("'-1");
    expect(rows.every((r) => r.length === rows[0]!.length)).toBe(true);

    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tx")).toBe("'\tx");
    expect(csvField("plain")).toBe("plain");
    expect(csvField(null)).toBe("");
  });

  test("bad ranges are 400 VALIDATION_ERROR naming the field", async () => {
    signInAs(alice);
    const missing = await download({ from: "2024-01-01" });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).error.details).toHaveProperty("to");
    const malformed = await download({ from: "01/02/2024", to: "2024-02-01" });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text).error).toMatchObject({ code: "VALIDATION_ERROR", details: { from: [expect.any(String)] } });
    const backwards = await download({ from: "2024-02-02", to: "2024-02-01" });
    expect(backwards.status).toBe(400);
    expect(JSON.parse(backwards.text).error.details).toHaveProperty("to");
    const tooLong = await download({ from: "2022-01-01", to: "2024-01-01" });
    expect(tooLong.status).toBe(400);
    const impossible = await download({ from: "2024-02-31", to: "2024-03-01" });
    expect(impossible.status).toBe(400);
  });

  test("streams every row across batches, ties on created_at included, each exactly once", async () => {
    const template = await orderAt(alice, "2022-03-01T00:00:00Z");
    const same = new Date("2022-03-01T06:00:00Z");
    const rows: NewPaymentOrder[] = Array.from({ length: 1203 }, (_, i) => {
      const rest: NewPaymentOrder = { ...template, id: undefined };
      return { ...rest, orderId: `ORD-BULK${String(i).padStart(8, "0")}`, nonce: 1_000_000 + i, createdAt: same, updatedAt: same };
    });
    for (let i = 0; i < rows.length; i += 400) await database.db.insert(paymentOrders).values(rows.slice(i, i + 400));
    signInAs(alice);
    const res = await download({ from: "2022-03-01", to: "2022-03-01" });
    const ids = parseCsv(res.text)
      .slice(1)
      .map((r) => r[0]);
    expect(ids.length).toBe(1204);
    expect(new Set(ids).size).toBe(1204);
  });
});

describe("other methods", () => {
  test("POST /dashboard/orders/export is 405 METHOD_NOT_ALLOWED in the error envelope, with Allow", async () => {
    const response = await postExport(new Request("http://localhost:3000/dashboard/orders/export", { method: "POST" }), undefined);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await response.json()).error.code).toBe("METHOD_NOT_ALLOWED");
  });
});
