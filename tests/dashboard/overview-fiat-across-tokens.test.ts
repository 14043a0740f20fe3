/**
 * Issue 52 item 5: the overview's one fiat total across tokens. Confirmed orders' counted live
 * transfers, valued as the exports value them: the locked rate of a USD-priced order, else the USD
 * price recorded when the transfer was detected; nothing made up for a transfer without a price.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { paymentOrders, transactions, type NewPaymentOrder } from "@/lib/db/schema";
import { createOrder as createOrderUseCase } from "@/lib/orders/create-order";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../helpers/factories";

const { fiatAcrossTokens, loadOverview } = await import("@/lib/dashboard/overview");

const database = setupTestDatabase();
const now = new Date("2025-06-30T12:00:00Z");
let alice: TestMerchant;
let bob: TestMerchant;
let nonce = 1;
let hash = 1;

interface Transfer {
  units: string;
  usdRate: string | null;
  counted?: boolean;
  status?: string;
}

/** An order with the given status, price and creation time, and its transfers (amounts in base units). */
async function order(
  merchant: TestMerchant,
  opts: { createdAt: string; status: string; currency?: "USDC" | "ETH"; price?: [string, string, string]; transfers: Transfer[] },
) {
  const template = await createOrderUseCase(
    database.db,
    merchant.id,
    { amount: "1", currency: opts.currency ?? "USDC", blockchain: "base", order_info: "{}", nonce: nonce++ },
    { now: new Date(opts.createdAt) },
  );
  const row: NewPaymentOrder = {
    ...template,
    id: undefined,
    orderId: `${template.orderId}X`,
    nonce: nonce++,
    status: opts.status,
    priceAmount: opts.price?.[0] ?? null,
    priceCurrency: opts.price?.[1] ?? null,
    rate: opts.price?.[2] ?? null,
    createdAt: new Date(opts.createdAt),
  };
  const [inserted] = await database.db.insert(paymentOrders).values(row).returning();
  for (const t of opts.transfers) {
    const at = new Date(opts.createdAt);
    await database.db.insert(transactions).values({
      blockchainId: inserted!.blockchainId,
      txHash: `0x${String(hash++).padStart(64, "0")}`,
      logIndex: 0,
      blockNumber: 100n,
      blockHash: `0x${"ab".repeat(32)}`,
      blockTimestamp: at,
      fromAddress: `0x${"11".repeat(20)}`,
      toAddress: inserted!.receivingAddress,
      tokenAddress: inserted!.tokenAddress,
      currency: inserted!.currency,
      amount: t.units,
      status: t.status ?? "confirmed",
      paymentOrderId: inserted!.id,
      merchantId: merchant.id,
      counted: t.counted ?? true,
      usdRate: t.usdRate,
      pricedAt: t.usdRate ? at : null,
      createdAt: at,
      updatedAt: at,
    });
  }
}

beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  await createWallet(alice);
  await createWallet(bob);
  // The last 30 days are 2025-06-01 … 2025-06-30; the 30 before, 2025-05-02 … 2025-05-31.
  // Token-priced USDC: 12.5 USDC at the detected 0.9999 → 12.49875 → 12.50 (half up, per transfer).
  await order(alice, { createdAt: "2025-06-02T00:00:00Z", status: "confirmed", transfers: [{ units: "12500000", usdRate: "0.9999" }] });
  // Token-priced ETH: 0.01 ETH at the detected 3000.12345678 → 30.0012345678 → 30.00.
  await order(alice, {
    createdAt: "2025-06-03T00:00:00Z",
    status: "confirmed",
    currency: "ETH",
    transfers: [{ units: "10000000000000000", usdRate: "3000.12345678" }],
  });
  // USD-priced: the locked rate (1.0001), not the detected price: 10 USDC → 10.00 (10.001).
  await order(alice, {
    createdAt: "2025-06-04T00:00:00Z",
    status: "confirmed",
    price: ["10.00", "USD", "1.0001"],
    transfers: [
      { units: "10000000", usdRate: "0.5" },
      // A late transfer that did not count, and a reorged one: neither is in the total.
      { units: "99000000", usdRate: "1", counted: false },
      { units: "77000000", usdRate: "1", status: "dropped" },
    ],
  });
  // EUR-priced: valued in US dollars at the detected price (the locked rate is in euros): 5 USDC × 1 = 5.00.
  await order(alice, {
    createdAt: "2025-06-05T00:00:00Z",
    status: "confirmed",
    price: ["4.60", "EUR", "0.92"],
    transfers: [{ units: "5000000", usdRate: "1" }],
  });
  // No recorded price: counted apart, never valued.
  await order(alice, { createdAt: "2025-06-06T00:00:00Z", status: "confirmed", transfers: [{ units: "8000000", usdRate: null }] });
  // Not confirmed, or outside the periods: not in the current total.
  await order(alice, { createdAt: "2025-06-07T00:00:00Z", status: "expired", transfers: [{ units: "1000000000", usdRate: "1" }] });
  await order(alice, { createdAt: "2025-05-20T00:00:00Z", status: "confirmed", transfers: [{ units: "40000000", usdRate: "1" }] });
  await order(alice, { createdAt: "2025-04-01T00:00:00Z", status: "confirmed", transfers: [{ units: "999000000", usdRate: "1" }] });
  await order(bob, { createdAt: "2025-06-10T00:00:00Z", status: "confirmed", transfers: [{ units: "777000000", usdRate: "1" }] });
});

describe("the overview's fiat total across tokens", () => {
  test("every token's confirmed payments in US dollars, valued as the exports value them, with the trend", async () => {
    // 12.50 + 30.00 + 10.00 + 5.00 = 57.50; the 30 days before: 40.00.
    expect(await fiatAcrossTokens(database.db, alice.id, now)).toEqual({
      currency: "USD",
      total: "57.50",
      previousTotal: "40.00",
      orders: 4,
      unvaluedOrders: 1,
      changePercent: 43.8,
    });
  });

  test("only the merchant's own orders; the overview carries it", async () => {
    expect(await fiatAcrossTokens(database.db, bob.id, now)).toMatchObject({ total: "777.00", previousTotal: "0.00", orders: 1, changePercent: null });
    const overview = await loadOverview(database.db, alice.id, now);
    expect(overview.acrossTokens).toMatchObject({ currency: "USD", total: "57.50" });
  });

  test("a merchant with no payment: zero, nothing to compare", async () => {
    const carol = await createMerchant();
    expect(await fiatAcrossTokens(database.db, carol.id, now)).toEqual({
      currency: "USD",
      total: "0.00",
      previousTotal: "0.00",
      orders: 0,
      unvaluedOrders: 0,
      changePercent: null,
    });
  });
});
