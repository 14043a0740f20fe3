import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { GET as listEventsRoute } from "@/app/api/events/route";
import { POST as createApiKeyRoute } from "@/app/api/api-keys/route";
import { POST as createWalletRoute } from "@/app/api/merchant-wallets/route";
import { GET as listOrdersRoute, POST as createOrderRoute } from "@/app/api/payment-orders/route";
import { GET as listTransactionsRoute } from "@/app/api/transactions/route";
import { GET as listDeliveriesRoute } from "@/app/api/webhook-endpoints/[id]/deliveries/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { ordersCsvStream } from "@/lib/dashboard/orders-csv";
import { loadOverview } from "@/lib/dashboard/overview";
import { rowsOf } from "@/lib/db/map-row";
import { merchants } from "@/lib/db/schema";
import { foldAllListCounts } from "@/lib/db/list-counts";
import { foldAllOrderDayTotals, searchOrders } from "@/lib/orders/queries";
import { createBenchDatabase, fmt, noParams, openKeptBenchDatabase, percentile, request } from "./support";

/**
 * `npm run bench -- scale`: one merchant's lists at 1 k, 100 k and 1 M orders (SCALE_MAX caps the
 * largest size, e.g. SCALE_MAX=100000 for a quick run; SCALE_SAMPLES the requests per figure).
 * History is seeded in bulk (INSERT … SELECT generate_series) with transactions, events and
 * deliveries; each size adds OLDER history to the same merchant, one order every ~63 s back from
 * now (1 M orders ≈ two years), so the recent days look the same at every size.
 * SCALE_KEEP=1 keeps the database at the end (its URL printed); SCALE_DATABASE_URL=<that URL>
 * re-measures it without seeding (its size only), e.g. after a migration adds an index.
 * SCALE_SIZES=1000,1000000 picks the sizes (ascending; default 1 k, 100 k, 1 M); SCALE_DATABASE_NAME
 * names the seeded database instead of a random gw_bench_scale_… name.
 *
 * Then, in a database of its own, one merchant's history made through the API (POST
 * /api/payment-orders/ with an API key, four at a time: the ids, created_at (milliseconds, ties when
 * two land in the same one), nonces and list counts the route gives), at SCALE_API_SIZES orders
 * (default 1000,20000; 0 skips), read with that API key. Nothing analyzes it, as nothing does where
 * autovacuum is off or behind (this machine's PostgreSQL) or absent (PGlite): the planner has no
 * statistics for it (issue 51 item 6).
 */
const sizes = (process.env.SCALE_SIZES ? process.env.SCALE_SIZES.split(",").map(Number) : [1_000, 100_000, 1_000_000])
  .sort((a, b) => a - b)
  .filter((n) => n <= Number(process.env.SCALE_MAX ?? 1_000_000));
