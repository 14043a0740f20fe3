import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { rowsOf } from "@/lib/db/map-row";
import { paymentOrders, type NewPaymentOrder, type PaymentOrder } from "@/lib/db/schema";
import { createOrder as createOrderUseCase } from "@/lib/orders/create-order";
import { foldAllOrderDayTotals, foldOrderDayTotals, transitionOrder } from "@/lib/orders/queries";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../helpers/factories";

const { loadOverview } = await import("@/lib/dashboard/overview");

/**
 * The overview's per-day totals (issue 31) are kept by triggers on payment_orders in the writing
 * transaction: after every kind of change (creation, confirmation, expiry, failure, a method
 * switch's chain and amount, a delete, a rolled-back transaction) the totals plus the changes not
 * yet folded equal a recount of the orders, before and after folding, on both databases.
 */
const database = setupTestDatabase();
const now = new Date("2025-06-30T12:00:00Z");
let alice: TestMerchant;
let bob: TestMerchant;
let nonce = 1;

type Totals = Record<string, { orders: number; amount: string; price: string }>;

/** The orders themselves, grouped as the totals key them. */
async function recount(merchantId: number): Promise<Totals> {
  const rows = rowsOf(
    await database.db.execute(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') || '|' || blockchain_id || '|' || currency || '|' || decimals || '|' || status || '|' || coalesce(price_currency, '') as key,
        count(*)::int as orders, sum(amount)::text as amount, coalesce(sum(price_amount::numeric), 0)::text as price
      from payment_orders where merchant_id = ${merchantId} group by 1`),
  );
  return Object.fromEntries(rows.map((r) => [String(r.key), { orders: Number(r.orders), amount: String(r.amount), price: String(Number(r.price)) }]));
}

/** The folded totals plus the pending changes, keys netting to zero left out. */
async function kept(merchantId: number): Promise<Totals> {
  const rows = rowsOf(
    await database.db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') || '|' || blockchain_id || '|' || currency || '|' || decimals || '|' || status || '|' || price_currency as key,
        sum(orders)::int as orders, sum(amount)::text as amount, sum(price_amount)::text as price
      from (select day, blockchain_id, currency, decimals, status, price_currency, orders, amount, price_amount from order_day_totals where merchant_id = ${merchantId}
            union all
            select day, blockchain_id, currency, decimals, status, price_currency, orders, amount, price_amount from order_day_total_changes where merchant_id = ${merchantId}) t
      group by 1 having sum(orders) <> 0`),
  );
  return Object.fromEntries(rows.map((r) => [String(r.key), { orders: Number(r.orders), amount: String(r.amount), price: String(Number(r.price)) }]));
}

async function pendingChanges(merchantId: number): Promise<number> {
  const [row] = rowsOf(await database.db.execute(sql`select count(*)::int as n from order_day_total_changes where merchant_id = ${merchantId}`));
  return Number(row!.n);
}

async function expectExact(merchantId: number) {
  const orders = await recount(merchantId);
  expect(Object.keys(orders).length).toBeGreaterThan(0);
  expect(await kept(merchantId)).toEqual(orders);
}

/** An order made by the gateway's own creation at `createdAt`; with a price, a fiat-priced copy of it too (the copy is returned). */
async function order(merchant: TestMerchant, createdAt: string, price: [string, string] | null = null): Promise<PaymentOrder> {
  const made = await createOrderUseCase(
    database.db,
    merchant.id,
    { amount: "1.5", currency: "USDC", blockchain: "base", order_info: "{}", nonce: nonce++ },
    { now: new Date(createdAt) },
  );
  if (!price) return (await database.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, made.orderId)))[0]!;
  const row: NewPaymentOrder = {
    ...made,
    id: undefined,
    orderId: `${made.orderId}P`,
    nonce: nonce++,
    priceAmount: price[0],
    priceCurrency: price[1],
    rate: "1",
    createdAt: new Date(createdAt),
  };
  const [inserted] = await database.db.insert(paymentOrders).values(row).returning();
  return inserted!;
}

beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  await createWallet(alice);
  await createWallet(bob);
});

