import { beforeAll, describe, expect, test } from "vitest";
import { GET as qr } from "@/app/pay/[orderId]/qr.svg/route";
import { qrSvg } from "@/lib/orders/qr-code";
import { getDb } from "@/lib/db/client";
import { paymentOrders } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { getPublicOrder } from "@/lib/orders/public-order";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";

setupTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2 });
});

/** The token contract of an order, as the pay page sees it. */
async function tokenOf(orderId: string): Promise<string> {
  const token = (await getPublicOrder(await getDb(), orderId))!.token.address;
  expect(token).toMatch(/^0x[0-9a-fA-F]{40}$/);
  return token!;
}

/** The public QR route takes no credential; it is called like the server would. */
async function getQr(orderId: string) {
  const response = await qr(new Request(`http://localhost:3000/pay/${orderId}/qr.svg`), { params: Promise.resolve({ orderId }) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("GET /pay/{order_id}/qr.svg", () => {
  test("serves an SVG, without a credential, at the order's qr_code_url; never cached (the amount due changes)", async () => {
    const order = await createOrder(merchant);
    expect(order.qr_code_url).toBe(`/pay/${order.order_id}/qr.svg`);
    const res = await getQr(order.order_id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/);
    expect(res.text).toMatch(/<path [^>]*d="M[^"]+"/);
    expect(res.text.trim()).toMatch(/<\/svg>$/);
    expect(res.text).not.toMatch(/<script/i);
  });

  test("a token order encodes the token's transfer to the deposit address, with the amount in base units", async () => {
    const order = await createOrder(merchant, { currency: "USDC", amount: "12.5" });
    const res = await getQr(order.order_id);
    // QR generation is deterministic: the same text gives the same SVG.
    expect(res.text).toBe(await qrSvg(`ethereum:${await tokenOf(order.order_id)}@31337/transfer?address=${order.receiving_address}&uint256=12500000`));
  });

  test("after a partial payment the code asks for the remainder; a settled order has no code", async () => {
    const order = await createOrder(merchant, { currency: "USDC", amount: "20" });
    const db = await getDb();
    await db.update(paymentOrders).set({ amountReceived: "5000000" }).where(eq(paymentOrders.orderId, order.order_id));
    expect((await getQr(order.order_id)).text).toBe(
      await qrSvg(`ethereum:${await tokenOf(order.order_id)}@31337/transfer?address=${order.receiving_address}&uint256=15000000`),
    );
    for (const status of ["confirmed", "expired", "failed"] as const) {
      await db.update(paymentOrders).set({ status }).where(eq(paymentOrders.orderId, order.order_id));
      const res = await getQr(order.order_id);
      expect(res.status, status).toBe(404);
      expect(res.text, status).not.toMatch(/<svg/);
    }
  });

  test("a native-coin order encodes the amount in wei as an integer", async () => {
    const order = await createOrder(merchant, { currency: "ETH", amount: "0.25" });
    const res = await getQr(order.order_id);
    expect(res.text).toBe(await qrSvg(`ethereum:${order.receiving_address}@31337?value=250000000000000000`));
    expect(res.text).not.toBe(await qrSvg(`ethereum:${order.receiving_address}@31337`));
  });

  test("unknown orders and numeric ids are a plain 404", async () => {
    const order = await createOrder(merchant);
    for (const key of ["ORD-unknown000000000", String(order.id), "nothing", "ORD-"]) {
      const res = await getQr(key);
      expect(res.status, key).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});
