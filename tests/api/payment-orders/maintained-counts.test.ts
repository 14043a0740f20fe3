import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as listEvents } from "@/app/api/events/route";
import { GET as listOrders } from "@/app/api/payment-orders/route";
import { GET as listTransactions } from "@/app/api/transactions/route";
import { GET as listDeliveries } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { foldAllListCounts, foldListCounts } from "@/lib/db/list-counts";
import { rowsOf } from "@/lib/db/map-row";
import { paymentOrders, type NewTransaction, type PaymentOrder } from "@/lib/db/schema";
import { foldTotalsTask } from "@/lib/engine/upkeep-tasks";
import { acceptedMethodsOf } from "@/lib/orders/payment-methods";
import { hasPaidOrders, searchOrders, switchOrderMethod, transitionOrder } from "@/lib/orders/queries";
import { removeStaleInternalTransfers, upsertTransfers } from "@/lib/transactions/queries";
import { recordOrderEvent } from "@/lib/webhooks/outbox";
import { failPendingDelivery, insertEndpoint, restartDelivery } from "@/lib/webhooks/queries";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

/**
 * The API lists' counts (orders, transactions, events, webhook deliveries) are kept by the database
 * as rows are written (issue 31): after every kind of write (creation through the API, the engine's
 * transitions, a method switch to another chain and token, a bulk insert, a delete, a rolled-back
 * transaction, a transfer recorded, re-recorded with another status and removed, events recorded
 * with their deliveries, a delivery failed and restarted, an endpoint deleted) each list's `count`,
 * with each filter, equals a recount of the rows, before and after folding, on both databases.
 */
const database = setupTestDatabase();
const now = new Date();
let alice: TestMerchant;
let bob: TestMerchant;

const orderFilters = [
  "",
  "?status=pending",
  "?status=confirmed",
  "?status=expired",
  "?blockchain=base",
  "?blockchain=ethereum",
  "?currency=usdc",
  "?currency=ETH",
  "?status=pending&blockchain=base&currency=USDC",
];
const transactionFilters = ["", "?status=pending", "?status=confirmed", "?status=failed", "?blockchain=base", "?status=failed&blockchain=ethereum"];

/** The catalog's chain ids (lib/chains/catalog.ts). */
const chainIds: Record<string, number> = { ethereum: 1, base: 2 };

async function recount(table: "payment_orders" | "transactions", merchant: TestMerchant, query: string): Promise<number> {
  const params = new URLSearchParams(query);
  const status = params.get("status");
  const chain = params.get("blockchain");
  const currency = params.get("currency");
  const [row] = rowsOf(
    await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} t where merchant_id = ${merchant.id}
      ${status ? (table === "transactions" && status === "failed" ? sql`and status in ('failed', 'dropped')` : sql`and status = ${status}`) : sql``}
      ${chain ? sql`and blockchain_id = ${chainIds[chain]}` : sql``}
      ${currency ? sql`and lower(currency) = lower(${currency})` : sql``}`),
  );
  return Number(row!.n);
}

/** Every list count of the merchant, by the API and the dashboard's search, against a recount. */
async function expectExact(merchant: TestMerchant) {
  for (const query of orderFilters) {
    const expected = await recount("payment_orders", merchant, query);
    const res = await call(listOrders, "GET", `/api/payment-orders/${query}`, { token: merchant.access });
    expect(res.body.count, `orders ${query}`).toBe(expected);
  }
  for (const status of [undefined, "pending", "confirmed", "expired"]) {
    const search = await searchOrders(database.db, merchant.id, { status, blockchainId: chainIds.base }, { limit: 25, offset: 0 });
    expect(search, `dashboard ${status}`).toMatchObject({
      count: await recount("payment_orders", merchant, `?blockchain=base${status ? `&status=${status}` : ""}`),
      exact: true,
    });
    const anyChain = await searchOrders(database.db, merchant.id, { status, currency: "eth" }, { limit: 25, offset: 0 });
    expect(anyChain, `dashboard eth ${status}`).toMatchObject({
      count: await recount("payment_orders", merchant, `?currency=eth${status ? `&status=${status}` : ""}`),
      exact: true,
    });
  }
  for (const query of transactionFilters) {
    const expected = await recount("transactions", merchant, query);
    const res = await call(listTransactions, "GET", `/api/transactions/${query}`, { token: merchant.access });
    expect(res.body.count, `transactions ${query}`).toBe(expected);
  }
}

/** The merchant's events and each endpoint's deliveries, by the API, against a recount. */
async function expectExactLog(merchant: TestMerchant, endpointIds: number[]) {
  for (const type of [undefined, "payment.confirmed", "payment.expired"]) {
    const [row] = rowsOf(
      await database.db.execute(sql`select count(*)::int as n from order_events where merchant_id = ${merchant.id} ${type ? sql`and type = ${type}` : sql``}`),
    );
    const res = await call(listEvents, "GET", `/api/events/${type ? `?event=${type}` : ""}`, { token: merchant.access });
    expect(res.body.count, `events ${type}`).toBe(Number(row!.n));
  }
  for (const endpointId of endpointIds) {
    for (const status of [undefined, "pending", "failed", "succeeded"]) {
      const [row] = rowsOf(
        await database.db.execute(
          sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} ${status ? sql`and status = ${status}` : sql``}`,
        ),
      );
      const path = `/api/webhook-endpoints/${endpointId}/deliveries/${status ? `?status=${status}` : ""}`;
      const res = await call(listDeliveries, "GET", path, { token: merchant.access, params: { id: String(endpointId) } });
      expect(res.body.count, `deliveries ${endpointId} ${status}`).toBe(Number(row!.n));
    }
  }
}