const samples = Number(process.env.SCALE_SAMPLES ?? 30);
const apiSizes = (process.env.SCALE_API_SIZES ?? "1000,20000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
/** Seconds between two orders (1 M orders over about two years). */
const orderSpacingSeconds = 63;

/** A full garbage collection, so heap samples show what is kept rather than garbage not yet collected (exposes `gc` once). */
function forceGc(): void {
  if (!global.gc) {
    setFlagsFromString("--expose-gc");
    global.gc = runInNewContext("gc") as typeof global.gc;
  }
  global.gc!();
}

type Probe = { name: string; run: () => Promise<void> };

/** Orders seeded per transaction: bounded WAL, memory and trigger transition tables, and a progress line per batch. */
const seedBatchOrders = 100_000;

/** Seeds orders `from..to` batch by batch (a progress line each), folds the per-day totals and vacuums; the seconds each step took. */
async function seedOrders(database: Awaited<ReturnType<typeof createBenchDatabase>>, merchantId: number, endpointId: number, from: number, to: number) {
  const started = performance.now();
  for (let batchFrom = from; batchFrom <= to; batchFrom += seedBatchOrders) {
    const batchTo = Math.min(to, batchFrom + seedBatchOrders - 1);
    const steps = await seedOrderBatch(database, merchantId, endpointId, batchFrom, batchTo);
    const batchSeconds = steps.reduce((sum, [, seconds]) => sum + seconds, 0);
    console.log(
      `  seeded orders ${batchFrom}..${batchTo} in ${fmt(batchSeconds, 1)} s (${steps.map(([step, seconds]) => `${step} ${fmt(seconds, 1)}`).join(", ")}); ` +
        `${fmt((performance.now() - started) / 1000, 0)} s since ${from}`,
    );
  }
  // The overview's per-day totals and the lists' counts take in the seeded rows as the fold task would (every 30 s).
  let stepStarted = performance.now();
  const folded = await foldAllOrderDayTotals(database.db);
  const counted = await foldAllListCounts(database.db);
  console.log(`  folded ${folded} per-day total and ${counted} list count changes in ${fmt((performance.now() - stepStarted) / 1000, 1)} s`);
  // As autovacuum would have left a long-lived table: statistics, and the visibility map index-only scans need.
  // Its own connection without the pool's statement_timeout: at 1 M orders it runs for minutes (VACUUM cannot `set local`).
  stepStarted = performance.now();
  const vacuum = postgres(database.url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 0, maintenance_work_mem: "512MB" } });
  try {
    await vacuum.unsafe("vacuum analyze");
  } finally {
    await vacuum.end();
  }
  console.log(`  vacuum analyze in ${fmt((performance.now() - stepStarted) / 1000, 1)} s`);
}