describe("per-day totals stay exact", () => {
  test("after creation, confirmation, expiry, failure, a method switch, a delete and a rolled-back transaction: totals + changes = a recount, before and after folding", async () => {
    const a = await order(alice, "2025-06-29T10:00:00Z", ["19.90", "USD"]);
    const b = await order(alice, "2025-06-29T23:59:59Z", ["5", "EUR"]);
    const c = await order(alice, "2025-06-30T00:00:00Z");
    const d = await order(alice, "2025-06-30T08:00:00Z", ["1000", "JPY"]);
    const e = await order(alice, "2025-05-20T08:00:00Z", ["7.00", "USD"]);
    await order(bob, "2025-06-29T10:00:00Z", ["777.00", "USD"]);
    await expectExact(alice.id);
    expect(await pendingChanges(alice.id)).toBeGreaterThan(0);

    // The engine's transitions.
    expect(await transitionOrder(database.db, a.id, "pending", { status: "processing", updatedAt: now })).not.toBeNull();
    expect(await transitionOrder(database.db, a.id, "processing", { status: "confirmed", confirmedAt: now, updatedAt: now })).not.toBeNull();
    expect(await transitionOrder(database.db, b.id, "pending", { status: "expired", updatedAt: now })).not.toBeNull();
    expect(await transitionOrder(database.db, c.id, "pending", { status: "failed", failureReason: "underpaid", updatedAt: now })).not.toBeNull();
    expect(await transitionOrder(database.db, e.id, "pending", { status: "confirmed", confirmedAt: now, updatedAt: now })).not.toBeNull();
    await expectExact(alice.id);

    // What changes no total leaves no change behind.
    const before = await pendingChanges(alice.id);
    await database.db.update(paymentOrders).set({ updatedAt: now, amountReceived: "1" }).where(eq(paymentOrders.merchantId, alice.id));
    expect(await pendingChanges(alice.id)).toBe(before);

    // Folding moves the changes into the totals, exactly; then more changes on top of folded rows.
    expect(await foldOrderDayTotals(database.db, alice.id)).toBe(before);
    expect(await pendingChanges(alice.id)).toBe(0);
    await expectExact(alice.id);
    await database.db
      .update(paymentOrders)
      .set({ blockchainId: 1, currency: "ETH", decimals: 18, amount: "2000000000000000" })
      .where(eq(paymentOrders.id, d.id));
    await database.db.delete(paymentOrders).where(eq(paymentOrders.id, c.id));
    await expectExact(alice.id);

    // A transaction that rolls back leaves neither orders nor changes.
    const changes = await pendingChanges(alice.id);
    await expect(
      database.db.transaction(async (tx) => {
        await transitionOrder(tx, d.id, "pending", { status: "confirmed", confirmedAt: now, updatedAt: now });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await pendingChanges(alice.id)).toBe(changes);
    await expectExact(alice.id);

    // The fold-totals task's fold takes every merchant's changes, in batches.
    expect(await foldAllOrderDayTotals(database.db, { limit: 2 })).toBeGreaterThan(0);
    expect(await pendingChanges(alice.id)).toBe(0);
    expect(await pendingChanges(bob.id)).toBe(0);
    await expectExact(alice.id);
    await expectExact(bob.id);
  });

  test("the overview shows what a recount of the orders gives: counts by status per token, confirmed volume, fiat totals", async () => {
    const carol = await createMerchant();
    await createWallet(carol);
    const paid = await order(carol, "2025-06-20T10:00:00Z", ["10.00", "USD"]);
    await order(carol, "2025-06-21T10:00:00Z");
    await order(carol, "2025-05-25T10:00:00Z", ["4.00", "USD"]).then((o) =>
      transitionOrder(database.db, o.id, "pending", { status: "confirmed", updatedAt: now }),
    );
    await transitionOrder(database.db, paid.id, "pending", { status: "confirmed", confirmedAt: now, updatedAt: now });
    for (const fold of [false, true]) {
      if (fold) await foldOrderDayTotals(database.db, carol.id);
      const overview = await loadOverview(database.db, carol.id, now);
      expect(overview.tokens).toHaveLength(1);
      // The paid copy confirmed; its template and the 21st's order pending (the May ones are before the 30 days).
      expect(overview.tokens[0]!.countsByStatus).toMatchObject({ confirmed: 1, pending: 2, expired: 0 });
      expect(overview.tokens[0]!.totalOrders).toBe(3);
      expect(overview.tokens[0]!.confirmedVolume).toBe("1.5");
      expect(overview.tokens[0]!.days.find((d) => d.day === "2025-06-20")).toMatchObject({ orders: 2, confirmedVolume: "1.5" });
      expect(overview.fiat.totals).toEqual([{ currency: "USD", total: "10.00", previousTotal: "4.00", orders: 1, changePercent: 150 }]);
    }
  });
});
