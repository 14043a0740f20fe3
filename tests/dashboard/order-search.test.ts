/** The dashboard's order search (issue 29): order id, deposit address, nonce, and now what the merchant wrote on the order. */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { rowsOf } from "@/lib/db/map-row";
import { searchOrders, textSearchExactCountBound } from "@/lib/orders/queries";
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

  test(`a text search counts its matches exactly up to ${textSearchExactCountBound}, then says "about" (an estimate); the page is the newest matches either way`, async () => {
    const template = await createOrder(alice, { amount: "5", currency: "USDC", blockchain: "base", order_info: '{"sku":"GIFT-7731"}' });
    // Copies of the order, one minute older each: the template and `copies` more match.
    const copy = (from: number, copies: number) =>
      database.db.execute(sql`
        insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
          receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at)
        select t.order_id || 'c' || g, t.merchant_id, t.nonce + 1000 + g, t.blockchain_id, t.currency, t.token_address, t.decimals, t.amount, 0, t.status,
          t.receiving_address || 'c' || g, t.deposit_destination, t.deposit_salt, t.deposit_factory, t.order_info, t.confirmation_threshold,
          t.expires_at, t.created_at - make_interval(mins => g), t.created_at - make_interval(mins => g)
        from payment_orders t, generate_series(${from}::int, ${from + copies - 1}::int) g where t.order_id = ${template.order_id}`);
    await copy(1, textSearchExactCountBound - 1);
    const atBound = await search(alice, "gift-7731");
    expect(atBound).toMatchObject({ count: textSearchExactCountBound, exact: true });
    expect(atBound.rows[0]!.orderId).toBe(template.order_id);
    expect(atBound.rows).toHaveLength(25);

    await copy(textSearchExactCountBound, 50);
    await database.db.execute(sql`analyze payment_orders`);
    const beyond = await search(alice, "gift-7731");
    expect(beyond.exact).toBe(false);
    expect(beyond.count).toBeGreaterThan(textSearchExactCountBound);
    expect(beyond.rows.map((r) => r.orderId)).toEqual(atBound.rows.map((r) => r.orderId));
    // Filters without text keep the list's bound: alice's orders counted exactly.
    const [all] = rowsOf(await database.db.execute(sql`select count(*)::int as n from payment_orders where merchant_id = ${alice.id}`));
    expect(await searchOrders(database.db, alice.id, {}, { limit: 25, offset: 0 })).toMatchObject({ count: Number(all!.n), exact: true });
  });
});