/** One transaction seeding orders `from..to` with their transfers, events and deliveries; each statement's seconds. */
async function seedOrderBatch(database: Awaited<ReturnType<typeof createBenchDatabase>>, merchantId: number, endpointId: number, from: number, to: number) {
  const steps: [string, number][] = [];
  await database.db.transaction(async (db) => {
    const step = async (name: string, statement: ReturnType<typeof sql>) => {
      const stepStarted = performance.now();
      await db.execute(statement);
      steps.push([name, (performance.now() - stepStarted) / 1000]);
    };
    // A seeding session only: no statement timeout (minutes at 1 M rows), no wait for the WAL flush at
    // commit (a crash loses a bench database), memory for the sorts and the trigram index's pending list.
    await db.execute(sql`set local statement_timeout = 0`);
    await db.execute(sql`set local synchronous_commit = off`);
    await db.execute(sql`set local work_mem = '256MB'`);
    await db.execute(sql`set local maintenance_work_mem = '512MB'`);
    await db.execute(sql`set local gin_pending_list_limit = '64MB'`);
    // Orders g = from..to, order g created g*63 s before now; the newest 150 still open. Paid orders
    // have received their amount from the start (an UPDATE afterwards rewrote every paid row and its index entries).
    await step(
      "orders",
      sql`
      insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
        failure_reason, receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at,
        confirmed_at, payment_tolerance_bps, created_at, updated_at)
      select 'ORD-' || lpad(to_hex(g), 12, '0') || substr(md5(g::text), 1, 8), ${merchantId}, g, (1 + g % 5)::int,
        case when g % 3 = 0 then 'ETH' else 'USDC' end,
        case when g % 3 = 0 then null else '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' end,
        case when g % 3 = 0 then 18 else 6 end,
        v.amount,
        case when v.status in ('confirmed', 'processing') then v.amount else 0 end,
        v.status,
        case when g > 150 and (g * 31) % 100 >= 95 then 'underpaid' end,
        '0x' || md5('addr' || g) || substr(md5('a2' || g), 1, 8), '0x' || md5('wallet') || '00000000', '0x' || md5('salt' || g) || md5('s2' || g),
        '0x' || md5('factory') || '00000000',
        '{"sku":"SKU-' || (g % 977) || '","customer":"cus_' || md5('c' || (g % 50000)) || '","note":"order ' || g || '"}',
        3, now() - make_interval(secs => g * ${orderSpacingSeconds}) + interval '30 minutes',
        case when g > 150 and (g * 31) % 100 < 70 then now() - make_interval(secs => g * ${orderSpacingSeconds}) + interval '2 minutes' end,
        0, now() - make_interval(secs => g * ${orderSpacingSeconds}), now() - make_interval(secs => g * ${orderSpacingSeconds})
      from generate_series(${from}::bigint, ${to}::bigint) g
      cross join lateral (select
        case when g % 3 = 0 then ((1 + (g * 7919) % 5000) * 1000000000000)::numeric else ((1 + (g * 104729) % 500000) * 10000)::numeric end as amount,
        case when g <= 100 then 'pending' when g <= 150 then 'processing' when (g * 31) % 100 < 70 then 'confirmed' when (g * 31) % 100 < 95 then 'expired' else 'failed' end
          as status) v`,
    );
    // The rows below reference rows that exist by construction: a superuser skips the foreign-key
    // checks (row triggers) as pg_restore --disable-triggers does, unless a table has a trigger of its own.
    const [replica] = rowsOf(
      await db.execute(sql`
        select current_setting('is_superuser') = 'on' and not exists (
          select 1 from pg_trigger where not tgisinternal and tgrelid in ('transactions'::regclass, 'order_events'::regclass, 'webhook_deliveries'::regclass)
        ) as allowed`),
    );
    if (replica?.allowed) await db.execute(sql`set local session_replication_role = replica`);
    // One transfer per paid, processing or underpaid order.
    await step(
      "transactions",
      sql`
      insert into transactions (blockchain_id, tx_hash, log_index, block_number, block_hash, block_timestamp, from_address, to_address, token_address,
        currency, amount, status, payment_order_id, merchant_id, counted, created_at, updated_at)
      select o.blockchain_id, '0x' || md5('tx' || o.nonce) || md5('tx2' || o.nonce), case when o.token_address is null then -1 else 0 end,
        10000000 + o.nonce, '0x' || md5('b' || o.nonce) || md5('b2' || o.nonce), o.created_at + interval '1 minute',
        '0x' || md5('payer' || (o.nonce % 10000)) || '00000000', o.receiving_address, o.token_address, o.currency,
        case when o.status = 'failed' then o.amount / 2 else o.amount end,
        case when o.status = 'processing' then 'pending' else 'confirmed' end, o.id, o.merchant_id, true,
        o.created_at + interval '1 minute', o.created_at + interval '1 minute'
      from payment_orders o where o.merchant_id = ${merchantId} and o.nonce between ${from} and ${to} and o.status in ('confirmed', 'processing', 'failed')`,
    );
    // Events: every settled order has its final event; paid ones a payment.pending before it. Each event delivered once.
    await step(
      "events+deliveries",
      sql`
      with events as (
        insert into order_events (id, merchant_id, payment_order_id, type, sequence, data, created_at)
        select 'evt_' || md5(o.id || '-' || e.seq), o.merchant_id, o.id, e.type, e.seq,
          jsonb_build_object('id', o.id, 'order_id', o.order_id, 'status', o.status, 'amount', o.amount::text, 'currency', o.currency,
            'receiving_address', o.receiving_address, 'order_info', o.order_info, 'created_at', o.created_at),
          o.created_at + make_interval(secs => e.seq * 60)
        from payment_orders o
        cross join lateral (values
          (1, case when o.status in ('confirmed', 'processing') then 'payment.pending' when o.status = 'expired' then 'payment.expired' else 'payment.failed' end),
          (2, case when o.status = 'confirmed' then 'payment.confirmed' end)) as e(seq, type)
        where o.merchant_id = ${merchantId} and o.nonce between ${from} and ${to} and o.status <> 'pending' and e.type is not null
        returning *
      )
      insert into webhook_deliveries (message_id, merchant_id, event_id, endpoint_id, event_type, url, body, status, attempts, last_status_code,
        completed_at, created_at, updated_at)
      select 'msg_' || substr(e.id, 5), e.merchant_id, e.id, ${endpointId}, e.type, 'https://shop.example.com/hooks',
        jsonb_build_object('id', e.id, 'event', e.type, 'created_at', e.created_at, 'sequence', e.sequence, 'data', e.data)::text,
        'succeeded', 1, 200, e.created_at + interval '1 second', e.created_at, e.created_at + interval '1 second'
      from events e`,
    );
  });
  return steps;
}

