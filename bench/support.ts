import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";

/** The PostgreSQL server benchmarks run on: BENCH_DATABASE_URL, TEST_DATABASE_URL, or the local server. */
export function benchAdminUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

/** A fresh PostgreSQL database for one benchmark, dropped by `close()` (kept, its URL printed, with `keep`). */
export async function createBenchDatabase(label: string, options: { keep?: boolean; name?: string } = {}): Promise<Database & { url: string }> {
  const adminUrl = benchAdminUrl();
  const url = new URL(adminUrl);
  const name = options.name ?? `gw_bench_${label}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  await admin.end();
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  setDatabase(database);
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      if (options.keep) {
        console.log(`Kept the benchmark database ${url.toString()} (drop it with: psql ${adminUrl} -c 'DROP DATABASE "${name}"')`);
        return;
      }
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** A database a benchmark kept (its migrations brought up to date), left in place by `close()`. */
export async function openKeptBenchDatabase(url: string): Promise<Database & { url: string }> {
  const database = await openDatabase({ url });
  setDatabase(database);
  return { ...database, url };
}

/**
 * CPU seconds used so far by the PostgreSQL backends connected to this database (from /proc: the
 * server must run on this machine; 0 where it cannot be read). Backends that have exited are not
 * counted, so take both readings while the same connections are open.
 */
export async function databaseCpuSeconds(database: Database): Promise<number> {
  const { sql } = await import("drizzle-orm");
  const { rowsOf } = await import("@/lib/db/map-row");
  const { cpuSeconds } = await import("./process-cpu");
  const rows = rowsOf(await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`));
  return rows.reduce((sum, row) => sum + cpuSeconds(Number(row.pid)), 0);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}

/** Builds a Request the way the server would hand it to a route handler. */
export function request(method: string, path: string, init: { token?: string; body?: unknown; ip?: string } = {}): Request {
  const headers = new Headers({ "x-forwarded-for": init.ip ?? "127.0.0.1" });
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return new Request(new URL(path, "http://localhost:3000"), {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

export const noParams = { params: Promise.resolve({}) };

/** Builds the production app once (`.next`, or NEXT_DIST_DIR) unless a build is already there. */
export async function ensureProductionBuild(): Promise<void> {
  const { existsSync } = await import("node:fs");
  const path = await import("node:path");
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (existsSync(path.join(process.cwd(), distDir, "BUILD_ID"))) return;
  const { spawnSync } = await import("node:child_process");
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** `next start` on a free port (an `undefined` value unsets that variable) with the given environment, in `cwd` (a checkout with its build); resolves once it answers. */
export async function startNextServer(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const { spawn } = await import("node:child_process");
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = { ...process.env, NODE_ENV: "production", ...env };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name]; // undefined: unset it
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (bench/profile.ts reads it).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...profile, "node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited: ${stderr}`);
    try {
      await fetch(`${url}/api/nope`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("next start did not answer");
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The environment of a `next start` under load: sandbox, no jobs, no devnet, no log lines, a rate limit that never bites. */
export const serverEnv = {
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
  GATEWAY_MODE: "sandbox",
  JOBS_DRIVER: "none",
  DEVNET: "off",
  LOG_LEVEL: "silent",
  RATE_LIMIT_STANDARD_PER_HOUR: "100000000",
};

/** A JSON call to a bench server; the parsed answer (null when it is not JSON). */
export const call = async <T = unknown>(url: string, method: string, body?: unknown, token?: string): Promise<T> => {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json().catch(() => null)) as T;
};
