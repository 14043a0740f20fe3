import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { http } from "viem";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { createChainClient } from "@/lib/chains/clients";
import { recheckWindow } from "@/lib/engine/reorg-recheck";
import { findDueSweeps, findSweepsToRecheck, findUnsweptSettledNativeOrders } from "@/lib/chains/queries";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { rowsOf } from "@/lib/db/map-row";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { findOpenNativeOrders, findOrdersToEvaluate, nextPendingDeadline } from "@/lib/orders/queries";
import { confirmDeepTransfers, findTransfersToRecheck } from "@/lib/transactions/queries";
import { claimDueDeliveries, dueUndispatchedDeliveries, nextDeliveryDueAt } from "@/lib/webhooks/queries";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { startRpcProxy } from "../helpers/rpc-proxy";

/**
 * The engine at scale (issue 31): the chain tick, the lifecycle pass and the sweeper read only what
 * they have to move, and their JSON-RPC calls per block do not grow with the open orders; the
 * webhook outbox claims from an index of due rows only.
 */
const statements: Array<{ query: string; params: unknown[] }> = [];
const testDb = setupTestDatabase({ logger: { logQuery: (query, params) => void statements.push({ query, params }) } });

/**
 * `count` open orders copied in bulk from a template order of the merchant (unique nonces, ids and
 * addresses; every other one native), due tomorrow.
 */
async function addOpenOrders(templateId: string, count: number, tag: string, nonceBase = 1_000_000) {
  await testDb.db.execute(sql`
    insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
      receiving_address, deposit_destination, deposit_salt, deposit_factory, deposit_factory_version, order_info, confirmation_threshold, expires_at, created_at, updated_at)
    select 'ORD-' || ${tag}::text || g, t.merchant_id, t.nonce + ${nonceBase}::bigint + g, t.blockchain_id,
      case when g % 2 = 0 then 'ETH' else t.currency end, case when g % 2 = 0 then null else t.token_address end, case when g % 2 = 0 then 18 else t.decimals end,
      t.amount, 0, 'pending', '0x' || md5(${tag}::text || g) || substr(md5('x' || ${tag}::text || g), 1, 8), t.deposit_destination, t.deposit_salt, t.deposit_factory,
      t.deposit_factory_version, t.order_info, t.confirmation_threshold, now() + interval '1 day', t.created_at, t.updated_at
    from payment_orders t, generate_series(1, ${count}::int) g where t.order_id = ${templateId}`);
}

/** Settled history: `count` confirmed orders with a deep confirmed transfer, a succeeded sweep and a delivered webhook each. */
async function addHistory(templateId: string, count: number, tag: string, endpointId: number) {
  await testDb.db.execute(sql`
    insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
      receiving_address, deposit_destination, deposit_salt, deposit_factory, deposit_factory_version, order_info, confirmation_threshold, expires_at, confirmed_at, created_at, updated_at)
    select 'ORD-' || ${tag}::text || g, t.merchant_id, t.nonce + 5000000 + g, t.blockchain_id, t.currency, t.token_address, t.decimals, t.amount, t.amount, 'confirmed',
      '0x' || md5(${tag}::text || g) || substr(md5('y' || ${tag}::text || g), 1, 8), t.deposit_destination, t.deposit_salt, t.deposit_factory,
      t.deposit_factory_version, t.order_info, t.confirmation_threshold, t.expires_at - make_interval(mins => g), t.created_at - make_interval(mins => g),
      t.created_at - make_interval(mins => g + 30), t.created_at - make_interval(mins => g)
    from payment_orders t, generate_series(1, ${count}::int) g where t.order_id = ${templateId}`);
  const history = sql`from payment_orders o where o.order_id like ${`ORD-${tag}%`}`;
  await testDb.db.execute(sql`
    insert into transactions (blockchain_id, tx_hash, log_index, block_number, block_hash, block_timestamp, from_address, to_address, token_address, currency, amount,
      status, payment_order_id, merchant_id, counted, created_at, updated_at)
    select o.blockchain_id, '0x' || md5(o.order_id) || md5(o.order_id || 'b'), 0, 1 + o.id % 1000, '0x' || md5('b'), o.created_at, '0x' || md5('f') || '00000000',
      o.receiving_address, o.token_address, o.currency, o.amount, 'confirmed', o.id, o.merchant_id, true, o.created_at, o.created_at ${history}`);
  await testDb.db.execute(sql`
    insert into sweeps (payment_order_id, blockchain_id, status, tx_hash, block_number, block_hash, attempts, next_attempt_at, created_at, updated_at)
    select o.id, o.blockchain_id, 'succeeded', '0x' || md5(o.order_id || 'sw') || md5('s'), 2 + o.id % 1000, '0x' || md5('b'), 1, o.created_at, o.created_at, o.created_at ${history}`);
  await testDb.db.execute(sql`
    insert into webhook_deliveries (message_id, merchant_id, endpoint_id, event_type, url, body, status, attempts, completed_at, created_at, updated_at)
    select 'msg_' || o.order_id, o.merchant_id, ${endpointId}::int, 'payment.confirmed', 'https://shop.example.com/hooks', '{}', 'succeeded', 1, o.created_at, o.created_at, o.created_at ${history}`);
}

