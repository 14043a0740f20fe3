import { eq, inArray, sql } from "drizzle-orm";
import { custom, http, type Address, type PublicClient } from "viem";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as createWallet } from "@/app/api/merchant-wallets/route";
import { POST as createOrderRoute } from "@/app/api/payment-orders/route";
import { findBlockchainBySlug, setDevnetRpcUrl, type Blockchain } from "@/lib/chains/catalog";
import { createChainClient } from "@/lib/chains/clients";
import { startDevnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { saveCursor } from "@/lib/chains/queries";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { openDatabase } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/map-row";
import { merchants, paymentOrders } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { mineBlocks, sendFromFaucet } from "@/lib/sandbox/devnet-tools";
import { claimDueDeliveries } from "@/lib/webhooks/queries";
import { startCountingProxy } from "./pg-count-proxy";
import { createBenchDatabase, fmt, noParams, percentile, request } from "./support";

/**
 * `npm run bench -- engine-scale` (issue 31, "the engine at scale"):
 * 1. The chain tick (scan, internal-deposit balance check, reorg re-check, lifecycle pass, refunds)
 *    and a sweeper pass with 1 k and 100 k open orders on one chain of a real hardhat devnet:
 *    JSON-RPC calls per block, SQL statements per tick (counted on the wire), tick time p50/p99;
 *    a few orders are paid during the run and must be detected and confirmed.
 * 2. The webhook outbox claim with 0, 1 M and 10 M delivered rows plus a few due ones: time and plan.
 * ENGINE_SCALE_MAX caps the open orders (e.g. 10000), ENGINE_SCALE_DELIVERED the delivered rows,
 * ENGINE_SCALE_TICKS the ticks measured per size.
 */
const openSizes = [1_000, 100_000].filter((n) => n <= Number(process.env.ENGINE_SCALE_MAX ?? 100_000));
const deliveredSizes = [0, 1_000_000, 10_000_000].filter((n) => n <= Number(process.env.ENGINE_SCALE_DELIVERED ?? 10_000_000));
const ticksPerSize = Number(process.env.ENGINE_SCALE_TICKS ?? 20);

function countingClient(chain: Blockchain, rpcUrl: string) {
  const inner = http(rpcUrl)({ chain: undefined, retryCount: 0 });
  const counter = { requests: 0, methods: new Map<string, number>() };
  const client = createChainClient(
    chain,
    custom({
      async request(args) {
        counter.requests += 1;
        counter.methods.set(args.method, (counter.methods.get(args.method) ?? 0) + 1);
        return inner.request(args);
      },
    }),
  );
  return { client, counter };
}

/** Open orders `from..to` on the chain in one statement: pending, two in three USDC, one in three native, random deposit addresses, due tomorrow. */
async function seedOpenOrders(db: Db, merchantId: number, chain: Blockchain, from: number, to: number) {
  const usdc = chain.tokens.find((t) => t.symbol === "USDC")!.address!;
  await db.transaction(async (db) => {
    await db.execute(sql`set local statement_timeout = 0`);
    await db.execute(sql`
      insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, deposit_factory_version, order_info, confirmation_threshold, expires_at, created_at, updated_at)
      select 'ORD-open' || g, ${merchantId}, 1000000 + g, ${chain.id},
        case when g % 3 = 0 then 'ETH' else 'USDC' end, case when g % 3 = 0 then null else ${usdc} end, case when g % 3 = 0 then 18 else 6 end,
        case when g % 3 = 0 then 1000000000000000 else 1000000 end, 0, 'pending',
        '0x' || md5('open' || g) || substr(md5('o2' || g), 1, 8), ${chain.factory!}, '0x' || md5('salt' || g) || md5('s2' || g), ${chain.factory!}, 2,
        '{"sku":"SKU-' || (g % 977) || '"}', 1, now() + interval '1 day' - make_interval(secs => g % 3600), now() - make_interval(secs => g % 3600), now()
      from generate_series(${from}::int, ${to}::int) g`);
  });
}

/** Settled history beside the open orders: confirmed orders with their confirmed transfer and succeeded sweep, so queries that must skip history have some to skip. */
async function seedHistory(db: Db, merchantId: number, chain: Blockchain, count: number) {
  const usdc = chain.tokens.find((t) => t.symbol === "USDC")!.address!;
  await db.transaction(async (db) => {
    await db.execute(sql`set local statement_timeout = 0`);
    await db.execute(sql`
      insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        receiving_address, deposit_destination, deposit_salt, deposit_factory, deposit_factory_version, order_info, confirmation_threshold, expires_at, confirmed_at, created_at, updated_at)
      select 'ORD-hist' || g, ${merchantId}, 5000000 + g, ${chain.id}, 'USDC', ${usdc}, 6, 1000000, 1000000, 'confirmed',
        '0x' || md5('hist' || g) || substr(md5('h2' || g), 1, 8), ${chain.factory!}, '0x' || md5('hs' || g) || md5('hs2' || g), ${chain.factory!}, 2,
        '{}', 1, now() - make_interval(mins => g), now() - make_interval(mins => g), now() - make_interval(mins => g + 30), now() - make_interval(mins => g)
      from generate_series(1, ${count}::int) g`);
    await db.execute(sql`
      insert into transactions (blockchain_id, tx_hash, log_index, block_number, block_hash, block_timestamp, from_address, to_address, token_address, currency, amount,
        status, payment_order_id, merchant_id, counted, created_at, updated_at)
      select o.blockchain_id, '0x' || md5(o.order_id) || md5(o.order_id || 'b'), 0, 1 + o.id % 50000, '0x' || md5('b'), o.created_at, '0x' || md5('f') || '00000000', o.receiving_address,
        o.token_address, o.currency, o.amount, 'confirmed', o.id, o.merchant_id, true, o.created_at, o.created_at
      from payment_orders o where o.order_id like 'ORD-hist%'`);
    await db.execute(sql`
      insert into sweeps (payment_order_id, blockchain_id, status, tx_hash, block_number, block_hash, attempts, next_attempt_at, created_at, updated_at)
      select o.id, o.blockchain_id, 'succeeded', '0x' || md5(o.order_id || 'sw') || md5('x'), 2 + o.id % 50000, '0x' || md5('b'), 1, o.created_at, o.created_at, o.created_at
      from payment_orders o where o.order_id like 'ORD-hist%'`);
  });
}

interface TickFigures {
  open: number;
  ticks: number;
  rpcPerBlock: { p50: number; max: number };
  sqlPerTick: { p50: number; max: number };
  tickMs: { p50: number; p99: number };
  sweepMs: { p50: number; p99: number };
  methods: string;
  paid: number;
  confirmed: number;
}

async function measureTicks(
  db: Db,
  countedDb: Db,
  sqlCounts: () => { statements: number },
  chain: Blockchain,
  client: PublicClient,
  counter: ReturnType<typeof countingClient>["counter"],
  open: number,
  pay: () => Promise<string[]>,
): Promise<TickFigures> {
  // The scanner's cursor at the head (a new cursor on a devnet starts at genesis: 100,000 blocks to catch up).
  const head = await client.getBlock({ blockTag: "latest" });
  const genesis = await client.getBlock({ blockNumber: 0n });
  await saveCursor(db, { blockchainId: chain.id, genesisHash: genesis.hash!, lastBlock: head.number!, lastBlockHash: head.hash!, updatedAt: new Date() });
  await watchChainTick(countedDb, chain, client, { checkInternalDeposits: true });
  const rpc: number[] = [];
  const statements: number[] = [];
  const tickMs: number[] = [];
  const sweepMs: number[] = [];
  counter.methods.clear();
  let paidIds: string[] = [];
  for (let i = 0; i < ticksPerSize; i++) {
    // A few payments a third of the way in: each payment mines its own blocks, the tick after them scans them.
    if (i === Math.floor(ticksPerSize / 3)) paidIds = await pay();
    else await mineBlocks(chain, 1);
    counter.requests = 0;
    const sqlBefore = sqlCounts().statements;
    const started = performance.now();
    const tick = await watchChainTick(countedDb, chain, client, { checkInternalDeposits: true });
    const ticked = performance.now();
    await sweepConfirmedDeposits(countedDb, chain, client);
    const swept = performance.now();
    const blocks = tick.scan.toBlock !== null && tick.scan.fromBlock !== null ? Number(tick.scan.toBlock - tick.scan.fromBlock + 1n) : 1;
    rpc.push(counter.requests / blocks);
    statements.push(sqlCounts().statements - sqlBefore);
    tickMs.push(ticked - started);
    sweepMs.push(swept - ticked);
  }
  const rows = paidIds.length ? await db.select({ status: paymentOrders.status }).from(paymentOrders).where(inArray(paymentOrders.orderId, paidIds)) : [];
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return {
    open,
    ticks: ticksPerSize,
    rpcPerBlock: { p50: percentile(sorted(rpc), 50), max: Math.max(...rpc) },
    sqlPerTick: { p50: percentile(sorted(statements), 50), max: Math.max(...statements) },
    tickMs: { p50: percentile(sorted(tickMs), 50), p99: percentile(sorted(tickMs), 99) },
    sweepMs: { p50: percentile(sorted(sweepMs), 50), p99: percentile(sorted(sweepMs), 99) },
    methods: [...counter.methods.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([method, n]) => `${method} ${n}`)
      .join(", "),
    paid: paidIds.length,
    confirmed: rows.filter((r) => r.status === "confirmed").length,
  };
}

async function runEngineTicks(): Promise<void> {
  const database = await createBenchDatabase("engine");
  const proxy = await startCountingProxy(database.url);
  const counted = await openDatabase({ url: proxy.url(database.url) });
  const devnet = await startDevnet();
  try {
    await ensureGatewayContracts(devnet.rpcUrl);
    setDevnetRpcUrl(devnet.rpcUrl);
    const chain = findBlockchainBySlug("base")!;
    const db = database.db;
    const account = { username: "enginebench", email: "engine@example.com", password: "bench-password", shop_name: "Bench" };
    await register(request("POST", "/api/auth/register", { body: account }), noParams);
    const tokens = await (await login(request("POST", "/api/auth/login", { body: account }), noParams)).json();
    await db.update(merchants).set({ plan: "enterprise", rateLimitPerHour: 10_000_000 }).where(eq(merchants.username, "enginebench"));
    const walletAddress = "0x000000000000000000000000000000000000bEEF" as Address;
    await createWallet(
      request("POST", "/api/merchant-wallets/", {
        token: tokens.access,
        body: { blockchain: chain.id, wallet_address: walletAddress, confirmation_threshold: 1 },
      }),
      noParams,
    );
    const merchantId = (await db.select().from(merchants).where(eq(merchants.username, "enginebench")))[0]!.id;
    const usdc = chain.tokens.find((t) => t.symbol === "USDC")!;
    const native = chain.tokens.find((t) => t.address === null)!;
    let nonce = 1;
    const pay = async () => {
      const ids: string[] = [];
      for (const [amount, currency, token, units] of [
        ["1", "USDC", usdc, 1_000_000n],
        ["1", "USDC", usdc, 1_000_000n],
        ["0.001", "ETH", native, 1_000_000_000_000_000n],
      ] as const) {
        const res = await createOrderRoute(
          request("POST", "/api/payment-orders/", { token: tokens.access, body: { amount, currency, blockchain: "base", order_info: "{}", nonce: nonce++ } }),
          noParams,
        );
        const order = (await res.json()).data;
        await sendFromFaucet(chain, token, order.receiving_address, units);
        ids.push(order.order_id);
      }
      return ids;
    };

    const { client, counter } = countingClient(chain, devnet.rpcUrl);
    // A chain with a past: 100,000 blocks, the history's transfers and sweeps in the first half (deep, final).
    await mineBlocks(chain, 100_000);
    await seedHistory(db, merchantId, chain, 100_000);
    const results: TickFigures[] = [];
    let seeded = 0;
    for (const size of openSizes) {
      // The previous size's payments out of the reorg re-check window first (each size starts from the same recent past).
      if (seeded > 0) await mineBlocks(chain, 200);
      await seedOpenOrders(db, merchantId, chain, seeded + 1, size);
      seeded = size;
      await db.execute(sql`analyze`);
      const figures = await measureTicks(db, counted.db, proxy.counts, chain, client, counter, size, pay);
      results.push(figures);
      console.log(`(open ${size}: ${figures.methods}) ${JSON.stringify({ ...figures, methods: undefined })}`);
    }

    const base = results[0]!;
    const ratio = (a: number, b: number) => (b > 0 ? `×${fmt(a / b, 2)}` : "–");
    console.log(`\n## Engine at scale: one chain (hardhat devnet), PostgreSQL, 100,000 settled orders of history, ${ticksPerSize} one-block ticks per size`);
    console.log(
      "| open orders | RPC calls per block p50 (max) | SQL statements per tick p50 (max) | chain tick p50 | chain tick p99 | sweeper pass p50 | sweeper pass p99 | paid → confirmed |",
    );
    console.log("|---|---|---|---|---|---|---|---|");
    for (const r of results) {
      console.log(
        `| ${r.open.toLocaleString("en-US")} | ${fmt(r.rpcPerBlock.p50, 1)} (${fmt(r.rpcPerBlock.max, 0)}) | ${r.sqlPerTick.p50} (${r.sqlPerTick.max}) | ${fmt(r.tickMs.p50, 1)} ms | ${fmt(r.tickMs.p99, 1)} ms | ${fmt(r.sweepMs.p50, 1)} ms | ${fmt(r.sweepMs.p99, 1)} ms | ${r.confirmed} of ${r.paid} |`,
      );
    }
    const last = results.at(-1)!;
    if (results.length > 1) {
      console.log(
        `ratio ${last.open.toLocaleString("en-US")} / ${base.open.toLocaleString("en-US")}: RPC per block ${ratio(last.rpcPerBlock.p50, base.rpcPerBlock.p50)}, SQL per tick ${ratio(last.sqlPerTick.p50, base.sqlPerTick.p50)}, tick p50 ${ratio(last.tickMs.p50, base.tickMs.p50)}, sweeper p50 ${ratio(last.sweepMs.p50, base.sweepMs.p50)}`,
      );
    }
  } finally {
    setDevnetRpcUrl(undefined);
    await devnet.stop();
    await counted.close();
    await proxy.close();
    await database.close();
  }
}

/** Delivered (succeeded) rows `from..to` in one statement: a year of history, 2 KB-ish bodies cut short to keep the seed fast. */
async function seedDelivered(db: Db, merchantId: number, endpointId: number, from: number, to: number) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`
      insert into webhook_deliveries (message_id, merchant_id, event_id, endpoint_id, event_type, url, body, status, attempts, next_attempt_at, last_status_code, completed_at, created_at, updated_at)
      select 'msg_d' || g, ${merchantId}, null, ${endpointId}, 'payment.confirmed', 'https://shop.example.com/hooks',
        '{"type":"payment.confirmed","data":{"order_id":"ORD-' || g || '"}}', 'succeeded', 1, null, 200,
        now() - make_interval(secs => g * 3), now() - make_interval(secs => g * 3), now() - make_interval(secs => g * 3)
      from generate_series(${from}::int, ${to}::int) g`);
  });
}

