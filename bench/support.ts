import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";

/** The PostgreSQL server benchmarks run on: BENCH_DATABASE_URL, TEST_DATABASE_URL, or the local server. */
export function benchAdminUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

/** A fresh PostgreSQL database for one benchmark, dropped by `close()`. */
export async function createBenchDatabase(label: string): Promise<Database & { url: string }> {
  const adminUrl = benchAdminUrl();
  const url = new URL(adminUrl);
  const name = `gw_bench_${label}_${randomBytes(4).toString("hex")}`;
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
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
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