async function newEndpoint(merchant: TestMerchant): Promise<number> {
  const [row] = rowsOf(
    await testDb.db.execute(sql`
      insert into webhook_endpoints (merchant_id, url, events, secret, created_at, updated_at)
      values (${merchant.id}, 'https://shop.example.com/hooks', '{}', 'whsec_test', now(), now()) returning id`),
  );
  return Number(row!.id);
}

/** The statement with its parameters inlined as literals (last first: $12 before $1). */
function inline({ query, params }: { query: string; params: unknown[] }): string {
  let text = query;
  for (let i = params.length; i >= 1; i--) {
    const value = params[i - 1];
    const literal = value === null ? "null" : `'${String(value instanceof Date ? value.toISOString() : value).replaceAll("'", "''")}'`;
    text = text.replaceAll(`$${i}`, literal);
  }
  return text;
}

describe("EXPLAIN: the tick's and the outbox's reads come from indexes of what is due", () => {
  test("open orders to judge, deadlines, native deposit windows, transfers and sweeps to re-check, due sweeps, the outbox claim: no seq scan of orders, transfers, sweeps or deliveries", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 3 });
    const template = await createOrder(merchant, { amount: "1", currency: "USDC", blockchain: "base" });
    const endpointId = await newEndpoint(merchant);
    await addHistory(template.order_id, 4000, "hist", endpointId);
    await addOpenOrders(template.order_id, 4000, "open");
    // A few due deliveries among the delivered ones.
    await testDb.db.execute(sql`
      insert into webhook_deliveries (message_id, merchant_id, endpoint_id, event_type, url, body, status, attempts, next_attempt_at, created_at, updated_at)
      select 'msg_due' || g, ${merchant.id}::int, ${endpointId}::int, 'payment.confirmed', 'https://shop.example.com/hooks', '{}', 'pending', 0, now() - interval '1 second', now(), now()
      from generate_series(1, 3) g`);
    await testDb.db.execute(sql`analyze`);

    const now = new Date();
    const head = 100_000n;
    const before = statements.length;
    await findOrdersToEvaluate(testDb.db, 2, now);
    await nextPendingDeadline(testDb.db, 2);
    await findOpenNativeOrders(testDb.db, 2, { newest: 500, afterId: 10, next: 1000 });
    await findUnsweptSettledNativeOrders(testDb.db, 2, 500);
    await findTransfersToRecheck(testDb.db, 2, head, recheckWindow, head - 10n);
    await findSweepsToRecheck(testDb.db, 2, head, recheckWindow, head - 10n);
    await findDueSweeps(testDb.db, 2, now, new Date(now.getTime() - 600_000));
    await nextDeliveryDueAt(testDb.db);
    await dueUndispatchedDeliveries(testDb.db, now, 64);
    await testDb.db
      .transaction(async (tx) => {
        await confirmDeepTransfers(tx, 2, head, now);
        expect((await claimDueDeliveries(tx, now, new Date(now.getTime() + 60_000), 64)).length).toBe(3);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!String(error).includes("Rollback")) throw error;
      });

    const engine = statements
      .slice(before)
      .filter((s) => /\b(payment_orders|transactions|sweeps|webhook_deliveries)\b/.test(s.query) && /^\s*(select|with|update)/i.test(s.query));
    expect(engine.length).toBeGreaterThanOrEqual(14);
    for (const statement of engine) {
      const plan = rowsOf(await testDb.db.execute(sql.raw(`explain ${inline(statement)}`)))
        .map((row) => String(row["QUERY PLAN"]))
        .join("\n");
      // (A sort, where there is one, orders only the rows an index range chose: the due, the open, the recent.)
      expect(plan, statement.query).not.toMatch(/Seq Scan on (payment_orders|transactions|sweeps|webhook_deliveries)\b/);
      expect(plan, statement.query).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
    }
    // The claim reads the partial index of pending deliveries: delivered rows are not in it.
    const claim = engine.find((s) => /with due as/.test(s.query))!;
    const claimPlan = rowsOf(await testDb.db.execute(sql.raw(`explain ${inline(claim)}`)))
      .map((row) => String(row["QUERY PLAN"]))
      .join("\n");
    expect(claimPlan).toMatch(/webhook_deliveries_due_idx/);
    // The made-up history (block hashes no chain has) goes, so the devnet test's re-check does not find it reorged.
    await testDb.db.execute(sql`delete from transactions where merchant_id = ${merchant.id}`);
    await testDb.db.execute(sql`delete from payment_orders where merchant_id = ${merchant.id}`);
  });
});