async function runOutboxClaim(): Promise<void> {
  const database = await createBenchDatabase("outbox");
  try {
    const db = database.db;
    const account = { username: "outboxbench", email: "outbox@example.com", password: "bench-password", shop_name: "Bench" };
    await register(request("POST", "/api/auth/register", { body: account }), noParams);
    const merchantId = (await db.select().from(merchants).where(eq(merchants.username, "outboxbench")))[0]!.id;
    const [endpoint] = rowsOf(
      await db.execute(
        sql`insert into webhook_endpoints (merchant_id, url, events, secret, created_at, updated_at) values (${merchantId}, 'https://shop.example.com/hooks', '{}', 'whsec_bench', now(), now()) returning id`,
      ),
    );
    const endpointId = Number(endpoint!.id);
    const results: Array<{ delivered: number; p50: number; p99: number; claimed: number; plan: string; seedSeconds: number }> = [];
    let seeded = 0;
    let due = 0;
    for (const size of deliveredSizes) {
      const seedStarted = performance.now();
      if (size > seeded) await seedDelivered(db, merchantId, endpointId, seeded + 1, size);
      seeded = size;
      await db.execute(sql`vacuum analyze webhook_deliveries`);
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      const times: number[] = [];
      let claimed = 0;
      for (let i = 0; i < 30; i++) {
        // Five due deliveries each round (new events), claimed then recorded as delivered: what a worker does.
        await db.execute(sql`
          insert into webhook_deliveries (message_id, merchant_id, endpoint_id, event_type, url, body, status, attempts, next_attempt_at, created_at, updated_at)
          select 'msg_due' || ${due}::int || 'x' || g, ${merchantId}::int, ${endpointId}::int, 'payment.confirmed', 'https://shop.example.com/hooks', '{}', 'pending', 0, now() - interval '1 second', now(), now()
          from generate_series(1, 5) g`);
        due++;
        const now = new Date();
        const started = performance.now();
        const rows = await claimDueDeliveries(db, now, new Date(now.getTime() + 60_000), 64, { perReceiver: 16 });
        times.push(performance.now() - started);
        claimed += rows.length;
        if (rows.length)
          await db.execute(sql`update webhook_deliveries set status = 'succeeded', completed_at = now() where id in ${rows.map((r) => r.delivery.id)}`);
      }
      const plan = rowsOf(
        await db.execute(
          sql`explain select id from webhook_deliveries d where d.status = 'pending' and d.next_attempt_at <= now() order by d.next_attempt_at, d.id limit 64`,
        ),
      )
        .map((r) => String(r["QUERY PLAN"]).trim())
        .filter((line) => /Scan|Index Cond|Filter/.test(line))
        .join(" / ");
      times.sort((a, b) => a - b);
      results.push({ delivered: size, p50: percentile(times, 50), p99: percentile(times, 99), claimed, plan, seedSeconds });
    }
    const base = results[0]!;
    console.log("\n## Webhook outbox: claiming 5 due deliveries among delivered history (PostgreSQL, 30 claims each)");
    console.log("| delivered rows | claim p50 | claim p99 | ratio p50 to 0 | claimed | seed s | plan of the due scan |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of results) {
      console.log(
        `| ${r.delivered.toLocaleString("en-US")} | ${fmt(r.p50, 2)} ms | ${fmt(r.p99, 2)} ms | ×${fmt(r.p50 / base.p50, 2)} | ${r.claimed} | ${fmt(r.seedSeconds, 0)} | ${r.plan} |`,
      );
    }
  } finally {
    await database.close();
  }
}

export async function runEngineScaleBench(): Promise<void> {
  if (process.env.ENGINE_SCALE_PART !== "outbox") await runEngineTicks();
  if (process.env.ENGINE_SCALE_PART !== "ticks") await runOutboxClaim();
}
