import { randomBytes } from "node:crypto";
import type { Logger } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";
import { timed } from "./profile";

/** Which backend this test project runs on (vitest.config.ts sets it per project). */
export const backend = (process.env.TEST_DB_BACKEND ?? "pglite") as "pglite" | "postgres";

/**
 * A fresh, migrated database for the current test file: in-memory PGlite, or on PostgreSQL a new
 * database created next to TEST_DATABASE_URL's (and dropped afterwards). It also becomes the
 * process-wide database that route handlers use.
 */
export async function createTestDatabase(options: { logger?: Logger } = {}): Promise<Database> {
  if (backend === "pglite") return timed("database: open + migrate", () => openDatabase({ pgliteDir: "memory://", ...options }));
  const empty = await createEmptyPostgresDatabase();
  const database = await timed("database: open + migrate", () => openDatabase({ url: empty.url, ...options }));
  return {
    ...database,
    async close() {
      await database.close();
      await empty.drop();
    },
  };
}

/** A new, empty PostgreSQL database next to TEST_DATABASE_URL's (e.g. for a `next start` child to migrate). */
export async function createEmptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is required for the postgres test project");
  const url = new URL(adminUrl);
  const name = `${url.pathname.slice(1)}_t${randomBytes(5).toString("hex")}`;
  await timed("database: create", async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    await admin.end();
  });
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await timed("database: drop", async () => {
        const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
        await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await dropper.end();
      });
    },
  };
}

/** Registers beforeAll/afterAll hooks giving this file its own database (`logger`: sees every statement). */
export function setupTestDatabase(options: { logger?: Logger } = {}): { readonly db: Db; readonly database: Database } {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(options);
    setDatabase(database);
  });
  afterAll(async () => {
    await database?.close();
  });
  return {
    get db() {
      if (!database) throw new Error("test database not ready");
      return database.db;
    },
    get database() {
      if (!database) throw new Error("test database not ready");
      return database;
    },
  };
}
