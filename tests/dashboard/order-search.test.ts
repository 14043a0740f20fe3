/** The dashboard's order search (issue 29): order id, deposit address, nonce, and now what the merchant wrote on the order. */
import { beforeAll, describe, expect, test } from "vitest";
import { searchOrders } from "@/lib/orders/queries";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";

const database = setupTestDatabase();

let alice: TestMerchant;
let bob: TestMerchant;
beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  await createWallet(alice, { blockchain: 2 });
  await createWallet(bob, { blockchain: 2 });
});

const search = (merchant: TestMerchant, q: string) => searchOrders(database.db, merchant.id, { q }, { limit: 25, offset: 0 });

describe("order search", () => {
  test("a SKU or customer reference in order_info finds its order, case-insensitively, and only the merchant's own", async () => {
    const sku = await createOrder(alice, { amount: "5", currency: "USDC", blockchain: "base", order_info: '{"sku":"BOOK-4471","customer":"Ada"}' });
    await createOrder(alice, { amount: "6", currency: "USDC", blockchain: "base", order_info: '{"sku":"PEN-1"}' });
    await createOrder(bob, { amount: "7", currency: "USDC", blockchain: "base", order_info: '{"sku":"BOOK-4471"}' });

    const found = await search(alice, "book-4471");
    expect(found.rows.map((r) => r.orderId)).toEqual([sku.order_id]);
    expect(found.count).toBe(1);
    expect((await search(alice, "ada")).rows.map((r) => r.orderId)).toEqual([sku.order_id]);
    // LIKE's wildcards in the query match themselves only.
    expect((await search(alice, "%")).rows).toEqual([]);
  });
});
