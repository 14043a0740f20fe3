/**
 * Exports an accountant can book (issue 52): a paid, a late, a refunded and a reorged order, made for
 * real on the devnet, exported as every movement, as a bank statement and as orders; every row
 * carries its fiat value, at the order's locked rate where it has one, else at the price recorded
 * when the payment was detected, with the rate's source and time.
 */
import { describe, expect, test } from "vitest";
import type { Hex } from "viem";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { findOrderSweep } from "@/lib/chains/queries";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { findMerchantOrder } from "@/lib/orders/queries";
import { fiatValue } from "@/lib/transactions/valuation";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "./session";
import { csvObjects } from "../helpers/csv";

const { GET: exportMovements } = await import("@/app/(dashboard)/dashboard/transactions/export/route");
const { GET: exportOrders } = await import("@/app/(dashboard)/dashboard/orders/export/route");
const { bankStatementColumns } = await import("@/lib/dashboard/bank-statement-csv");

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = (now?: Date) => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true, ...(now ? { now: () => now } : {}) });
const merchantKey = devnetAccounts[7];
const dayMs = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * dayMs).toISOString().slice(0, 10);
/** The devnet's feeds (lib/chains/catalog.ts devnetFeeds) as the rates recorded from them. */
const usdcUsd = "0.9998";
const ethUsd = "3412.57";

let nonce = 1;

