import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startCountingProxy, type WireCounts } from "./pg-count-proxy";
import { measureTreeCpu } from "./process-cpu";
import { createBenchDatabase, ensureProductionBuild, fmt, freePort, startNextServer } from "./support";

const connections = 32;
const durationSeconds = 10;
const warmupSeconds = 5;
/** Closed-loop rounds: each target is measured `rounds` times for `roundSeconds`, interleaved. */
const rounds = 3;
const roundSeconds = 5;
/** Open loop: offered requests per second, on a fixed schedule. */
const openLoopRate = 100;
const idleSeconds = 30;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  firstNonce?: number;
  connections: number;
  durationSeconds: number;
  openLoopRate?: number;
}

const tsxNode = (script: string, args: string[]) =>
  spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", script, ...args], { stdio: ["ignore", "pipe", "inherit"] });

/** The load generator in its own process (bench/load.ts), so it never shares an event loop with a server. */
function load(spec: LoadSpec): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = tsxNode("bench/load.ts", [JSON.stringify(spec)]);
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!) as Figures) : reject(new Error(`load generator exited ${code}`))));
  });
}

/** The bare node:http + postgres.js server (bench/bare-server.ts) in its own process. */
function startBareServer(databaseUrl: string, merchantId: number): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = tsxNode("bench/bare-server.ts", [databaseUrl, String(merchantId)]);
    child.stdout!.once("data", (chunk: Buffer) => resolve({ url: chunk.toString().trim(), child }));
    child.once("exit", (code) => reject(new Error(`bare server exited ${code}`)));
  });
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

let nextNonce = 1;
const nonces = (count: number) => {
  const first = nextNonce;
  nextNonce += count;
  return first;
};

const serverEnv = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
  GATEWAY_MODE: "sandbox",
  JOBS_DRIVER: "none",
  DEVNET: "off",
  LOG_LEVEL: "silent",
  RATE_LIMIT_STANDARD_PER_HOUR: "100000000",
};

const call = async <T = unknown>(url: string, method: string, body?: unknown, token?: string): Promise<T> => {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json().catch(() => null)) as T;
};

/**
 * `npm run bench -- orders`: order creation and authenticated requests on PostgreSQL, against the
 * framework's floor and a bare server, all in one run (the machine is shared: compare ratios).
 * First what each request sends to PostgreSQL, counted on the wire through a proxy; then
 * throughput and latency with every server straight on PostgreSQL (the proxy is one more process
 * relaying every byte, so it would tax whichever server talks to the database most). Then the
 * idle CPU of a sandbox `next start` (PGlite, devnet, local job driver).
 */
