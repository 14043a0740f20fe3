import { beforeAll, describe, expect, test } from "vitest";
import { paymentOrders, type NewPaymentOrder } from "@/lib/db/schema";
import { createOrder as createOrderUseCase } from "@/lib/orders/create-order";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../helpers/factories";

const { fiatOverview, loadOverview } = await import("@/lib/dashboard/overview");

const database = setupTestDatabase();
const now = new Date("2025-06-30T12:00:00Z");
let alice: TestMerchant;
let bob: TestMerchant;
let nonce = 1;

/** An order as the merchant would have it, with the given price, status and creation time. */
async function order(merchant: TestMerchant, createdAt: string, status: string, price: [string, string] | null) {
  const template = await createOrderUseCase(
    database.db,
    merchant.id,
    { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce: nonce++ },
    { now: new Date(createdAt) },
  );
  const row: NewPaymentOrder = {
    ...template,
    id: undefined,
    orderId: `${template.orderId}X`,
    nonce: nonce++,
    status,
    priceAmount: price?.[0] ?? null,
    priceCurrency: price?.[1] ?? null,
    rate: price ? "1" : null,
    createdAt: new Date(createdAt),
  };
  await database.db.insert(paymentOrders).values(row);
}

beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  await createWallet(alice);
  await createWallet(bob);
  // The last 30 days are 2025-06-01 … 2025-06-30; the 30 before, 2025-05-02 … 2025-05-31.
  await order(alice, "2025-06-01T00:00:00Z", "confirmed", ["10.00", "USD"]);
  await order(alice, "2025-06-30T23:59:59Z", "confirmed", ["19.90", "USD"]);
  await order(alice, "2025-06-15T00:00:00Z", "pending", ["1000.00", "USD"]);
  await order(alice, "2025-06-15T00:00:00Z", "expired", ["1000.00", "USD"]);
  await order(alice, "2025-06-10T00:00:00Z", "confirmed", ["5", "EUR"]);
  await order(alice, "2025-06-10T00:00:00Z", "confirmed", ["1500", "JPY"]);
  await order(alice, "2025-06-11T00:00:00Z", "confirmed", null);
  await order(alice, "2025-05-31T23:59:59Z", "confirmed", ["20.00", "USD"]);
  await order(alice, "2025-05-02T00:00:00Z", "confirmed", ["1000", "JPY"]);
  await order(alice, "2025-05-01T23:59:59Z", "confirmed", ["999.00", "USD"]); // before both periods
  await order(bob, "2025-06-15T00:00:00Z", "confirmed", ["777.00", "USD"]);
});

describe("the overview's fiat totals and trend", () => {
  test("confirmed fiat-priced orders summed per currency, the last 30 days against the 30 before; token-priced ones counted apart", async () => {
    const fiat = await fiatOverview(database.db, alice.id, now);
    expect(fiat.totals).toEqual([
      { currency: "EUR", total: "5.00", previousTotal: "0.00", orders: 1, changePercent: null },
      { currency: "JPY", total: "1500", previousTotal: "1000", orders: 1, changePercent: 50 },
      { currency: "USD", total: "29.90", previousTotal: "20.00", orders: 2, changePercent: 49.5 },
    ]);
    expect(fiat.tokenPricedOrders).toBe(1);
  });

  test("only the merchant's own orders; the overview carries it", async () => {
    const fiat = await fiatOverview(database.db, bob.id, now);
    expect(fiat.totals).toEqual([{ currency: "USD", total: "777.00", previousTotal: "0.00", orders: 1, changePercent: null }]);
    const overview = await loadOverview(database.db, alice.id, now);
    expect(overview.fiat.totals.map((t) => t.currency)).toEqual(["EUR", "JPY", "USD"]);
  });
});
