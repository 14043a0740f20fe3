import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stopRecordedDevnet } from "@/lib/chains/devnet-record";
import { startCountingProxy, type WireCounts } from "./pg-count-proxy";
import { measureTreeCpu, treeCpuSeconds } from "./process-cpu";
import { call, createBenchDatabase, databaseCpuSeconds, ensureProductionBuild, fmt, freePort, serverEnv, startNextServer } from "./support";

const connections = 32;
const durationSeconds = 10;
const warmupSeconds = 5;
/** Closed-loop rounds: each target is measured `rounds` times for `roundSeconds`, interleaved (BENCH_ROUNDS overrides). */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const roundSeconds = 5;
/** Open loop: offered requests per second, on a fixed schedule. */
const openLoopRate = 100;
/** The idle window (BENCH_IDLE_SECONDS overrides: the quiet loops wake once a minute, so a longer window averages over their wakes). */
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  headersList?: Array<Record<string, string>>;
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
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!) as Figures) : reject(new Error(`load generator exited ${code}`)),
    );
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

/** Extra merchants for the load-shape row: the same POST spread over several merchants' keys. */
const spreadMerchants = 8;

/**
 * `npm run bench -- orders`: order creation and authenticated requests on PostgreSQL, against the
 * framework's floor and a bare server, all in one run (the machine is shared: compare ratios).
 * First what each request sends to PostgreSQL, counted on the wire through a proxy; then
 * throughput and latency with every server straight on PostgreSQL (the proxy is one more process
 * relaying every byte, so it would tax whichever server talks to the database most), with the CPU
 * each request cost the server process and PostgreSQL (from /proc: unlike req/s, it hardly moves
 * with the machine's load). Then the idle CPU of a sandbox `next start` (PGlite, devnet, local jobs).
 *
 * BENCH_BASELINE_DIST_DIR=<dir> (another production build, e.g. of main; in BENCH_BASELINE_CWD, another
 * checkout with its node_modules, when given): that build is measured too, interleaved in the same
 * rounds, so before and after share the machine's load.
 */
