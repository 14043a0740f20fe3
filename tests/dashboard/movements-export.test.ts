import { describe, expect, test } from "vitest";
import type { Hex } from "viem";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { findOrderSweep } from "@/lib/chains/queries";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { createOrder as createOrderUseCase } from "@/lib/orders/create-order";
import { formatAmount } from "@/lib/money/amounts";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "./session";
import { csvObjects } from "../helpers/csv";

const { GET: exportMovements, POST: postExport } = await import("@/app/(dashboard)/dashboard/transactions/export/route");
const { fiatValue, linkIdOf, movementColumns } = await import("@/lib/dashboard/movements-csv");
const { loadOrderDetail } = await import("@/lib/dashboard/order-detail");

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = () => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true });
/** The merchant's payout wallet: a devnet account whose key the test holds (0–2 are the gateway's own). */
const merchantKey = devnetAccounts[7];
const dayMs = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * dayMs).toISOString().slice(0, 10);

let nonce = 1;

async function download(query: Record<string, string>) {
  const url = new URL("http://localhost:3000/dashboard/transactions/export");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await exportMovements(new Request(url), undefined);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function pay(merchant: TestMerchant, orderId: string, amount: string) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body: { amount } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe("GET /dashboard/transactions/export (accounting: every on-chain movement)", () => {
  test("a fiat-priced order paid, swept and partly refunded on the devnet: one payment, one sweep, one refund, each with its hash, price and rate", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const created = await call(postOrder, "POST", "/api/payment-orders/", {
      token: merchant.access,
      body: { blockchain: "base", currency: "USDC", price_amount: "10.00", price_currency: "USD", order_info: '{"sku":"A1"}', nonce: nonce++ },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const order = created.body.data;
    expect(order).toMatchObject({ rate: "0.9998", price_amount: "10.00" });

    await pay(merchant, order.order_id, "12");
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();
    expect((await sweepConfirmedDeposits(testDb.db, base(), client())).swept).toContain(order.order_id);

    const customer = randomAddress();
    const refund = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { overpaid_only: true, to_address: customer },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const wallet = net.wallet(merchantKey.privateKey as Hex);
    const tx = refund.body.data.transaction;
    const refundHash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();

    // Another merchant's money moves in the same range and must not appear.
    const other = await createMerchant();
    await createWallet(other, { blockchain: 2, confirmation_threshold: 1 });
    const theirs = await createOrderUseCase(testDb.db, other.id, { amount: "3", currency: "USDC", blockchain: "base", order_info: "{}", nonce: nonce++ });
    await pay(other, theirs.orderId, "3");
    await tick();

    const detail = (await loadOrderDetail(testDb.db, merchant.id, order.order_id))!;
    expect(detail.transfers).toHaveLength(1);
    const paymentHash = detail.transfers[0]!.txHash;
    const sweep = (await findOrderSweep(testDb.db, detail.order.id))!;
    expect(sweep).toMatchObject({ status: "succeeded", txHash: expect.stringMatching(/^0x/) });

    signInAs(merchant);
    const res = await download({ from: day(-1), to: day(1) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="movements-${day(-1)}-to-${day(1)}.csv"`);
    const { header, rows } = csvObjects(res.text);
    expect(header).toEqual([...movementColumns]);
    // Payment in, then the sweep it caused, then the refund: time order.
    expect(rows.map((r) => r.type)).toEqual(["payment", "sweep", "refund"]);
    expect(res.text).not.toContain(theirs.orderId);

    const [payment, swept, refunded] = rows as [Record<string, string>, Record<string, string>, Record<string, string>];
    expect(payment).toMatchObject({
      direction: "in",
      status: "confirmed",
      blockchain: "base",
      currency: "USDC",
      amount: "12",
      fiat_currency: "USD",
      fiat_amount: "12.00", // 12 × 0.9998 = 11.9976
      rate: "0.9998",
      order_id: order.order_id,
      order_price: "10.00 USD",
      link_id: "",
      order_info: '{"sku":"A1"}',
      counts_toward_order: "yes",
      tx_hash: paymentHash,
      to_address: order.receiving_address,
    });
    expect(swept).toMatchObject({
      direction: "internal",
      status: "succeeded",
      order_id: order.order_id,
      tx_hash: sweep.txHash,
      from_address: order.receiving_address,
      to_address: merchantKey.address,
    });
    // The order's share of its sweep's gas, as the order view shows it.
    expect(BigInt(sweep.gasCostWei)).toBeGreaterThan(0n);
    expect(swept).toMatchObject({ gas_fee: formatAmount(BigInt(sweep.gasCostWei), 18), gas_currency: "ETH" });
    // What the sweep moved (the whole deposit) and its gas, in coin and in fiat: the order's rate for the amount, the native price at detection for the gas.
    expect(swept).toMatchObject({
      currency: "USDC",
      amount: "12",
      fiat_currency: "USD",
      fiat_amount: "12.00",
      rate: "0.9998",
      rate_basis: "order_locked_rate",
      gas_fiat_currency: "USD",
    });
    expect(swept!.gas_fiat_amount).toMatch(/^\d+\.\d{2}$/);
    expect(payment).toMatchObject({ rate_basis: "order_locked_rate", rate_feeds: expect.stringMatching(/^USDC\/USD round \d+ at 0x/) });
    expect(refunded).toMatchObject({
      direction: "out",
      status: "confirmed",
      currency: "USDC",
      amount: "1.997999", // overpaid: 12 − 10.002001
      fiat_currency: "USD",
      fiat_amount: "2.00", // 1.997999 × 0.9998 = 1.99760
      rate: "0.9998",
      order_id: order.order_id,
      tx_hash: refundHash,
      from_address: merchantKey.address,
      to_address: customer,
    });
    for (const r of rows) expect(Date.parse(r.occurred_at!)).not.toBeNaN();
    expect(rows.map((r) => r.occurred_at)).toEqual([...rows.map((r) => r.occurred_at)].sort());

    // The range is by when the money moved: a range before it has the header only.
    const earlier = await download({ from: day(-30), to: day(-2) });
    expect(csvObjects(earlier.text).rows).toEqual([]);

    // The other merchant sees their own payment and nothing of the first merchant's.
    signInAs(other);
    const theirRows = csvObjects((await download({ from: day(-1), to: day(1) })).text).rows;
    // A token-priced order has no locked rate: its payment is valued at the price recorded when it was detected (the devnet's USDC/USD feed).
    expect(theirRows.map((r) => [r.type, r.order_id, r.fiat_currency, r.fiat_amount, r.rate, r.rate_basis])).toEqual([
      ["payment", theirs.orderId, "USD", "3.00", "0.9998", "detected_price"],
    ]);
  });

  test("a transfer of another asset than the order's is valued at its own price when detected (the locked rate prices the order's token only)", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const created = await call(postOrder, "POST", "/api/payment-orders/", {
      token: merchant.access,
      body: { blockchain: "base", currency: "USDC", price_amount: "5.00", price_currency: "USD", order_info: "{}", nonce: nonce++ },
    });
    const order = created.body.data;
    const wrong = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: { currency: "USDT", amount: "1" },
    });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(201);
    await tick();
    signInAs(merchant);
    const { rows } = csvObjects((await download({ from: day(-1), to: day(1) })).text);
    expect(rows).toEqual([
      expect.objectContaining({
        type: "payment",
        order_id: order.order_id,
        currency: "USDT",
        amount: "1",
        rate: "1.0003",
        fiat_amount: "1.00",
        fiat_currency: "USD",
        rate_basis: "detected_price",
        rate_feeds: expect.stringMatching(/^USDT\/USD round \d+ at 0x/),
        order_price: "5.00 USD",
        counts_toward_order: "no",
      }),
    ]);
    expect(Date.parse(rows[0]!.rate_time!)).not.toBeNaN();
  });

  test("without a session: 401 in the error envelope; bad ranges: 400 naming the field; POST: 405", async () => {
    signInAs(null);
    const anonymous = await download({ from: day(-1), to: day(1) });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).error.code).toBe("INVALID_TOKEN");
    signInAs(await createMerchant());
    const backwards = await download({ from: day(1), to: day(-1) });
    expect(backwards.status).toBe(400);
    expect(JSON.parse(backwards.text).error).toMatchObject({ code: "VALIDATION_ERROR", details: { to: [expect.any(String)] } });
    const malformed = await download({ from: "yesterday", to: day(0) });
    expect(JSON.parse(malformed.text).error.details).toHaveProperty("from");
    const posted = await postExport(new Request("http://localhost:3000/dashboard/transactions/export", { method: "POST" }), undefined);
    expect(posted.status).toBe(405);
  });
});

describe("fiat value and link reference", () => {
  test("fiatValue is exact and rounds half up to the currency's minor units", () => {
    expect(fiatValue(12_000_000n, 6, "0.9998", "USD")).toBe("12.00");
    expect(fiatValue(1_005_000n, 6, "1", "USD")).toBe("1.01");
    expect(fiatValue(1_004_999n, 6, "1", "USD")).toBe("1.00");
    expect(fiatValue(6_322_384_595_773_860n, 18, "3147.54657812", "EUR")).toBe("19.90");
    expect(fiatValue(1_000_000n, 6, "151.5", "JPY")).toBe("152");
    expect(fiatValue(1n, 6, null, "USD")).toBeNull();
    expect(fiatValue(1n, 6, "1", null)).toBeNull();
  });

  test("linkIdOf reads a link order's payment_link and nothing else", () => {
    expect(linkIdOf('{"payment_link":"LNK-ABC","quantity":2}')).toBe("LNK-ABC");
    expect(linkIdOf('{"sku":"payment_link"}')).toBeNull();
    expect(linkIdOf('{"payment_link":')).toBeNull();
    expect(linkIdOf(null)).toBeNull();
  });
});
