/** The dashboard's order search (issue 29): order id, deposit address, nonce, and now what the merchant wrote on the order. */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { rowsOf } from "@/lib/db/map-row";
import { likePattern, searchOrders, textSearchExactCountBound, textSearchProbeRows, type OrderSearch } from "@/lib/orders/queries";
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
    const sku = await createOrder(alice, { amount: "5", currency: "USDC", blockchain: "base", order_info: '{"sku":"BOOK-4471","customer":"Lovelace"}' });
    await createOrder(alice, { amount: "6", currency: "USDC", blockchain: "base", order_info: '{"sku":"PEN-1"}' });
    await createOrder(bob, { amount: "7", currency: "USDC", blockchain: "base", order_info: '{"sku":"BOOK-4471"}' });

    const found = await search(alice, "book-4471");
    expect(found.rows.map((r) => r.orderId)).toEqual([sku.order_id]);
    expect(found.count).toBe(1);
    // Not a word that can occur in a random order id or a hex address ("ada" is hex: it matched an address one run in ~100).
    expect((await search(alice, "lovelace")).rows.map((r) => r.orderId)).toEqual([sku.order_id]);
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
    // A later page that holds every match (all of alice's rows were read) counts them exactly, and
    // never fewer than the matches already shown: the pager cannot end before the page it is on.
    const third = await searchOrders(database.db, alice.id, { q: "gift-7731" }, { limit: 25, offset: 50 });
    expect(third).toMatchObject({ count: 75, exact: true });
    expect(third.rows).toHaveLength(25);
    const fourth = await searchOrders(database.db, alice.id, { q: "gift-7731" }, { limit: 25, offset: 75 });
    expect(fourth).toMatchObject({ count: 75, exact: true, rows: [] });
    // Filters without text keep the list's bound: alice's orders counted exactly.
    const [all] = rowsOf(await database.db.execute(sql`select count(*)::int as n from payment_orders where merchant_id = ${alice.id}`));
    expect(await searchOrders(database.db, alice.id, {}, { limit: 25, offset: 0 })).toMatchObject({ count: Number(all!.n), exact: true });
  });

  test("past the probe's newest rows: common, sparse, old-only and rare text, an order id (whole, a prefix, lower case), an address (whole, a prefix) and a nonce return the rows and count a plain filter gives", async () => {
    const carol = await createMerchant();
    await createWallet(carol, { blockchain: 2 });
    const template = await createOrder(carol, { amount: "5", currency: "USDC", blockchain: "base", order_info: '{"sku":"SKU-0"}' });
    const copies = textSearchProbeRows + 600;
    // Copies one minute older each: SKU-7 on 2 % of them (the probe settles it), "sparse" on one in
    // 150 (too few among the newest rows: the trigram index answers), "vintage" only on rows older
    // than the probe reads, "rare gem" on a handful; statuses mixed.
    await database.db.execute(sql`
      insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at)
      select 'ORD-s' || t.id || 'x' || g, t.merchant_id, t.nonce + g, t.blockchain_id, t.currency, t.token_address, t.decimals, t.amount, 0,
        (array['confirmed', 'expired', 'pending'])[1 + g % 3],
        '0x' || md5('a' || t.id || '-' || g) || substr(md5('b' || g), 1, 8), t.deposit_destination, t.deposit_salt, t.deposit_factory,
        '{"sku":"SKU-' || (g % 50) || '","note":"' || case when g % 150 = 0 then 'sparse' when g > ${textSearchProbeRows + 100} then 'vintage' when g % 1000 = 1 then 'rare gem' else 'plain' end || '"}',
        t.confirmation_threshold, t.expires_at, t.created_at - make_interval(mins => g), t.created_at - make_interval(mins => g)
      from payment_orders t, generate_series(1, ${copies}) g where t.order_id = ${template.order_id}`);
    await database.db.execute(sql`analyze payment_orders`);
    const [sample] = rowsOf(
      await database.db.execute(sql`select order_id, receiving_address, nonce::text from payment_orders where order_id = ${`ORD-s${template.id}x1234`}`),
    );

    /** The search as a plain filter: every text condition as written, newest first, and the full count. */
    const plain = async (q: string, status: string | undefined, offset: number) => {
      const pattern = likePattern(q);
      const where = sql`merchant_id = ${carol.id} and (order_id ilike ${pattern} or receiving_address ilike ${pattern} or order_info ilike ${pattern}
        or item_name ilike ${pattern} ${/^\d{1,15}$/.test(q) ? sql`or nonce = ${Number(q)}` : sql``}) ${status ? sql`and status = ${status}` : sql``}`;
      const rows = rowsOf(
        await database.db.execute(sql`select id from payment_orders where ${where} order by created_at desc, id desc limit 25 offset ${offset}`),
      );
      const [total] = rowsOf(await database.db.execute(sql`select count(*)::int as n from payment_orders where ${where}`));
      return { ids: rows.map((r) => Number(r.id)), count: Number(total!.n) };
    };
    const cases: Array<[string, Omit<OrderSearch, "q">?, number?]> = [
      ["SKU-7"],
      ["sku-7", {}, 25],
      ["SKU-7", {}, 50],
      ["SKU-7", {}, 100], // deeper than the probe answers
      ["SKU-7", { status: "expired" }],
      ["sparse"],
      ["vintage"],
      ["rare gem"],
      [String(sample!.order_id)],
      [String(sample!.order_id).toLowerCase()],
      [`ORD-s${template.id}x12`], // the start of an id: x12, x120…, x1200…
      ["ORD-"],
      [String(sample!.receiving_address).toUpperCase()],
      [String(sample!.receiving_address).slice(0, 12)], // the start of an address
      ["0x1"], // the start of many: the probe first
      [String(sample!.nonce)],
      ["no such text"],
    ];
    for (const [q, filters = {}, offset = 0] of cases) {
      const expected = await plain(q, filters.status, offset);
      const found = await searchOrders(database.db, carol.id, { q, ...filters }, { limit: 25, offset });
      const label = `${q} ${JSON.stringify(filters)} offset ${offset}`;
      expect(
        found.rows.map((r) => r.id),
        label,
      ).toEqual(expected.ids);
      if (expected.count <= textSearchExactCountBound) expect(found, label).toMatchObject({ count: expected.count, exact: true });
      else {
        expect(found.exact, label).toBe(false);
        expect(found.count, label).toBeGreaterThan(textSearchExactCountBound);
      }
    }
    // The cases cover both ways of answering: the probe settles SKU-7, the trigram index "sparse" and "vintage".
    expect((await plain("sparse", undefined, 0)).count).toBeGreaterThan(0);
    expect((await plain("vintage", undefined, 0)).count).toBeGreaterThan(textSearchExactCountBound);
  });
});