export async function runOrdersBench(): Promise<void> {
  await ensureProductionBuild();
  const database = await createBenchDatabase("orders");
  const proxy = await startCountingProxy(database.url);
  let server = await startNextServer({ ...serverEnv, DATABASE_URL: proxy.url(database.url) });
  let bare: { url: string; child: ChildProcess } | undefined;
  try {
    const account = { username: "orderbench", email: "orders@example.com", password: "bench-password", shop_name: "Bench" };
    await call(`${server.url}/api/auth/register`, "POST", account);
    const { access, user } = await call<{ access: string; user: { id: number } }>(`${server.url}/api/auth/login`, "POST", account);
    await call(`${server.url}/api/merchant-wallets/`, "POST", { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF", confirmation_threshold: 1 }, access);
    const key = (await call<{ data: { key: string } }>(`${server.url}/api/api-keys/`, "POST", { name: "bench", preset: "full_access" }, access)).data.key;
    const auth = { authorization: `Bearer ${key}` };
    const order = (await call<{ data: { order_id: string } }>(`${server.url}/api/payment-orders/`, "POST", orderBody(nonces(1)), key)).data.order_id;
    bare = await startBareServer(proxy.url(database.url), user.id);

    // What each request sends, counted on the wire: sequential requests, nothing else talks to the database.
    const perRequest = async (base: string, path: string, method: "GET" | "POST", withKey: boolean): Promise<WireCounts> => {
      const send = () => call(`${base}${path}`, method, method === "POST" ? orderBody(nonces(1)) : undefined, withKey ? key : undefined);
      for (let i = 0; i < 3; i++) await send();
      const before = proxy.counts();
      const n = 20;
      for (let i = 0; i < n; i++) await send();
      const after = proxy.counts();
      return { statements: (after.statements - before.statements) / n, roundTrips: (after.roundTrips - before.roundTrips) / n, parses: (after.parses - before.parses) / n };
    };
    const wire: Array<[string, WireCounts]> = [
      ["framework floor", await perRequest(server.url, "/api/nope", "GET", false)],
      ["GET /api/blockchains/ with key", await perRequest(server.url, "/api/blockchains/", "GET", true)],
      ["POST /api/payment-orders/", await perRequest(server.url, "/api/payment-orders/", "POST", true)],
      ["GET /api/payment-orders/{id}/", await perRequest(server.url, `/api/payment-orders/${order}/`, "GET", true)],
      ["GET /api/payment-orders/ (list)", await perRequest(server.url, "/api/payment-orders/?page_size=20", "GET", true)],
      ["GET /api/pay/{id}/ (public status)", await perRequest(server.url, `/api/pay/${order}/`, "GET", false)],
      ["bare GET with key check + counter", await perRequest(bare.url, "/api/blockchains/", "GET", true)],
      ["bare POST order", await perRequest(bare.url, "/api/payment-orders/", "POST", true)],
    ];
    await server.stop();
    await stopChild(bare.child);

    // Throughput and latency: fresh processes straight on PostgreSQL.
    server = await startNextServer({ ...serverEnv, DATABASE_URL: database.url });
    bare = await startBareServer(database.url, user.id);
    // Closed loop: each warmed up once, then measured in interleaved rounds (the machine is shared
    // and its load drifts: interleaving puts every target under the same drift), median per target.
    const targets = {
      floor: { url: `${server.url}/api/nope`, method: "GET" as const, headers: {} },
      get: { url: `${server.url}/api/blockchains/`, method: "GET" as const, headers: auth },
      post: { url: `${server.url}/api/payment-orders/`, method: "POST" as const, headers: auth },
      getOrder: { url: `${server.url}/api/payment-orders/${order}/`, method: "GET" as const, headers: auth },
      payStatus: { url: `${server.url}/api/pay/${order}/`, method: "GET" as const, headers: {} },
      bareGet: { url: `${bare.url}/api/blockchains/`, method: "GET" as const, headers: auth },
      barePost: { url: `${bare.url}/api/payment-orders/`, method: "POST" as const, headers: auth },
    };
    type Target = keyof typeof targets;
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as Figures[]])) as Record<Target, Figures[]>;
    const run = (name: Target, seconds: number) => load({ ...targets[name], firstNonce: nonces(1_000_000), connections, durationSeconds: seconds });
    for (const name of Object.keys(targets) as Target[]) await run(name, warmupSeconds);
    for (let round = 0; round < rounds; round++) for (const name of Object.keys(targets) as Target[]) samples[name].push(await run(name, roundSeconds));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const summary = (list: Figures[]): Figures => ({
      requestsPerSecond: median(list.map((f) => f.requestsPerSecond)),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
      non2xx: list.reduce((n, f) => n + f.non2xx, 0),
      errors: list.reduce((n, f) => n + f.errors, 0),
    });
    const figures = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, summary(list)])) as Record<Target, Figures>;
    const { floor, get, post, getOrder, payStatus, bareGet, barePost } = figures;
    const openLoop = (name: "post" | "barePost") => load({ ...targets[name], firstNonce: nonces(1_000_000), connections: 64, durationSeconds, openLoopRate });
    const open = await openLoop("post");
    const bareOpen = await openLoop("barePost");

    const ratio = (a: Figures, b: Figures) => fmt(a.requestsPerSecond / b.requestsPerSecond);
    const line = (label: string, f: Figures, ratios = "") =>
      console.log(`| ${label} | ${fmt(f.requestsPerSecond, 0)} | ${f.p50} | ${f.p99} | ${f.non2xx + f.errors} | ${ratios} |`);
    console.log(
      `\n## Orders and authenticated requests (PostgreSQL, autocannon ${connections} connections; medians of ${rounds} interleaved rounds of ${roundSeconds} s, one run)`,
    );
    console.log("| what | req/s | p50 ms | p99 ms | non-2xx/errors | ratios |");
    console.log("|---|---|---|---|---|---|");
    line("bare node:http + postgres.js, GET with key check + counter", bareGet);
    line("bare node:http + postgres.js, POST order (wallet + insert)", barePost);
    line("next start, unknown /api path (framework floor)", floor);
    line("next start, GET /api/blockchains/ with API key", get, `floor ${ratio(get, floor)}× (target ≥ 0.8), bare GET ${ratio(get, bareGet)}×`);
    line("next start, POST /api/payment-orders/ with API key", post, `floor ${ratio(post, floor)}× (target ≥ 0.6), bare POST ${ratio(post, barePost)}× (target ≥ 0.3)`);
    line("next start, GET /api/payment-orders/{id}/ with API key", getOrder, `floor ${ratio(getOrder, floor)}×`);
    line("next start, GET /api/pay/{id}/ (public status)", payStatus, `floor ${ratio(payStatus, floor)}×`);
    const openLine = (label: string, f: Figures) =>
      console.log(`  ${label}: ${fmt(f.requestsPerSecond, 0)} req/s served, p50 ${f.p50} ms, p99 ${f.p99} ms, non-2xx/errors ${f.non2xx + f.errors}`);
    console.log(`\nOpen loop, POST order at ${openLoopRate} req/s on a fixed schedule for ${durationSeconds} s, each request timed from when it was due:`);
    openLine("next start (target p99 < 50 ms)", open);
    openLine("bare server", bareOpen);
    console.log("\nSent to PostgreSQL per request (counted on the wire; a round trip is each wait for the server, a parse a statement planned afresh):");
    console.log("| request | statements | round trips | parses |");
    console.log("|---|---|---|---|");
    for (const [label, w] of wire) console.log(`| ${label} | ${fmt(w.statements, 1)} | ${fmt(w.roundTrips, 1)} | ${fmt(w.parses, 1)} |`);
  } finally {
    if (bare) await stopChild(bare.child);
    await server.stop();
    await proxy.close();
    await database.close();
  }
  await measureIdle();
}

function orderBody(nonce: number) {
  return { amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce };
}

/** Idle cost: a sandbox `next start` as `npm start` runs it (PGlite, hardhat devnet, local job driver), no traffic. */
async function measureIdle(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "gw-bench-idle-"));
  const sandbox = await startNextServer({
    DATABASE_URL: undefined,
    PGLITE_DIR: path.join(dir, "pglite"),
    GATEWAY_MODE: "sandbox",
    JOBS_DRIVER: "local",
    DEVNET: "start",
    DEVNET_PORT: String(await freePort()),
    DEVNET_RPC_URL: undefined,
    LOG_LEVEL: "silent",
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 20_000)); // startup work (migrations, devnet deploys, first scans, JIT) settles
    const idle = await measureTreeCpu(sandbox.pid, idleSeconds);
    console.log(`\nIdle sandbox next start (PGlite, devnet, local jobs), ${idleSeconds} s without traffic: ${fmt(idle.percent, 1)} % of one core (target < 2 %)`);
    console.log(`  process tree: ${idle.processes.join(" · ")}`);
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
