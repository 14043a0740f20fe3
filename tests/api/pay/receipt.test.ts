import { describe, expect, test } from "vitest";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as postLinkOrder } from "@/app/api/links/[linkId]/orders/route";
import { POST as postLink } from "@/app/api/payment-links/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { explorerTransactionUrl, getReceipt } from "@/lib/orders/receipt";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

/** Pays the order on the devnet and mines until the scanner confirms it (threshold 2). */
async function payAndConfirm(merchant: TestMerchant, orderId: string) {
  expect((await call(sandboxPay, "POST", "/", { token: merchant.access, params: { orderId }, body: {} })).status).toBe(201);
  const tick = () => watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")));
  await tick();
  expect((await call(sandboxMine, "POST", "/", { token: merchant.access, body: { blocks: 1 } })).status).toBe(200);
  await tick();
}

async function linkOrder(merchant: TestMerchant, quantity: number) {
  const link = await call(postLink, "POST", "/api/payment-links/", {
    token: merchant.access,
    body: { title: "Conference ticket", price_amount: "49.00", price_currency: "EUR", options: [{ blockchain: "base", currency: "USDC" }], max_quantity: 5 },
  });
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const linkId = link.body.data.id;
  const order = await call(postLinkOrder, "POST", `/api/links/${linkId}/orders/`, {
    params: { linkId },
    body: { blockchain: "base", currency: "USDC", quantity },
    ip: "203.0.113.40",
  });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  return order.body.data.order_id as string;
}

describe("receipt of a confirmed order (issue 27)", () => {
  test("a link's fiat-priced order: shop, item × quantity, price, locked rate, amount, method, transaction, time; the pay view names the item too", async () => {
    const m = await createMerchant({ shop_name: "Harbour Conf" });
    await createWallet(m, { blockchain: 2, confirmation_threshold: 2 });
    const orderId = await linkOrder(m, 2);

    const pending = await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
    expect(pending.body.data.item).toEqual({ name: "Conference ticket", quantity: 2 });
    // Not confirmed yet: no receipt.
    expect(await getReceipt(testDb.db, orderId)).toBeNull();

    await payAndConfirm(m, orderId);
    const paid = (await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } })).body.data;
    expect(paid.status).toBe("confirmed");

    const receipt = await getReceipt(testDb.db, orderId);
    expect(receipt).toEqual({
      order_id: orderId,
      shop_name: "Harbour Conf",
      item: { name: "Conference ticket", quantity: 2 },
      amount: paid.amount,
      currency: "USDC",
      price: { amount: "98.00", currency: "EUR", rate: paid.rate },
      method: { blockchain: net.chain("base").name, token: "USDC" },
      transaction_hash: paid.transaction_hash,
      // The devnet has no block explorer.
      transaction_url: null,
      paid_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      sandbox: expect.any(Boolean),
    });
    expect(receipt!.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(paid.rate).toMatch(/^\d+(\.\d+)?$/);
    expect(Date.now() - Date.parse(receipt!.paid_at)).toBeLessThan(10 * 60_000);
  });

  test("an API order priced in tokens has no item and no fiat price; its order_info never shows", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2, confirmation_threshold: 2 });
    const order = await createOrder(m, { amount: "3.5", currency: "USDC", order_info: '{"customer_email":"secret@example.com"}' });
    await payAndConfirm(m, order.order_id);
    const receipt = await getReceipt(testDb.db, order.order_id);
    expect(receipt).toMatchObject({ item: null, price: null, amount: "3.5", currency: "USDC" });
    expect(JSON.stringify(receipt)).not.toContain("secret@example.com");
  });

  test("unknown, malformed and numeric ids have none", async () => {
    for (const id of ["ORD-doesnotexist", "1", "", "../etc", "ORD-%00"]) expect(await getReceipt(testDb.db, id), id).toBeNull();
  });
});

describe("the receipt's explorer link", () => {
  test("on a network with an explorer it points at the transaction; the devnet has none", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(explorerTransactionUrl({ isDevnet: false, explorerUrl: "https://basescan.org/" }, hash)).toBe(`https://basescan.org/tx/${hash}`);
    expect(explorerTransactionUrl({ isDevnet: false, explorerUrl: "https://optimistic.etherscan.io" }, hash)).toBe(
      `https://optimistic.etherscan.io/tx/${hash}`,
    );
    expect(explorerTransactionUrl({ isDevnet: true, explorerUrl: "https://etherscan.io" }, hash)).toBeNull();
    expect(explorerTransactionUrl({ isDevnet: false, explorerUrl: null }, hash)).toBeNull();
  });
});