async function pendingChanges(merchant: TestMerchant): Promise<number> {
  const [row] = rowsOf(await database.db.execute(sql`select count(*)::int as n from list_count_changes where merchant_id = ${merchant.id}`));
  return Number(row!.n);
}

async function orderRow(orderId: string): Promise<PaymentOrder> {
  return (await database.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, orderId)))[0]!;
}

let hash = 0;
function transfer(order: PaymentOrder, status: string, overrides: Partial<NewTransaction> = {}): NewTransaction {
  hash += 1;
  return {
    blockchainId: order.blockchainId,
    txHash: `0x${hash.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    blockNumber: 10n,
    blockHash: `0x${"ab".repeat(32)}`,
    blockTimestamp: now,
    fromAddress: `0x${"11".repeat(20)}`,
    toAddress: order.receivingAddress,
    tokenAddress: order.tokenAddress,
    currency: order.currency,
    amount: order.amount,
    status,
    paymentOrderId: order.id,
    merchantId: order.merchantId,
    counted: true,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  for (const merchant of [alice, bob]) {
    await createWallet(merchant);
    await createWallet(merchant, { blockchain: 1 });
  }
});

describe("the orders' and transactions' counts stay exact", () => {
  test("through every kind of write, before and after folding, and the fold task takes every merchant's changes", async () => {
    const made = await Promise.all([0, 1, 2, 3, 4].map(() => createOrder(alice)));
    await createOrder(alice, { blockchain: "ethereum", currency: "ETH", amount: "0.01" });
    await createOrder(bob);
    const [a, b, c, d, e] = await Promise.all(made.map((o) => orderRow(o.order_id)));
    await expectExact(alice);
    expect(await pendingChanges(alice)).toBeGreaterThan(0);
    expect(await hasPaidOrders(database.db, alice.id)).toBe(false);

    // The engine's transitions; the overview's checklist reads "paid" from the same counts.
    await transitionOrder(database.db, a!.id, "pending", { status: "processing", updatedAt: now });
    expect(await hasPaidOrders(database.db, alice.id)).toBe(true);
    expect(await hasPaidOrders(database.db, bob.id)).toBe(false);
    await transitionOrder(database.db, a!.id, "processing", { status: "confirmed", confirmedAt: now, updatedAt: now });
    await transitionOrder(database.db, b!.id, "pending", { status: "expired", updatedAt: now });
    await transitionOrder(database.db, c!.id, "pending", { status: "failed", failureReason: "underpaid", updatedAt: now });
    await expectExact(alice);

    // What changes no key leaves no change behind.
    const before = await pendingChanges(alice);
    await database.db.update(paymentOrders).set({ updatedAt: now, amountReceived: "1" }).where(eq(paymentOrders.id, d!.id));
    await database.db.update(paymentOrders).set({ updatedAt: now, amountReceived: "0" }).where(eq(paymentOrders.id, d!.id));
    expect(await pendingChanges(alice)).toBe(before);

    // Folding moves the changes into the counts, exactly; then more changes on top of folded rows.
    expect(await foldListCounts(database.db, alice.id)).toBe(before);
    expect(await pendingChanges(alice)).toBe(0);
    await expectExact(alice);

    // A method switch to another chain and token.
    const [own] = acceptedMethodsOf(d!);
    const switched = await switchOrderMethod(
      database.db,
      d!.id,
      { ...own!, blockchainId: 1, currency: "ETH", tokenAddress: null, decimals: 18, amount: "10000000000000000" },
      now,
    );
    expect(switched?.blockchainId).toBe(1);
    await expectExact(alice);

    // A bulk insert, then a delete.
    await database.db.execute(sql`
      insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at)
      select t.order_id || 'x' || g, t.merchant_id, t.nonce + g, t.blockchain_id, t.currency, t.token_address, t.decimals, t.amount, 0,
        (array['confirmed', 'expired', 'pending'])[1 + g % 3], t.receiving_address || g, t.deposit_destination, t.deposit_salt, t.deposit_factory,
        t.order_info, t.confirmation_threshold, t.expires_at, t.created_at, t.updated_at
      from payment_orders t, generate_series(1, 40) g where t.id = ${e!.id}`);
    await expectExact(alice);
    await database.db.delete(paymentOrders).where(eq(paymentOrders.id, c!.id));
    await expectExact(alice);

    // Transfers: recorded, seen again with another status (the upsert's update), one without a merchant, one removed.
    await upsertTransfers(database.db, [
      transfer(a!, "pending"),
      transfer(e!, "pending", { logIndex: -2 }),
      transfer(a!, "pending", { merchantId: null, paymentOrderId: null }),
    ]);
    await expectExact(alice);
    const [first] = rowsOf(await database.db.execute(sql`select tx_hash, log_index, to_address from transactions where payment_order_id = ${a!.id}`));
    await upsertTransfers(database.db, [{ ...transfer(a!, "confirmed"), txHash: String(first!.tx_hash) }]);
    await upsertTransfers(database.db, [transfer(switched!, "dropped")]);
    await expectExact(alice);
    expect((await call(listTransactions, "GET", "/api/transactions/?status=failed&blockchain=ethereum", { token: alice.access })).body.count).toBe(1);
    await removeStaleInternalTransfers(database.db, e!.id, 10n, -2, []);
    await expectExact(alice);
    // A transfer recorded without a merchant that is given one later.
    await database.db.execute(sql`update transactions set merchant_id = ${alice.id}, payment_order_id = ${a!.id} where merchant_id is null`);
    await expectExact(alice);

    // Events with their deliveries (two endpoints and an order's own URL, which no list shows); a delivery failed and restarted; an endpoint deleted.
    const endpoints = await Promise.all(
      ["https://shop.example.com/a", "https://shop.example.com/b"].map((url) =>
        insertEndpoint(database.db, { merchantId: alice.id, url, events: [], secret: "whsec_test", createdAt: now, updatedAt: now }),
      ),
    );
    const recorded = [];
    for (const [order, type] of [
      [a!, "payment.confirmed"],
      [b!, "payment.expired"],
      [e!, "payment.confirmed"],
    ] as const) {
      recorded.push(
        await recordOrderEvent(
          database.db,
          { merchantId: alice.id, paymentOrderId: order.id, type, data: {}, webhookUrl: "https://shop.example.com/own" },
          now,
        ),
      );
    }
    expect(recorded.map((r) => r.deliveries.length)).toEqual([3, 3, 3]);
    await expectExactLog(
      alice,
      endpoints.map((endpoint) => endpoint.id),
    );
    const delivery = recorded[0]!.deliveries.find((row) => row.endpointId === endpoints[0]!.id)!;
    expect(await failPendingDelivery(database.db, delivery.id, "gave up", now)).toBe(true);
    await expectExactLog(
      alice,
      endpoints.map((endpoint) => endpoint.id),
    );
    expect(await restartDelivery(database.db, alice.id, delivery.id, now)).not.toBeNull();
    await expectExactLog(
      alice,
      endpoints.map((endpoint) => endpoint.id),
    );
    await database.db.execute(sql`delete from webhook_endpoints where id = ${endpoints[1]!.id}`);
    await expectExactLog(alice, [endpoints[0]!.id]);
    // An order deleted with its events and their deliveries (cascades).
    await database.db.delete(paymentOrders).where(eq(paymentOrders.id, b!.id));
    await expectExact(alice);
    await expectExactLog(alice, [endpoints[0]!.id]);

    // A transaction that rolls back leaves neither rows nor changes.
    const changes = await pendingChanges(alice);
    await expect(
      database.db.transaction(async (tx) => {
        await transitionOrder(tx, d!.id, "pending", { status: "confirmed", confirmedAt: now, updatedAt: now });
        await upsertTransfers(tx, [transfer(d!, "confirmed")]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await pendingChanges(alice)).toBe(changes);
    await expectExact(alice);
    await expectExactLog(alice, [endpoints[0]!.id]);

    // Every merchant's changes, in small batches; then the task does the same.
    expect(await foldAllListCounts(database.db, { limit: 2 })).toBeGreaterThan(0);
    expect(await pendingChanges(alice)).toBe(0);
    expect(await pendingChanges(bob)).toBe(0);
    await expectExact(alice);
    await expectExactLog(alice, [endpoints[0]!.id]);
    await expectExact(bob);
    await createOrder(bob);
    expect(await pendingChanges(bob)).toBeGreaterThan(0);
    await foldTotalsTask.run(database.db, {});
    expect(await pendingChanges(bob)).toBe(0);
    const [dayChanges] = rowsOf(await database.db.execute(sql`select count(*)::int as n from order_day_total_changes`));
    expect(Number(dayChanges!.n)).toBe(0);
    await expectExact(bob);
  });
});