export async function runOrdersBench(): Promise<void> {
  await ensureProductionBuild();
  const baselineDir = process.env.BENCH_BASELINE_DIST_DIR;
  const baselineCwd = process.env.BENCH_BASELINE_CWD ?? process.cwd();
  if (baselineDir && !existsSync(path.join(baselineCwd, baselineDir, "BUILD_ID")))
    throw new Error(`no production build in ${path.join(baselineCwd, baselineDir)}`);
  const database = await createBenchDatabase("orders");
  const proxy = await startCountingProxy(database.url);
  const startServers = async (databaseUrl: string) => ({
    current: await startNextServer({ ...serverEnv, DATABASE_URL: databaseUrl }),
    baseline: baselineDir ? await startNextServer({ ...serverEnv, DATABASE_URL: databaseUrl, NEXT_DIST_DIR: baselineDir }, baselineCwd) : null,
  });
  let servers = await startServers(proxy.url(database.url));
  let bare: { url: string; child: ChildProcess } | undefined;
  const stopAll = async () => {
    await servers.current.stop();
    await servers.baseline?.stop();
    if (bare) await stopChild(bare.child);
  };
  try {
    const server = servers.current;
    const signUp = async (n: number) => {
      const account = { username: `orderbench${n}`, email: `orders${n}@example.com`, password: "bench-password", shop_name: "Bench" };
      await call(`${server.url}/api/auth/register`, "POST", account);
      const { access, user } = await call<{ access: string; user: { id: number } }>(`${server.url}/api/auth/login`, "POST", account);
      await call(
        `${server.url}/api/merchant-wallets/`,
        "POST",
        { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF", confirmation_threshold: 1 },
        access,
      );
      const key = (await call<{ data: { key: string } }>(`${server.url}/api/api-keys/`, "POST", { name: "bench", preset: "full_access" }, access)).data.key;
      return { key, id: user.id };
    };
    const { key, id: merchantId } = await signUp(0);
    const spread = [key];
    for (let n = 1; n < spreadMerchants; n++) spread.push((await signUp(n)).key);
    const auth = { authorization: `Bearer ${key}` };
    const order = (await call<{ data: { order_id: string } }>(`${server.url}/api/payment-orders/`, "POST", orderBody(nonces(1)), key)).data.order_id;
    bare = await startBareServer(proxy.url(database.url), merchantId);

    // What each request sends, counted on the wire: sequential requests, nothing else talks to the database.
    const perRequest = async (base: string, path: string, method: "GET" | "POST", withKey: boolean): Promise<WireCounts> => {
      const send = () => call(`${base}${path}`, method, method === "POST" ? orderBody(nonces(1)) : undefined, withKey ? key : undefined);
      for (let i = 0; i < 3; i++) await send();
      const before = proxy.counts();
      const n = 20;
      for (let i = 0; i < n; i++) await send();
      const after = proxy.counts();
      return {
        statements: (after.statements - before.statements) / n,
        roundTrips: (after.roundTrips - before.roundTrips) / n,
        parses: (after.parses - before.parses) / n,
      };
    };
    const wireOf = async (base: string) =>
      [
        ["framework floor", await perRequest(base, "/api/nope", "GET", false)],
        ["GET /api/blockchains/ with key", await perRequest(base, "/api/blockchains/", "GET", true)],
        ["POST /api/payment-orders/", await perRequest(base, "/api/payment-orders/", "POST", true)],
        ["GET /api/payment-orders/{id}/", await perRequest(base, `/api/payment-orders/${order}/`, "GET", true)],
        ["GET /api/payment-orders/ (list)", await perRequest(base, "/api/payment-orders/?page_size=20", "GET", true)],
        ["GET /api/pay/{id}/ (public status)", await perRequest(base, `/api/pay/${order}/`, "GET", false)],
      ] as Array<[string, WireCounts]>;
    const wire: Array<[string, WireCounts]> = [
      ...(await wireOf(server.url)),
      ["bare GET with key check + counter", await perRequest(bare.url, "/api/blockchains/", "GET", true)],
      ["bare POST order", await perRequest(bare.url, "/api/payment-orders/", "POST", true)],
    ];
    const baselineWire = servers.baseline ? await wireOf(servers.baseline.url) : null;
    await stopAll();

    // Throughput and latency: fresh processes straight on PostgreSQL.
    servers = await startServers(database.url);
    bare = await startBareServer(database.url, merchantId);
    const bareServer = bare;
    // Closed loop: each warmed up once, then measured in interleaved rounds (the machine is shared and
    // its load drifts: interleaving puts every target under the same drift), median per target.
    type Spec = Omit<LoadSpec, "connections" | "durationSeconds" | "firstNonce"> & { pid: number };
    const nextTargets = (next: { url: string; pid: number }) =>
      ({
        floor: { url: `${next.url}/api/nope`, method: "GET", headers: {}, pid: next.pid },
        getFloor: { url: `${next.url}/api/blockchains/`, method: "GET", headers: {}, pid: next.pid },
        postFloor: { url: `${next.url}/api/payment-orders/`, method: "POST", headers: {}, pid: next.pid },
        get: { url: `${next.url}/api/blockchains/`, method: "GET", headers: auth, pid: next.pid },
        post: { url: `${next.url}/api/payment-orders/`, method: "POST", headers: auth, pid: next.pid },
        postSpread: {
          url: `${next.url}/api/payment-orders/`,
          method: "POST",
          headersList: spread.map((k) => ({ authorization: `Bearer ${k}` })),
          pid: next.pid,
        },
        getOrder: { url: `${next.url}/api/payment-orders/${order}/`, method: "GET", headers: auth, pid: next.pid },
        payStatus: { url: `${next.url}/api/pay/${order}/`, method: "GET", headers: {}, pid: next.pid },
      }) satisfies Record<string, Spec>;
    const current = nextTargets(servers.current);
    const baseline = servers.baseline ? nextTargets(servers.baseline) : null;
    type NextTarget = keyof typeof current;
    const targets: Record<string, Spec> = {
      bareGet: { url: `${bareServer.url}/api/blockchains/`, method: "GET", headers: auth, pid: bareServer.child.pid! },
      barePost: { url: `${bareServer.url}/api/payment-orders/`, method: "POST", headers: auth, pid: bareServer.child.pid! },
      ...current,
      ...(baseline ? Object.fromEntries(Object.entries(baseline).map(([name, spec]) => [`baseline.${name}`, spec])) : {}),
    };
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, [] as Measured[]]));
    const run = async (name: string, seconds: number): Promise<Measured> => {
      const { pid, ...spec } = targets[name]!;
      const before = { server: treeCpuSeconds(pid), database: await databaseCpuSeconds(database) };
      const figures = await load({ ...spec, firstNonce: nonces(1_000_000), connections, durationSeconds: seconds });
      const perRequest = (s: number) => (1000 * s) / Math.max(1, figures.total);
      return {
        ...figures,
        serverCpuMs: perRequest(treeCpuSeconds(pid) - before.server),
        databaseCpuMs: perRequest((await databaseCpuSeconds(database)) - before.database),
      };
    };
    for (const name of Object.keys(targets)) await run(name, warmupSeconds);
    // Every other round runs the targets in reverse order, so none always follows the same neighbour
    // (a bare POST's burst of commits, say, leaves PostgreSQL flushing into the next target's round).
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? Object.keys(targets) : Object.keys(targets).reverse();
      for (const name of order) samples[name]!.push(await run(name, roundSeconds));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const summary = (list: Measured[]): Measured => ({
      requestsPerSecond: median(list.map((f) => f.requestsPerSecond)),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
      non2xx: list.reduce((n, f) => n + f.non2xx, 0),
      errors: list.reduce((n, f) => n + f.errors, 0),
      total: list.reduce((n, f) => n + f.total, 0),
      serverCpuMs: median(list.map((f) => f.serverCpuMs)),
      databaseCpuMs: median(list.map((f) => f.databaseCpuMs)),
    });
    const figures = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, summary(list)])) as Record<string, Measured>;
    const openLoop = (name: string) => {
      const { url, method, headers, headersList } = targets[name]!;
      const spec = { url, method, headers, headersList };
      return load({ ...spec, firstNonce: nonces(1_000_000), connections: 64, durationSeconds, openLoopRate });
    };
    // Open loop: the same alternation, `rounds` runs each; the median run by p99 is reported.
    const openNames = ["post", ...(baseline ? ["baseline.post"] : []), "barePost"];
    const openRuns = Object.fromEntries(openNames.map((name) => [name, [] as Figures[]]));
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? openNames : [...openNames].reverse()) openRuns[name]!.push(await openLoop(name));
    }
    const medianRun = (list: Figures[]) => [...list].sort((a, b) => a.p99 - b.p99)[Math.floor(list.length / 2)]!;
    const allP99 = (list: Figures[]) => list.map((f) => f.p99).join(", ");
    const open = medianRun(openRuns.post!);
    const baselineOpen = baseline ? medianRun(openRuns["baseline.post"]!) : null;
    const bareOpen = medianRun(openRuns.barePost!);

    const ratio = (a: Figures, b: Figures) => fmt(a.requestsPerSecond / b.requestsPerSecond);
    const line = (label: string, f: Measured, ratios = "") =>
      console.log(
        `| ${label} | ${fmt(f.requestsPerSecond, 0)} | ${f.p50} | ${f.p99} | ${fmt(f.serverCpuMs)} | ${fmt(f.databaseCpuMs)} | ${f.non2xx + f.errors} | ${ratios} |`,
      );
    const { bareGet, barePost } = figures as Record<"bareGet" | "barePost", Measured>;
    const nextRows = (label: string, prefix: string) => {
      const f = (name: NextTarget) => figures[`${prefix}${name}`]!;
      const [floor, getFloor, postFloor, get, post, postSpread, getOrder, payStatus] = (
        ["floor", "getFloor", "postFloor", "get", "post", "postSpread", "getOrder", "payStatus"] as const
      ).map(f) as [Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured];
      line(`${label}, unknown /api path (framework floor)`, floor);
      line(
        `${label}, GET /api/blockchains/ without a credential (static route floor: 401 before any database work)`,
        getFloor,
        `floor ${ratio(getFloor, floor)}×`,
      );
      line(
        `${label}, POST /api/payment-orders/ without a credential, the order's body sent (static route floor for a POST: 401, the body not read)`,
        postFloor,
        `floor ${ratio(postFloor, floor)}×`,
      );
      line(
        `${label}, GET /api/blockchains/ with API key`,
        get,
        `floor ${ratio(get, floor)}× (target ≥ 0.8), static floor ${ratio(get, getFloor)}×, bare GET ${ratio(get, bareGet)}×`,
      );
      line(
        `${label}, POST /api/payment-orders/ with API key`,
        post,
        `floor ${ratio(post, floor)}× (target ≥ 0.6), static POST floor ${ratio(post, postFloor)}×, bare POST ${ratio(post, barePost)}× (target ≥ 0.3)`,
      );
      line(
        `${label}, POST /api/payment-orders/, ${spreadMerchants} merchants' keys in turn`,
        postSpread,
        `floor ${ratio(postSpread, floor)}×, one merchant's POST ${ratio(post, postSpread)}× of this`,
      );
      line(`${label}, GET /api/payment-orders/{id}/ with API key`, getOrder, `floor ${ratio(getOrder, floor)}×`);
      line(`${label}, GET /api/pay/{id}/ (public status)`, payStatus, `floor ${ratio(payStatus, floor)}×`);
    };
    console.log(
      `\n## Orders and authenticated requests (PostgreSQL, autocannon ${connections} connections; medians of ${rounds} interleaved rounds of ${roundSeconds} s, one run; load average ${loadAverage()})`,
    );
    console.log("CPU columns: CPU time the server's process tree and PostgreSQL's backends spent per request, from /proc (medians).");
    console.log("| what | req/s | p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | non-2xx/errors | ratios |");
    console.log("|---|---|---|---|---|---|---|---|");
    line("bare node:http + postgres.js, GET with key check + counter", bareGet);
    line("bare node:http + postgres.js, POST order (wallet + insert)", barePost);
    nextRows(baseline ? "next start (this build)" : "next start", "");
    const baselineName = path.join(path.relative(process.cwd(), baselineCwd), baselineDir ?? "");
    if (baseline) nextRows(`next start (baseline ${baselineName})`, "baseline.");
    const openLine = (label: string, f: Figures, runs: Figures[]) =>
      console.log(
        `  ${label}: ${fmt(f.requestsPerSecond, 0)} req/s served, p50 ${f.p50} ms, p99 ${f.p99} ms, non-2xx/errors ${f.non2xx + f.errors} (p99 of each run: ${allP99(runs)} ms)`,
      );
    console.log(
      `\nOpen loop, POST order at ${openLoopRate} req/s on a fixed schedule for ${durationSeconds} s, each request timed from when it was due; the median of ${rounds} interleaved runs by p99:`,
    );
    openLine(baseline ? "next start, this build (target p99 < 50 ms)" : "next start (target p99 < 50 ms)", open, openRuns.post!);
    if (baselineOpen) openLine(`next start, baseline ${baselineName}`, baselineOpen, openRuns["baseline.post"]!);
    openLine("bare server", bareOpen, openRuns.barePost!);
    console.log("\nSent to PostgreSQL per request (counted on the wire; a round trip is each wait for the server, a parse a statement planned afresh):");
    console.log(`| request | statements | round trips | parses |${baselineWire ? " baseline: statements | round trips | parses |" : ""}`);
    console.log(`|---|---|---|---|${baselineWire ? "---|---|---|" : ""}`);
    for (const [i, [label, w]] of wire.entries()) {
      const b = baselineWire?.[i]?.[1];
      console.log(
        `| ${label} | ${fmt(w.statements, 1)} | ${fmt(w.roundTrips, 1)} | ${fmt(w.parses, 1)} |${b ? ` ${fmt(b.statements, 1)} | ${fmt(b.roundTrips, 1)} | ${fmt(b.parses, 1)} |` : baselineWire ? " | | |" : ""}`,
      );
    }
  } finally {
    await stopAll();
    await proxy.close();
    await database.close();
  }
  await measureIdle();
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