async function timeProbe(probe: Probe): Promise<{ p50: number; p99: number }> {
  await probe.run(); // warm (plans, caches)
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await probe.run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function runScaleBench(): Promise<void> {
  // SCALE_DATABASE_URL: a database an earlier run kept (SCALE_KEEP=1), re-measured as it is (migrations brought up to date), not re-seeded.
  const keptUrl = process.env.SCALE_DATABASE_URL;
  const database = keptUrl
    ? await openKeptBenchDatabase(keptUrl)
    : await createBenchDatabase("scale", { keep: process.env.SCALE_KEEP === "1", name: process.env.SCALE_DATABASE_NAME });
  try {
    const account = { username: "scale", email: "scale@example.com", password: "bench-password", shop_name: "Scale" };
    if (!keptUrl) await register(request("POST", "/api/auth/register", { body: account }), noParams);
    const tokens = (await (await login(request("POST", "/api/auth/login", { body: account }), noParams)).json()) as { access: string };
    await database.db.update(merchants).set({ plan: "enterprise", rateLimitPerHour: 100_000_000 }).where(eq(merchants.username, "scale"));
    const [merchant] = rowsOf(await database.db.execute(sql`select id from merchants where username = 'scale'`));
    const merchantId = Number(merchant!.id);
    const [endpoint] = keptUrl
      ? rowsOf(await database.db.execute(sql`select id from webhook_endpoints where merchant_id = ${merchantId} order by id limit 1`))
      : rowsOf(
          await database.db.execute(sql`
            insert into webhook_endpoints (merchant_id, url, events, secret, created_at, updated_at)
            values (${merchantId}, 'https://shop.example.com/hooks', '{}', 'whsec_bench', now() - interval '3 years', now() - interval '3 years') returning id`),
        );
    const endpointId = Number(endpoint!.id);
    const [kept] = keptUrl ? rowsOf(await database.db.execute(sql`select count(*)::int as orders from payment_orders where merchant_id = ${merchantId}`)) : [];
    const measuredSizes = kept ? [Number(kept.orders)] : sizes;
    if (kept) {
      console.log(
        `Re-measuring the kept database ${keptUrl} (${kept.orders} orders) without seeding: its size only, ratios are to itself (compare with a full run's ${sizes[0]} column)`,
      );
      // Statistics for indexes a newer migration may have added (expression indexes have their own).
      const analyze = postgres(keptUrl!, { max: 1, onnotice: () => {}, connection: { statement_timeout: 0 } });
      try {
        await analyze.unsafe("analyze");
      } finally {
        await analyze.end();
      }
    }

    const api =
      (handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>, path: string, params: Record<string, string> = {}) =>
      async () => {
        const res = await handler(request("GET", path, { token: tokens.access }), { params: Promise.resolve(params) });
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      };
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    const probes = (size: number): Probe[] => [
      { name: "orders", run: api(listOrdersRoute, "/api/payment-orders/") },
      { name: "orders ?status=pending&blockchain=base", run: api(listOrdersRoute, "/api/payment-orders/?status=pending&blockchain=base") },
      { name: "orders ?status=confirmed", run: api(listOrdersRoute, "/api/payment-orders/?status=confirmed") },
      { name: "orders ?currency=usdc", run: api(listOrdersRoute, "/api/payment-orders/?currency=usdc") },
      { name: "orders ?page=20", run: api(listOrdersRoute, "/api/payment-orders/?page=20") },
      { name: `orders last page (page ${Math.ceil(size / 20)})`, run: api(listOrdersRoute, `/api/payment-orders/?page=${Math.ceil(size / 20)}`) },
      { name: "orders ?ordering=created_at", run: api(listOrdersRoute, "/api/payment-orders/?ordering=created_at") },
      { name: "orders ?ordering=-amount", run: api(listOrdersRoute, "/api/payment-orders/?ordering=-amount") },
      { name: "orders ?ordering=status", run: api(listOrdersRoute, "/api/payment-orders/?ordering=status") },
      { name: "orders ?nonce=500", run: api(listOrdersRoute, "/api/payment-orders/?nonce=500") },
      { name: "events", run: api(listEventsRoute, "/api/events/") },
      { name: "events ?event=payment.confirmed", run: api(listEventsRoute, "/api/events/?event=payment.confirmed") },
      { name: "events ?page=20", run: api(listEventsRoute, "/api/events/?page=20") },
      { name: "transactions", run: api(listTransactionsRoute, "/api/transactions/") },
      { name: "transactions ?status=confirmed&blockchain=base", run: api(listTransactionsRoute, "/api/transactions/?status=confirmed&blockchain=base") },
      { name: "deliveries", run: api(listDeliveriesRoute, `/api/webhook-endpoints/${endpointId}/deliveries/`, { id: String(endpointId) }) },
      {
        name: "deliveries ?status=failed",
        run: api(listDeliveriesRoute, `/api/webhook-endpoints/${endpointId}/deliveries/?status=failed`, { id: String(endpointId) }),
      },
      { name: "dashboard overview", run: async () => void (await loadOverview(database.db, merchantId)) },
      { name: "dashboard orders", run: async () => void (await searchOrders(database.db, merchantId, {}, { limit: 25, offset: 0 })) },
      {
        name: "dashboard orders ?status=expired",
        run: async () => void (await searchOrders(database.db, merchantId, { status: "expired" }, { limit: 25, offset: 0 })),
      },
      { name: "dashboard search q=SKU-12", run: async () => void (await searchOrders(database.db, merchantId, { q: "SKU-12" }, { limit: 25, offset: 0 })) },
      {
        name: "dashboard search q=<order id>",
        run: async () => void (await searchOrders(database.db, merchantId, { q: "ORD-0000000001f4" }, { limit: 25, offset: 0 })),
      },
      { name: "dashboard search q=nonce 500", run: async () => void (await searchOrders(database.db, merchantId, { q: "500" }, { limit: 25, offset: 0 })) },
      {
        name: "dashboard orders last 7 days",
        run: async () => void (await searchOrders(database.db, merchantId, { from: lastWeek }, { limit: 25, offset: 0 })),
      },
    ];

    const results = new Map<string, Map<number, { p50: number; p99: number }>>();
    const extras: string[] = [];
    let seeded = 0;
    /** The table so far (printed after each size, so a failure at a larger size keeps what was measured). */
    const printTable = () => {
      console.log(`\nScale: one merchant's lists on PostgreSQL, p50 / p99 ms of ${samples} sequential requests (ratio of p50 to the ${measuredSizes[0]} case)`);
      console.log(["request".padEnd(48), ...measuredSizes.map((s) => `${s} orders`.padStart(30))].join(""));
      for (const [name, bySize] of results) {
        const base = bySize.get(measuredSizes[0]!)!.p50;
        const cells = measuredSizes.map((s) => {
          const f = bySize.get(s);
          return (f ? `${fmt(f.p50)} / ${fmt(f.p99)} (x${fmt(f.p50 / base, 1)})` : "-").padStart(30);
        });
        console.log([name.padEnd(48), ...cells].join(""));
      }
      for (const line of extras) console.log(line);
    };
    for (const size of measuredSizes) {
      const started = performance.now();
      if (!kept) {
        console.log(`Seeding orders ${seeded + 1}..${size}`);
        await seedOrders(database, merchantId, endpointId, seeded + 1, size);
      }
      seeded = size;
      const seconds = (performance.now() - started) / 1000;
      const [bytes] = rowsOf(await database.db.execute(sql`select pg_database_size(current_database()) as bytes`));
      extras.push(
        `${size} orders: ${kept ? "kept, not re-seeded" : `seeded in ${fmt(seconds, 1)} s`}; database ${fmt(Number(bytes!.bytes) / 2 ** 20, 0)} MiB = ${fmt(Number(bytes!.bytes) / size / 1024, 2)} KiB per order`,
      );
      for (const probe of probes(size)) {
        const name = probe.name.replace(/ \(page \d+\)/, "");
        const figures = await timeProbe(probe);
        if (!results.has(name)) results.set(name, new Map());
        results.get(name)!.set(size, figures);
      }
      // What the last page by number answered: the count it is numbered against (exact: the maintained count) and its rows.
      {
        const last = Math.ceil(size / 20);
        const res = await listOrdersRoute(request("GET", `/api/payment-orders/?page=${last}`, { token: tokens.access }), { params: Promise.resolve({}) });
        const body = (await res.json()) as { data?: { count: number; results: unknown[] }; count?: number; results?: unknown[] };
        const listBody = body.data ?? body;
        extras.push(`${size} orders: last page (page ${last}) answered count ${listBody.count} with ${listBody.results?.length} rows`);
      }
      // The CSV export of everything (the longest range the form takes), read to its end: its time, and
      // the heap it keeps (sampled after a forced GC every 10 chunks: constant when it streams) and the process RSS.
      const exportRange = { from: new Date(Date.now() - 366 * 86_400_000), to: new Date(Date.now() + 86_400_000) };
      forceGc();
      const heapBefore = process.memoryUsage().heapUsed;
      const rssBefore = process.memoryUsage().rss;
      const heapSamples: number[] = [];
      let peakRss = rssBefore;
      let rows = 0;
      let chunks = 0;
      let exportMs = 0;
      let lapStarted = performance.now();
      const reader = ordersCsvStream(database.db, merchantId, exportRange).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) rows++;
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        if (++chunks % 10 === 0) {
          exportMs += performance.now() - lapStarted;
          forceGc();
          heapSamples.push(process.memoryUsage().heapUsed - heapBefore);
          lapStarted = performance.now();
        }
      }
      exportMs += performance.now() - lapStarted;
      const mib = (bytes: number) => fmt(bytes / 2 ** 20, 1);
      const quarter = Math.max(1, Math.floor(heapSamples.length / 4));
      extras.push(
        `${size} orders: CSV export of the last 366 days: ${rows - 1} rows in ${fmt(exportMs / 1000, 2)} s (GC pauses excluded); ` +
          `heap kept after GC (growth over the start) first quarter ${mib(Math.max(...heapSamples.slice(0, quarter), 0))} MiB, last quarter ${mib(Math.max(...heapSamples.slice(-quarter), 0))} MiB` +
          ` (${heapSamples.length} samples); RSS growth at most ${mib(peakRss - rssBefore)} MiB`,
      );
      if (size !== measuredSizes[measuredSizes.length - 1]) printTable();
    }

    printTable();
  } finally {
    await database.close();
  }
  if (apiSizes.length) await measureApiHistory();
}

