import { and, eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, test } from "vitest";
import { DELETE as revokeKey } from "@/app/api/api-keys/[id]/route";
import { GET as listBlockchains } from "@/app/api/blockchains/route";
import { GET as payStatus } from "@/app/api/pay/[orderId]/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { GET as listOrders, POST as postOrder } from "@/app/api/payment-orders/route";
import { forgetMerchantCredentials } from "@/lib/auth/credential-cache";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { computeDepositAddress } from "@/lib/chains/deposit-address";
import { rowsOf } from "@/lib/db/map-row";
import { apiKeys, chainCursors, merchantWallets, paymentOrders, rateLimitCounters, transactions } from "@/lib/db/schema";
import { findOrderTransactionSummary } from "@/lib/orders/order-transaction";
import { getAddress } from "viem";
import { backend, setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

/**
 * Database round trips per request (issue 14), counted from every statement drizzle sends. The
 * hot paths used to take 2 (authenticated GET), 5 (order creation), 4–5 (GET order), 4 (list) and
 * 3 (public status) statements. Now a credential the database was asked about is looked up and
 * the request counted in one statement; a credential looked up less than 5 s ago
 * (lib/auth/credential-cache.ts) costs only the count, which runs beside the request's own work;
 * order creation is one statement after it.
 */
const sent: string[] = [];
const sentWithParams: Array<{ query: string; params: unknown[] }> = [];
const testDb = setupTestDatabase({
  logger: {
    logQuery: (query, params) => {
      sent.push(query);
      sentWithParams.push({ query, params });
    },
  },
});

async function counting<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const before = sent.length;
  const result = await run();
  return { result, statements: sent.length - before };
}

let nonce = 1;
const orderBody = (overrides: Record<string, unknown> = {}) => ({
  amount: "10.5",
  currency: "USDC",
  blockchain: "base",
  order_info: "{}",
  nonce: nonce++,
  ...overrides,
});

async function counter(merchant: TestMerchant): Promise<number> {
  const rows = await testDb.db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(eq(rateLimitCounters.key, `merchant:${merchant.id}`));
  return rows.reduce((sum, row) => sum + row.count, 0);
}