interface Measured extends Figures {
  total: number;
  serverCpuMs: number;
  databaseCpuMs: number;
}

function orderBody(nonce: number) {
  return { amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce };
}

/** Idle cost: a sandbox `next start` as `npm start` runs it (PGlite, hardhat devnet, local job driver), no traffic. */
export async function measureIdle(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "gw-bench-idle-"));
  const sandbox = await startNextServer({
    DATABASE_URL: undefined,
    PGLITE_DIR: path.join(dir, "pglite"),
    GATEWAY_MODE: "sandbox",
    JOBS_DRIVER: "local",
    DEVNET: "start",
    DEVNET_PORT: String(await freePort()),
    DEVNET_RPC_URL: undefined,
    DEVNET_STATE_FILE: path.join(dir, "devnet.json"),
    LOG_LEVEL: "silent",
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 20_000)); // startup work (migrations, devnet deploys, first scans, JIT) settles
    const idle = await measureTreeCpu(sandbox.pid, idleSeconds);
    console.log(
      `\nIdle sandbox next start (PGlite, devnet, local jobs), ${idleSeconds} s without traffic: ${fmt(idle.percent, 1)} % of one core (target < 2 %)`,
    );
    console.log(`  process tree: ${idle.processes.join(" · ")}`);
  } finally {
    await sandbox.stop();
    // The devnet outlives its server (lib/chains/devnet-record.ts).
    await stopRecordedDevnet(path.join(dir, "devnet.json"));
    rmSync(dir, { recursive: true, force: true });
  }
}
