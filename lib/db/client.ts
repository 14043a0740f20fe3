import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Logger } from "drizzle-orm";
import { env } from "@/lib/env";
import * as schema from "./schema";
import type { Db } from "./types";

export const migrationsFolder = path.join(process.cwd(), "drizzle");

export interface Database {
  db: Db;
  driver: "postgres" | "pglite";
  close(): Promise<void>;
}

/**
 * Opens a database and applies the migrations in drizzle/. `url` undefined = PGlite at `pgliteDir`
 * ("memory://" for tests). `logger` sees every statement drizzle sends (tests count round trips).
 */
export async function openDatabase(options: { url?: string; pgliteDir?: string; logger?: Logger }): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const sqlClient = postgres(options.url, { max: 10, onnotice: () => {} });
    const db = drizzle(sqlClient, { schema, logger: options.logger });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, driver: "postgres", close: () => sqlClient.end({ timeout: 5 }) };
  }
  const dir = options.pgliteDir ?? "memory://";
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = await PGlite.create(dir);
  const db = drizzle(client, { schema, logger: options.logger });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close() };
}

// Next.js may load this module more than once (instrumentation vs. routes, dev reloads):
// the connection is a process-wide singleton kept on globalThis and opened lazily.
const holder = globalThis as unknown as { __gatewayDatabase?: Promise<Database> };

/** The process-wide database, opened (and migrated) on first use. */
export function getDatabase(): Promise<Database> {
  holder.__gatewayDatabase ??= openDatabase({ url: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR }).catch((error) => {
    holder.__gatewayDatabase = undefined;
    throw error;
  });
  return holder.__gatewayDatabase;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Replace the process-wide database (tests and benchmarks open their own). */
export function setDatabase(database: Database): void {
  holder.__gatewayDatabase = Promise.resolve(database);
}