describe("RPC calls per tick do not grow with the open orders (real devnet)", () => {
  const net = setupTestDevnet();

  async function fetchOrder(merchant: TestMerchant, orderId: string) {
    const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  test("10 and 2,000 open orders on one chain: the same JSON-RPC calls per one-block tick (scan, balance check, lifecycle, sweeper) but for the scanner's balance read of the native ones (one eth_call per 700, three at most); a payment among them confirms", async () => {
    const chain = net.chain("base");
    const proxy = await startRpcProxy(net.rpcUrl);
    try {
      const client = createChainClient(chain, http(proxy.url, { retryCount: 0 }));
      const merchant = await createMerchant();
      await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
      const template = await createOrder(merchant, { amount: "1", currency: "USDC", blockchain: "base" });
      await addOpenOrders(template.order_id, 9, "ten");

      const tickCalls = async () => {
        await net.testClient().mine({ blocks: 1 });
        proxy.resetCounts();
        await watchChainTick(testDb.db, chain, client, { checkInternalDeposits: true });
        await sweepConfirmedDeposits(testDb.db, chain, client);
        return proxy.calls.map((c) => c.method).sort();
      };
      await watchChainTick(testDb.db, chain, client, { checkInternalDeposits: true }); // cursor at the head
      // (The first tick after the open orders change reads their balances at the cursor too; the tally is a steady one's.)
      await tickCalls();
      const withTen = await tickCalls();
      expect(withTen).toContain("eth_getLogs");
      expect(withTen).toContain("eth_call"); // the balance check of the native orders

      await addOpenOrders(template.order_id, 1990, "many", 2_000_000);
      await tickCalls();
      const withMany = await tickCalls();
      const tally = (calls: string[]) => Object.fromEntries([...new Set(calls)].map((m) => [m, calls.filter((c) => c === m).length]));
      // 5 and 1,000 open native orders: the scanner reads their balances in one and two calls (lib/engine/native-watch.ts).
      expect({ ...tally(withMany), eth_call: 0 }).toEqual({ ...tally(withTen), eth_call: 0 });
      expect(tally(withMany).eth_call! - tally(withTen).eth_call!).toBe(1);

      // A payment among the 2,000 is detected and confirmed (threshold 1).
      const order = await createOrder(merchant, { amount: "2", currency: "USDC", blockchain: "base" });
      const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
        token: merchant.access,
        params: { orderId: order.order_id },
        body: {},
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      let status = "pending";
      for (let i = 0; i < 5 && status !== "confirmed"; i++) {
        await watchChainTick(testDb.db, chain, client, { checkInternalDeposits: true });
        status = (await fetchOrder(merchant, order.order_id)).status;
        if (status !== "confirmed") await net.testClient().mine({ blocks: 1 });
      }
      expect(status).toBe("confirmed");
      expect((await fetchOrder(merchant, order.order_id)).amount_received).toBe("2");
    } finally {
      await proxy.close();
    }
  });
});