type ListBody = { next: string | null; count: number; results: unknown[] };

/** Orders made through POST /api/payment-orders/ at the same time: ties on created_at (milliseconds) when two land together. */
const apiCreators = 4;

/**
 * A new merchant's history made through the API, measured at each of `apiSizes`: its first page, pages 2
 * and 20 by number, page 2 by its `next` link, and the last page, read with its API key.
 */
async function measureApiHistory(): Promise<void> {
  const database = await createBenchDatabase("scale_api", { keep: process.env.SCALE_KEEP === "1" });
  try {
    await measureApiHistoryIn(database);
  } finally {
    await database.close();
  }
}

async function measureApiHistoryIn(database: Awaited<ReturnType<typeof createBenchDatabase>>): Promise<void> {
  const account = { username: "scaleapi", email: "scale-api@example.com", password: "bench-password", shop_name: "Scale API" };
  await register(request("POST", "/api/auth/register", { body: account }), noParams);
  const { access } = (await (await login(request("POST", "/api/auth/login", { body: account }), noParams)).json()) as { access: string };
  await database.db.update(merchants).set({ plan: "enterprise", rateLimitPerHour: 100_000_000 }).where(eq(merchants.username, account.username));
  const wallet = await createWalletRoute(
    request("POST", "/api/merchant-wallets/", {
      token: access,
      body: { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF", confirmation_threshold: 1 },
    }),
    noParams,
  );
  if (wallet.status !== 201) throw new Error(`wallet: ${wallet.status} ${await wallet.text()}`);
  const keyAnswer = await createApiKeyRoute(request("POST", "/api/api-keys/", { token: access, body: { name: "scale", preset: "full_access" } }), noParams);
  const key = ((await keyAnswer.json()) as { data: { key: string } }).data.key;
  const [merchant] = rowsOf(await database.db.execute(sql`select id from merchants where username = ${account.username}`));
  const merchantId = Number(merchant!.id);

  const get = (path: string) => async () => {
    const res = await listOrdersRoute(request("GET", path, { token: key }), noParams);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { data?: ListBody } & ListBody;
    return body.data ?? body;
  };
  const results = new Map<string, Map<number, { p50: number; p99: number }>>();
  const extras: string[] = [];
  let made = 0;
  for (const size of apiSizes) {
    const started = performance.now();
    const create = async () => {
      while (made < size) {
        const nonce = ++made;
        const body = {
          amount: `${1 + (nonce % 97)}.5`,
          currency: nonce % 3 ? "USDC" : "ETH",
          blockchain: "base",
          order_info: `{"sku":"SKU-${nonce % 977}"}`,
          nonce,
        };
        const res = await createOrderRoute(request("POST", "/api/payment-orders/", { token: key, body }), noParams);
        if (res.status !== 201) throw new Error(`POST order answered ${res.status}: ${await res.text()}`);
      }
    };
    await Promise.all(Array.from({ length: apiCreators }, create));
    // The list counts take in the new orders as the fold task would (every 30 s); no ANALYZE.
    await foldAllListCounts(database.db);
    const [ties] = rowsOf(
      await database.db.execute(sql`select count(*)::int - count(distinct created_at)::int as tied from payment_orders where merchant_id = ${merchantId}`),
    );
    const [plan] = rowsOf(await database.db.execute(sql`explain (format json) select 1 from payment_orders where merchant_id = ${merchantId}`));
    const planJson = plan!["QUERY PLAN"];
    const estimate = ((typeof planJson === "string" ? JSON.parse(planJson) : planJson) as Array<{ Plan: { "Plan Rows": number } }>)[0]!.Plan["Plan Rows"];
    extras.push(
      `${size} API orders: made in ${fmt((performance.now() - started) / 1000, 1)} s, ${apiCreators} at a time; ${ties!.tied} share a created_at with another; the planner estimates the merchant's orders at ${estimate}`,
    );
    const last = Math.ceil(size / 20);
    const cursorPage2 = (await get("/api/payment-orders/")()).next!;
    const probes: Probe[] = [
      { name: "orders", run: async () => void (await get("/api/payment-orders/")()) },
      { name: "orders ?page=2", run: async () => void (await get("/api/payment-orders/?page=2")()) },
      { name: "orders ?page=20", run: async () => void (await get("/api/payment-orders/?page=20")()) },
      { name: "orders page 2 by its next link", run: async () => void (await get(cursorPage2)()) },
      { name: "orders last page", run: async () => void (await get(`/api/payment-orders/?page=${last}`)()) },
      { name: "orders ?status=pending", run: async () => void (await get("/api/payment-orders/?status=pending")()) },
      { name: "orders ?ordering=-amount", run: async () => void (await get("/api/payment-orders/?ordering=-amount")()) },
    ];
    for (const probe of probes) {
      if (!results.has(probe.name)) results.set(probe.name, new Map());
      results.get(probe.name)!.set(size, await timeProbe(probe));
    }
  }
  console.log(
    `\nScale: a history made through the API (one merchant, a database of its own that nothing analyzed, read with its API key), p50 / p99 ms of ${samples} sequential requests (ratio of p50 to the ${apiSizes[0]} case)`,
  );
  console.log(["request".padEnd(48), ...apiSizes.map((s) => `${s} API orders`.padStart(30))].join(""));
  for (const [name, bySize] of results) {
    const base = bySize.get(apiSizes[0]!)!.p50;
    console.log(
      [
        name.padEnd(48),
        ...apiSizes.map((s) => {
          const f = bySize.get(s)!;
          return `${fmt(f.p50)} / ${fmt(f.p99)} (x${fmt(f.p50 / base, 1)})`.padStart(30);
        }),
      ].join(""),
    );
  }
  for (const line of extras) console.log(line);
}