describe("authentication and rate limit: one statement", () => {
  test("an API key request is checked, counted and its use recorded in one statement", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant);
    const first = await counting(() => call(listBlockchains, "GET", "/api/blockchains/", { token: key }));
    expect(first.result.status).toBe(200);
    expect(first.statements).toBe(1);
    const [row] = await testDb.db.select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    expect(row!.lastUsedAt).not.toBeNull();
    const second = await counting(() => call(listBlockchains, "GET", "/api/blockchains/", { token: key }));
    expect(second.statements).toBe(1);
    expect(Number(second.result.headers.get("x-ratelimit-remaining"))).toBe(Number(first.result.headers.get("x-ratelimit-remaining")) - 1);
  });

  test("its commit skips the WAL flush for that statement only, never for the session (orders stay durable)", async () => {
    const merchant = await createMerchant();
    for (let i = 0; i < 3; i++) expect((await call(listBlockchains, "GET", "/api/blockchains/", { token: merchant.access })).status).toBe(200);
    const settings = await Promise.all(Array.from({ length: 10 }, () => testDb.db.execute(sql`show synchronous_commit`)));
    for (const result of settings) expect(rowsOf(result)[0]!.synchronous_commit).toBe("on");
  });

  test("an access token request too", async () => {
    const merchant = await createMerchant();
    const res = await counting(() => call(listBlockchains, "GET", "/api/blockchains/", { token: merchant.access }));
    expect(res.result.status).toBe(200);
    expect(res.statements).toBe(1);
  });

  test("revocation holds at the very next request, and rejected credentials are not counted", async () => {
    const merchant = await createMerchant();
    const { key, id } = await createApiKeyFor(merchant);
    expect((await call(listBlockchains, "GET", "/api/blockchains/", { token: key })).status).toBe(200);
    expect((await call(revokeKey, "DELETE", `/api/api-keys/${id}/`, { token: merchant.access, params: { id: String(id) } })).status).toBe(200);
    const before = await counter(merchant);
    const revoked = await counting(() => call(listBlockchains, "GET", "/api/blockchains/", { token: key }));
    expect(revoked.result.status).toBe(401);
    expect(revoked.result.body.error.code).toBe("INVALID_TOKEN");
    expect(revoked.statements).toBe(1);
    const unknown = await call(listBlockchains, "GET", "/api/blockchains/", { token: `sk_test_${"x".repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(await counter(merchant)).toBe(before);
  });

  test("the counter stays exact under concurrent requests with one key", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant);
    const before = await counter(merchant);
    const answers = await Promise.all(Array.from({ length: 12 }, () => call(listBlockchains, "GET", "/api/blockchains/", { token: key })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await counter(merchant)).toBe(before + 12);
    const remaining = answers.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(new Set(remaining).size).toBe(12); // every request saw its own count
  });

  test("a merchant's concurrent requests are counted together, each with its own number (fewer statements, the same count)", async () => {
    const merchant = await createMerchant();
    const { key } = await createApiKeyFor(merchant);
    expect((await call(listBlockchains, "GET", "/api/blockchains/", { token: key })).status).toBe(200); // the key's lookup, reused below
    const before = await counter(merchant);
    const res = await counting(() => Promise.all(Array.from({ length: 12 }, () => call(listBlockchains, "GET", "/api/blockchains/", { token: key }))));
    expect(res.result.every((a) => a.status === 200)).toBe(true);
    expect(await counter(merchant)).toBe(before + 12);
    const remaining = res.result.map((a) => Number(a.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    const limit = Number(res.result[0]!.headers.get("x-ratelimit-limit"));
    // Exactly the places before + 1 … before + 12, one each.
    expect(remaining).toEqual(Array.from({ length: 12 }, (_, i) => limit - before - 12 + i));
    // The first request's statement goes at once; those arriving meanwhile share the next one.
    if (backend === "postgres") expect(res.statements).toBeLessThan(12);
  });
});

describe("order creation: one statement after the count", () => {
  test("with the credential's lookup reused: the count, then wallet check, nonce check and insert in one statement", async () => {
    const merchant = await createMerchant();
    const wallet = await createWallet(merchant);
    const { key } = await createApiKeyFor(merchant);
    expect((await call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody() })).status).toBe(201);
    const res = await counting(() => call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody() }));
    expect(res.result.status).toBe(201);
    // The key's lookup is reused (lib/auth/credential-cache.ts); the count runs beside validation, the insert waits for it.
    expect(res.statements).toBe(2);
    const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, res.result.body.data.order_id));
    expect(row!.depositDestination).toBe(getAddress(wallet.wallet_address));
    expect(row!.confirmationThreshold).toBe(wallet.confirmation_threshold);
  });

  test("a wallet changed since the last order binds the new wallet (one statement more)", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    await createOrder(merchant);
    const replacement = randomAddress();
    await testDb.db
      .update(merchantWallets)
      .set({ walletAddress: replacement, confirmationThreshold: 7 })
      .where(and(eq(merchantWallets.merchantId, merchant.id), eq(merchantWallets.blockchainId, 2)));
    const res = await counting(() => call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: orderBody() }));
    expect(res.result.status).toBe(201);
    expect(res.statements).toBe(3); // the count; the first insert answered the new wallet; the second inserts
    const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, res.result.body.data.order_id));
    const chain = findBlockchainBySlug("base")!;
    expect(row!.depositDestination).toBe(getAddress(replacement));
    expect(row!.confirmationThreshold).toBe(7);
    expect(row!.receivingAddress).toBe(
      computeDepositAddress({
        factory: chain.factory!,
        implementation: chain.implementation!,
        destination: getAddress(replacement),
        salt: row!.depositSalt as `0x${string}`,
      }),
    );
  });

  test("the order of checks holds: no active wallet before a used nonce; a nonce once, even when raced", async () => {
    const merchant = await createMerchant();
    const wallet = await createWallet(merchant);
    const taken = nonce++;
    await createOrder(merchant, { nonce: taken });
    const duplicate = await counting(() => call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: orderBody({ nonce: taken }) }));
    expect(duplicate.result.status).toBe(400);
    expect(duplicate.result.body.error.code).toBe("DUPLICATE_NONCE");
    // The count, the insert the (merchant, nonce) key refused, and the read of the order that has the nonce.
    expect(duplicate.statements).toBe(3);
    expect(duplicate.result.body.error.details.order_id).toHaveLength(1);
    await testDb.db.update(merchantWallets).set({ isActive: false }).where(eq(merchantWallets.id, wallet.id));
    const inactive = await call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: orderBody({ nonce: taken }) });
    expect(inactive.body.error.code).toBe("WALLET_NOT_CONFIGURED");
    const otherChain = await call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: orderBody({ blockchain: "polygon" }) });
    expect(otherChain.body.error.code).toBe("WALLET_NOT_CONFIGURED");
    await testDb.db.update(merchantWallets).set({ isActive: true }).where(eq(merchantWallets.id, wallet.id));

    const raced = orderBody();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: raced })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400]);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error.code === "DUPLICATE_NONCE")).toBe(true);
  });
});

describe.skipIf(backend !== "postgres")("PostgreSQL: the count never waits for an order's commit; cached plans cannot pick a wrong index", () => {
  test("a merchant's count is committed before its order is written: a create stuck on its insert holds no counter lock", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    const { key } = await createApiKeyFor(merchant);
    const first = await call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody() });
    expect(first.status).toBe(201);
    // Another session takes a nonce without committing: a create with that nonce then waits inside its insert.
    const blocker = postgres(await databaseUrl(), { max: 1, onnotice: () => {} });
    const contested = nonce++;
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    let stuckSettled = false;
    const held = blocker.begin(async (tx) => {
      await tx`insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at)
        select 'ORD-heldByAnotherSession', merchant_id, ${contested}, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at
        from payment_orders where order_id = ${first.body.data.order_id}`;
      inserted();
      for (;;) {
        const [waiting] = await tx`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
        if (waiting!.n > 0) break;
        if (stuckSettled) throw new Error("the create did not wait for the contested nonce");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The create is waiting inside its insert; the merchant's next request is counted all the same
      // (were the count part of the insert's transaction, its counter row would be locked until then).
      const read = await call(listBlockchains, "GET", "/api/blockchains/", { token: key });
      expect(read.status).toBe(200);
      throw new Error("roll back");
    });
    await insertDone;
    const stuck = call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody({ nonce: contested }) });
    void stuck.finally(() => (stuckSettled = true));
    await expect(held).rejects.toThrow("roll back");
    expect((await stuck).status).toBe(201); // the other session rolled back: the nonce was free after all
    await blocker.end();
  });

  test("every statement of the hot path has a generic plan that reaches each table through its one key (no seq scan, never the (merchant, created_at) index)", async () => {
    // A nearly empty database is where a cached plan could go wrong: PostgreSQL breaks ties between indexes arbitrarily.
    const merchant = await createMerchant();
    await createWallet(merchant);
    const { key } = await createApiKeyFor(merchant);
    const first = await call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody() });
    const orderId = first.body.data.order_id as string;
    forgetMerchantCredentials(merchant.id); // so the credentials' own statements run too
    const before = sentWithParams.length;
    const requests = [
      () => call(listBlockchains, "GET", "/api/blockchains/", { token: key }),
      () => call(listBlockchains, "GET", "/api/blockchains/", { token: merchant.access }),
      () => call(postOrder, "POST", "/api/payment-orders/", { token: key, body: orderBody() }),
      () => call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: key, params: { orderId } }),
      () => call(getOrder, "GET", `/api/payment-orders/${first.body.data.id}/`, { token: key, params: { orderId: String(first.body.data.id) } }),
      () => call(payStatus, "GET", `/api/pay/${orderId}/`, { params: { orderId } }),
    ];
    for (const send of requests) expect((await send()).status).toBeLessThan(300);
    const statements = new Map(sentWithParams.slice(before).map((s) => [s.query, s.params]));
    expect(statements.size).toBeGreaterThanOrEqual(6);
    const inspector = postgres(await databaseUrl(), { max: 1, onnotice: () => {} });
    try {
      await inspector`set plan_cache_mode = force_generic_plan`;
      let n = 0;
      for (const [query, params] of statements) {
        const name = `hot_${n++}`;
        await inspector.unsafe(`prepare ${name} as ${query}`);
        const literals = params.map((value) =>
          value === null ? "null" : `'${String(value instanceof Date ? value.toISOString() : value).replaceAll("'", "''")}'`,
        );
        const plan = (await inspector.unsafe(`explain execute ${name}${literals.length ? `(${literals.join(", ")})` : ""}`))
          .map((row) => String(row["QUERY PLAN"]))
          .join("\n");
        expect(plan, query).not.toMatch(/Seq Scan/);
        expect(plan, query).not.toMatch(/payment_orders_merchant_created_idx/);
      }
    } finally {
      await inspector.end();
    }
  });
});