async function download(route: typeof exportMovements, path: string, query: Record<string, string>) {
  const url = new URL(`http://localhost:3000${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await route(new Request(url), undefined);
  expect(response.status).toBe(200);
  return csvObjects(await response.text());
}

async function create(merchant: TestMerchant, body: Record<string, unknown>) {
  const res = await call(postOrder, "POST", "/api/payment-orders/", {
    token: merchant.access,
    body: { blockchain: "base", currency: "USDC", order_info: "{}", nonce: nonce++, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function pay(merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.transaction_hash as string;
}

async function fetchOrder(merchant: TestMerchant, orderId: string) {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The later of the wall clock and the devnet's latest block time (earlier tests stamp blocks in the future). */
async function chainNow(): Promise<number> {
  const latest = await client().getBlock({ blockTag: "latest" });
  return Math.max(Date.now(), Number(latest.timestamp) * 1000 + 1000);
}

describe("exports an accountant can book", () => {
  test("a paid, a late, a refunded and a reorged order: every movement, every bank-statement line and every order row carries its fiat value", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });

    // Reorged: paid and confirmed (one confirmation), then the block is gone: confirmed stays, at risk, the payment reversed.
    const reorged = await create(merchant, { amount: "5" });
    const testClient = net.testClient();
    const snapshot = await testClient.snapshot();
    const reorgedHash = await pay(merchant, reorged.order_id);
    await tick();
    expect((await fetchOrder(merchant, reorged.order_id)).status).toBe("confirmed");
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 3 });
    await tick();
    const reorgedNow = await fetchOrder(merchant, reorged.order_id);
    expect(reorgedNow).toMatchObject({
      status: "confirmed",
      at_risk: true,
      amount_arrived: "0",
      amount_counted: "0",
      payment_reversed: true,
      not_counted: [{ transaction_hash: reorgedHash, amount: "5", currency: "USDC", reason: "reorged" }],
    });

    // Paid: priced in EUR, paid exactly.
    const paid = await create(merchant, { price_amount: "9.00", price_currency: "EUR" });
    const paidHash = await pay(merchant, paid.order_id);

    // Refunded: priced in USD, overpaid, the excess sent back from the merchant's wallet.
    const refunded = await create(merchant, { price_amount: "10.00", price_currency: "USD" });
    const refundedHash = await pay(merchant, refunded.order_id, { amount: "12" });
    await tick();
    await testClient.mine({ blocks: 1 });
    await tick();
    expect((await fetchOrder(merchant, paid.order_id)).status).toBe("confirmed");
    expect((await fetchOrder(merchant, refunded.order_id)).status).toBe("confirmed");

    // Late: priced in the token, its deadline passes, then the money arrives.
    const expiresAt = new Date((await chainNow()) + 5_000);
    const late = await create(merchant, { amount: "4", expires_at: expiresAt.toISOString() });
    await tick();
    await tick(new Date(expiresAt.getTime() + 1_000));
    expect((await fetchOrder(merchant, late.order_id)).status).toBe("expired");
    await testClient.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(expiresAt.getTime() / 1000) + 60) });
    const lateHash = await pay(merchant, late.order_id);
    await tick(new Date(expiresAt.getTime() + 70_000));
    await testClient.mine({ blocks: 1 });
    await tick(new Date(expiresAt.getTime() + 80_000));
    // The order says what arrived beside what counted, and why.
    expect(await fetchOrder(merchant, late.order_id)).toMatchObject({
      status: "failed",
      failure_reason: "late_payment",
      amount_received: "0",
      amount_counted: "0",
      amount_arrived: "4",
      not_counted: [{ transaction_hash: lateHash, amount: "4", currency: "USDC", reason: "after_expiry" }],
      payment_reversed: false,
    });

    // The late order's sweep was armed at the test's later clock.
    const swept = await sweepConfirmedDeposits(testDb.db, base(), client(), new Date(expiresAt.getTime() + 85_000));
    expect(swept.swept).toEqual(expect.arrayContaining([paid.order_id, refunded.order_id, late.order_id]));
    const refund = await call(postRefund, "POST", `/api/payment-orders/${refunded.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: refunded.order_id },
      body: { overpaid_only: true, to_address: randomAddress() },
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const tx = refund.body.data.transaction;
    const refundHash = await net.wallet(merchantKey.privateKey as Hex).sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    await tick(new Date(expiresAt.getTime() + 90_000));
    await testClient.mine({ blocks: 1 });
    await tick(new Date(expiresAt.getTime() + 100_000));

    signInAs(merchant);
    const range = { from: day(-1), to: day(2) };

    // Every movement: three payments in (the reorged one left the chain), three sweeps, one refund; each with a fiat value.
    const { rows: moves } = await download(exportMovements, "/dashboard/transactions/export", range);
    const paidRow = (await fetchOrder(merchant, paid.order_id)) as { amount: string; rate: string };
    const byHash = (hash: string) => moves.find((r) => r.tx_hash === hash && r.type !== "sweep")!;
    expect(
      moves
        .filter((r) => r.type === "payment")
        .map((r) => r.tx_hash)
        .sort(),
    ).toEqual([paidHash, refundedHash, lateHash].sort());
    expect(moves.some((r) => r.tx_hash === reorgedHash)).toBe(false);
    expect(byHash(paidHash)).toMatchObject({
      order_id: paid.order_id,
      fiat_currency: "EUR",
      fiat_amount: "9.00",
      rate: paidRow.rate,
      rate_basis: "order_locked_rate",
      rate_feeds: expect.stringMatching(/^USDC\/USD round \d+ at 0x\w+; EUR\/USD round \d+ at 0x\w+$/),
    });
    expect(byHash(refundedHash)).toMatchObject({
      order_id: refunded.order_id,
      amount: "12",
      fiat_currency: "USD",
      fiat_amount: "12.00",
      rate: usdcUsd,
      rate_basis: "order_locked_rate",
    });
    // The late payment's order has no locked rate: the price recorded when the transfer was detected.
    expect(byHash(lateHash)).toMatchObject({
      order_id: late.order_id,
      amount: "4",
      fiat_currency: "USD",
      fiat_amount: "4.00",
      rate: usdcUsd,
      rate_basis: "detected_price",
      counts_toward_order: "no",
    });
    expect(byHash(refundHash)).toMatchObject({
      type: "refund",
      order_id: refunded.order_id,
      amount: "1.997999",
      fiat_currency: "USD",
      fiat_amount: "2.00",
      rate: usdcUsd,
    });
    const sweeps = moves.filter((r) => r.type === "sweep");
    expect(sweeps.map((r) => [r.order_id, r.currency, r.amount, r.fiat_currency, r.fiat_amount]).sort()).toEqual(
      [
        [paid.order_id, "USDC", paidRow.amount, "EUR", "9.00"],
        [refunded.order_id, "USDC", "12", "USD", "12.00"],
        [late.order_id, "USDC", "4", "USD", "4.00"],
      ].sort(),
    );
    for (const row of sweeps) {
      const order = (await findMerchantOrder(testDb.db, merchant.id, { orderId: row.order_id! }))!;
      const sweep = (await findOrderSweep(testDb.db, order.id))!;
      // Gas in coin and in US dollars at the native price recorded with the order's payment.
      expect(row).toMatchObject({ gas_currency: "ETH", gas_fiat_currency: "USD", gas_fiat_amount: fiatValue(BigInt(sweep.gasCostWei), 18, ethUsd, "USD")! });
    }
    for (const row of moves) {
      expect(row.fiat_amount, JSON.stringify(row)).toMatch(/^\d+\.\d{2}$/);
      expect(Date.parse(row.rate_time!), JSON.stringify(row)).not.toBeNaN();
      expect(row.rate_feeds).not.toBe("");
    }

    // The bank statement in USD: money in +, refunds and network fees −; the EUR order's lines are in the EUR statement.
    const usd = await download(exportMovements, "/dashboard/transactions/export", { ...range, layout: "bank_statement", currency: "USD" });
    expect(usd.header).toEqual([...bankStatementColumns]);
    const amountsOf = (rows: Record<string, string>[], reference: string) => rows.filter((r) => r.Reference === reference).map((r) => r.Amount);
    const sweepGasUsd = (orderId: string) => sweeps.find((r) => r.order_id === orderId)!.gas_fiat_amount!;
    const negative = (amount: string) => (/^0\.0+$/.test(amount) ? amount : `-${amount}`);
    expect(amountsOf(usd.rows, refunded.order_id).sort()).toEqual(["12.00", "-2.00", negative(sweepGasUsd(refunded.order_id))].sort());
    expect(amountsOf(usd.rows, late.order_id).sort()).toEqual(["4.00", negative(sweepGasUsd(late.order_id))].sort());
    // The EUR order's own gas is in US dollars: in the USD statement.
    expect(amountsOf(usd.rows, paid.order_id)).toEqual([negative(sweepGasUsd(paid.order_id))]);
    expect(amountsOf(usd.rows, reorged.order_id)).toEqual([]);
    for (const row of usd.rows) {
      expect(row.Date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(row.Amount).toMatch(/^-?\d+\.\d{2}$/);
      expect(row.Description).not.toBe("");
    }
    expect(usd.rows.find((r) => r.Amount === "4.00")!.Description).toContain("did not count toward the order");
    const eur = await download(exportMovements, "/dashboard/transactions/export", { ...range, layout: "bank_statement", currency: "EUR" });
    expect(eur.rows.map((r) => [r.Reference, r.Amount])).toEqual([[paid.order_id, "9.00"]]);

    // The orders: arrived beside counted, reversal, and the fiat of each.
    const { rows: orders } = await download(exportOrders, "/dashboard/orders/export", range);
    const orderRow = (orderId: string) => orders.find((r) => r.order_id === orderId)!;
    expect(orderRow(paid.order_id)).toMatchObject({
      amount_counted: paidRow.amount,
      amount_arrived: paidRow.amount,
      fiat_currency: "EUR",
      amount_counted_fiat: "9.00",
      amount_arrived_fiat: "9.00",
      rate_basis: "order_locked_rate",
      payment_reversed: "no",
    });
    expect(orderRow(refunded.order_id)).toMatchObject({
      amount_counted: "12",
      fiat_currency: "USD",
      amount_counted_fiat: "12.00",
      amount_arrived_fiat: "12.00",
    });
    expect(orderRow(late.order_id)).toMatchObject({
      status: "failed",
      amount_received: "0",
      amount_counted: "0",
      amount_arrived: "4",
      not_counted: `4 USDC late (${lateHash})`,
      fiat_currency: "USD",
      amount_counted_fiat: "0.00",
      amount_arrived_fiat: "4.00",
      rate: usdcUsd,
      rate_basis: "detected_price",
    });
    expect(orderRow(reorged.order_id)).toMatchObject({
      status: "confirmed",
      amount_arrived: "0",
      not_counted: `5 USDC reorged (${reorgedHash})`,
      payment_reversed: "yes",
      at_risk: "yes",
      fiat_currency: "USD",
      amount_counted_fiat: "0.00",
      amount_arrived_fiat: "0.00",
      rate: usdcUsd,
    });
    for (const row of orders) {
      expect(row.amount_arrived_fiat, JSON.stringify(row)).toMatch(/^\d+\.\d{2}$/);
      expect(Date.parse(row.rate_time!), JSON.stringify(row)).not.toBeNaN();
    }
  });

  test("a layout or statement currency it does not know is 400 naming the field", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    for (const [query, field] of [
      [{ layout: "qif" }, "layout"],
      [{ layout: "bank_statement", currency: "BTC" }, "currency"],
    ] as const) {
      const url = new URL("http://localhost:3000/dashboard/transactions/export");
      for (const [k, v] of Object.entries({ from: day(-1), to: day(1), ...query })) url.searchParams.set(k, v);
      const response = await exportMovements(new Request(url), undefined);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(body.error.details)).toContain(field);
    }
  });
});