describe("reads: one statement after authentication", () => {
  test("GET order by id carries its transfer and live confirmations, as findOrderTransactionSummary computes them", async () => {
    const merchant = await createMerchant({ shop_name: "Round Trip Roasters" });
    await createWallet(merchant);
    const order = await createOrder(merchant);
    const fresh = await counting(() =>
      call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } }),
    );
    expect(fresh.result.status).toBe(200);
    expect(fresh.result.body.data.transaction).toBeNull();
    expect(fresh.statements).toBe(2);

    const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, order.order_id));
    const now = new Date();
    const transfer = (n: number, counted: boolean, status: string) => ({
      blockchainId: row!.blockchainId,
      txHash: `0x${String(n).padStart(64, "0")}`,
      logIndex: 0,
      blockNumber: BigInt(100 + n),
      blockHash: `0x${"ab".repeat(32)}`,
      blockTimestamp: now,
      fromAddress: randomAddress(),
      toAddress: row!.receivingAddress,
      tokenAddress: row!.tokenAddress,
      currency: row!.currency,
      amount: "1",
      status,
      paymentOrderId: row!.id,
      merchantId: merchant.id,
      counted,
      createdAt: now,
      updatedAt: now,
    });
    await testDb.db.insert(transactions).values([transfer(1, true, "pending"), transfer(2, false, "pending"), transfer(3, true, "dropped")]);
    await testDb.db
      .insert(chainCursors)
      .values({ blockchainId: row!.blockchainId, genesisHash: "0x00", lastBlock: 104n, lastBlockHash: "0x00", updatedAt: now })
      .onConflictDoUpdate({ target: chainCursors.blockchainId, set: { lastBlock: 104n } });

    const res = await counting(() =>
      call(getOrder, "GET", `/api/payment-orders/${row!.id}/`, { token: merchant.access, params: { orderId: String(row!.id) } }),
    );
    expect(res.statements).toBe(2);
    const expected = await findOrderTransactionSummary(testDb.db, row!);
    expect(expected).toMatchObject({ block_number: 101, confirmations: 4 }); // the counted transfer, never the dropped one
    expect(res.result.body.data.transaction).toEqual(expected);

    const pay = await counting(() => call(payStatus, "GET", `/api/pay/${order.order_id}/`, { params: { orderId: order.order_id } }));
    expect(pay.result.status).toBe(200);
    expect(pay.statements).toBe(1);
    expect(pay.result.body.data).toMatchObject({ shop_name: "Round Trip Roasters", confirmations: 4, transaction_hash: expected!.transaction_hash });

    const other = await createMerchant();
    const hidden = await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: other.access, params: { orderId: order.order_id } });
    expect(hidden.status).toBe(404);
  });

  test("list: the page and the total in one statement; a page past the end still knows the total", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    for (let i = 0; i < 3; i++) await createOrder(merchant);
    const res = await counting(() => call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access, query: { page_size: 2 } }));
    // On PGlite the page's transaction sets the no-sort planner settings first (lib/db/list-window.ts
    // `withoutSorts`: one in-process statement); PostgreSQL's list reads have a pool with them set.
    expect(res.statements).toBe(backend === "pglite" ? 3 : 2);
    expect(res.result.body.count).toBe(3);
    expect(res.result.body.results).toHaveLength(2);
    const past = await call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access, query: { page: 5, page_size: 2 } });
    expect(past.body.count).toBe(3);
    expect(past.body.results).toHaveLength(0);
    const empty = await createMerchant();
    expect((await call(listOrders, "GET", "/api/payment-orders/", { token: empty.access })).body.count).toBe(0);
  });

  test("the public status of an unknown order is 404 in one statement", async () => {
    const res = await counting(() => call(payStatus, "GET", "/api/pay/ORD-nope/", { params: { orderId: "ORD-nope" } }));
    expect(res.result.status).toBe(404);
    expect(res.statements).toBe(1);
  });
});

/** This test file's PostgreSQL database, for sessions of its own. */
async function databaseUrl(): Promise<string> {
  const [row] = rowsOf(await testDb.db.execute(sql`select current_database() as name`));
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${String(row!.name)}`;
  return url.toString();
}
