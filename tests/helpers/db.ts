import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql, type Logger } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import type { Db } from "@/lib/db/types";
import { processSlot } from "@/lib/process-singleton";
import { timed } from "./profile";

/** Which backend this test project runs on (vitest.config.ts sets it per project). */
export const backend = (process.env.TEST_DB_BACKEND ?? "pglite") as "pglite" | "postgres";

const root = path.resolve(__dirname, "../..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a migrated database depends on: the migrations (drizzle/) and the PGlite build. Templates and
 * snapshots are named after it, so a new migration (or a PGlite upgrade) makes new ones.
 */
const migrationsKey = (() => {
  const hash = createHash("sha256");
  const add = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) add(full);
      else hash.update(path.relative(root, full)).update(readFileSync(full));
    }
  };
  add(path.join(root, "drizzle"));
  hash.update(readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json")));
  return hash.digest("hex").slice(0, 12);
})();

/**
 * Runs `make` once across every test process of this machine: the first caller creates a lock
 * directory and makes the thing, the others wait for `ready()`. A lock left by a killed run is taken over.
 */
async function onceAcrossProcesses(name: string, ready: () => boolean, make: () => Promise<void>): Promise<void> {
  const lock = path.join(tmpdir(), `${name}.lock`);
  const deadline = Date.now() + 5 * 60_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for another test process to make ${name}`);
    try {
      mkdirSync(lock);
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 5 * 60_000) rmSync(lock, { recursive: true, force: true });
      await sleep(100);
      continue;
    }
    try {
      if (!ready()) await make();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

const pgliteSnapshotFile = path.join(tmpdir(), `gw-pglite-migrated-${migrationsKey}.tar`);
let pgliteSnapshot: Promise<Blob> | undefined;

/**
 * A tarball (`dumpDataDir`) of a migrated PGlite cluster, made once per set of migrations and kept in
 * the temp dir for every test process: starting from it skips PGlite's initdb and the migrations,
 * which cost several seconds of CPU per database.
 */
export function migratedPgliteDataDir(): Promise<Blob> {
  pgliteSnapshot ??= (async () => {
    await onceAcrossProcesses(
      path.basename(pgliteSnapshotFile),
      () => existsSync(pgliteSnapshotFile),
      () =>
        timed("database: make the migrated PGlite snapshot", async () => {
          const database = await openDatabase({ pgliteDir: "memory://" });
          const client = (database.db as unknown as { $client: import("@electric-sql/pglite").PGlite }).$client;
          const dump = await client.dumpDataDir("none");
          await database.close();
          const partial = `${pgliteSnapshotFile}.${process.pid}`;
          writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
          renameSync(partial, pgliteSnapshotFile);
        }),
    );
    return new Blob([readFileSync(pgliteSnapshotFile)]);
  })();
  return pgliteSnapshot;
}

/** A fresh in-memory PGlite database, migrated (from the snapshot). */
export async function openTestPglite(options: { logger?: Logger } = {}): Promise<Database> {
  const pgliteDataDir = await migratedPgliteDataDir();
  return timed("database: open (PGlite snapshot)", () => openDatabase({ pgliteDir: "memory://", pgliteDataDir, ...options }));
}

const pgliteTemplateDir = path.join(tmpdir(), `gw-pglite-migrated-${migrationsKey}.dir`);

/**
 * A new PGlite data directory holding a migrated database (a copy of one made from the snapshot),
 * for a `next start` child or a second process; remove it with rmSync when done.
 */
export async function createMigratedPgliteDir(prefix = "gw-server-pglite-"): Promise<string> {
  await onceAcrossProcesses(
    path.basename(pgliteTemplateDir),
    () => existsSync(path.join(pgliteTemplateDir, "PG_VERSION")),
    async () => {
      const pgliteDataDir = await migratedPgliteDataDir();
      const partial = `${pgliteTemplateDir}.${process.pid}`;
      rmSync(partial, { recursive: true, force: true });
      const database = await openDatabase({ pgliteDir: partial, pgliteDataDir });
      await database.close();
      rmSync(pgliteTemplateDir, { recursive: true, force: true });
      renameSync(partial, pgliteTemplateDir);
    },
  );
  const dir = path.join(tmpdir(), `${prefix}${randomBytes(6).toString("hex")}`);
  await timed("database: copy the migrated PGlite directory", async () => cpSync(pgliteTemplateDir, dir, { recursive: true }));
  return dir;
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is required for the postgres test project");
  return url;
}

async function withAdmin<T>(fn: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** The name of a new database next to TEST_DATABASE_URL's, and its URL. */
function nextToBase(suffix: string): { name: string; url: string } {
  const url = new URL(adminUrl());
  const name = `${url.pathname.slice(1)}_${suffix}`;
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** A database of this run's next to TEST_DATABASE_URL's. */
export type PostgresTestDatabase = { name: string; url: string; drop(): Promise<void> };

function dropper(name: string): () => Promise<void> {
  return () => timed("database: drop", () => withAdmin((admin) => admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).then(() => undefined)));
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated template database next to TEST_DATABASE_URL's (`<base>_tpl_<migrations key>`), made
 * once: test processes take an advisory lock while one of them creates and migrates it. It keeps its
 * name across runs on the same base database (a new migration makes a new one); `.ci/run` drops it
 * with the rest, since its name starts with the base database's.
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= withAdmin(async (admin) => {
    const { name, url } = nextToBase(`tpl_${migrationsKey}`);
    const ready = `${name} migrated`;
    await admin`SELECT pg_advisory_lock(hashtext(${name}))`;
    try {
      const [existing] = await admin`SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = ${name}`;
      if (existing?.note === ready) return name;
      await timed("database: make the migrated PostgreSQL template", async () => {
        // A template left half-made by a killed run is made again.
        await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.unsafe(`CREATE DATABASE "${name}"`);
        const database = await openDatabase({ url });
        await database.close();
        await admin.unsafe(`COMMENT ON DATABASE "${name}" IS '${ready}'`);
      });
      return name;
    } finally {
      await admin`SELECT pg_advisory_unlock(hashtext(${name}))`;
    }
  }).catch((error) => {
    postgresTemplate = undefined;
    throw error;
  });
  return postgresTemplate;
}

/** A new, migrated PostgreSQL database next to TEST_DATABASE_URL's: a copy of the migrated template (CREATE DATABASE … TEMPLATE). */
export async function createMigratedPostgresDatabase(): Promise<PostgresTestDatabase> {
  const template = await migratedPostgresTemplate();
  const { name, url } = nextToBase(`t${randomBytes(5).toString("hex")}`);
  await timed("database: create from the template", () =>
    withAdmin(async (admin) => {
      // PostgreSQL refuses to copy a template someone is connected to (an autovacuum worker, say), for a moment.
      for (let attempt = 1; ; attempt++) {
        try {
          return await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        } catch (error) {
          if ((error as { code?: string }).code !== "55006" || attempt === 5) throw error;
          await sleep(200 * attempt);
        }
      }
    }),
  );
  return { name, url, drop: dropper(name) };
}

/**
 * A fresh, migrated database for the current test file: in-memory PGlite, or on PostgreSQL a new
 * database created next to TEST_DATABASE_URL's (and dropped afterwards). It also becomes the
 * process-wide database that route handlers use.
 */
export async function createTestDatabase(options: { logger?: Logger } = {}): Promise<Database> {
  if (backend === "pglite") return openTestPglite(options);
  return openPostgresTestDatabase(await createMigratedPostgresDatabase(), options);
}

async function openPostgresTestDatabase(postgresDatabase: PostgresTestDatabase, options: { logger?: Logger }): Promise<Database> {
  const database = await timed("database: open", () => openDatabase({ url: postgresDatabase.url, ...options }));
  const testDatabase: Database = {
    ...database,
    async close() {
      await database.close();
      await postgresDatabase.drop();
    },
  };
  postgresDatabases.set(testDatabase, { ...postgresDatabase, closeConnections: database.close });
  return testDatabase;
}

/** A new, empty PostgreSQL database next to TEST_DATABASE_URL's (e.g. for a `next start` child to migrate). */
export async function createEmptyPostgresDatabase(): Promise<PostgresTestDatabase> {
  const { name, url } = nextToBase(`t${randomBytes(5).toString("hex")}`);
  await timed("database: create", () => withAdmin((admin) => admin.unsafe(`CREATE DATABASE "${name}"`)));
  return { name, url, drop: dropper(name) };
}

/**
 * The database the worker's previous file has finished with, emptied. Files that share a worker process
 * (vitest.config.ts, TEST_SHARED_PROCESS) take it instead of making a new one: loading the migrated
 * snapshot into a new WebAssembly PostgreSQL costs seconds of CPU; on PostgreSQL, CREATE DATABASE from the
 * template and DROP DATABASE (which forces a checkpoint) cost about 1 s and half a second of the server's
 * CPU per file. Emptying costs milliseconds. A PGlite database stays open; a PostgreSQL one is reopened
 * on new connections, so no session of the last file (its settings, locks, LISTENs) carries over.
 */
let idleDatabase: { backend: "pglite"; database: Database } | { backend: "postgres"; database: PostgresTestDatabase } | undefined;

/** The PostgreSQL database behind each Database that createTestDatabase opened, and how to close its connections only. */
const postgresDatabases = new WeakMap<Database, PostgresTestDatabase & { closeConnections(): Promise<void> }>();

/** Ends every session still connected to a database (one a file opened and left open), and waits until they are gone. */
async function endOtherSessions(name: string): Promise<void> {
  await withAdmin((admin) => admin`SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`);
}

/**
 * The database a worker keeps between its files is dropped at the end of the run (tests/helpers/shared-run.ts),
 * after the worker has gone: its name is written to a file of the worker's in the run's folder.
 */
function recordIdleDatabase(name: string): void {
  writeFileSync(path.join(inject("sharedRunDir"), `idle-database-${process.pid}`), name);
}

/**
 * Everything a file wrote, gone: every table emptied and its sequences restarted. DELETE rather than
 * TRUNCATE: a few rows per table, and TRUNCATE gives every table and index a new file (on PostgreSQL,
 * 0.25 s of the server's CPU each time, against 0.03 s).
 */
async function emptyDatabase(database: Database): Promise<void> {
  await database.db.transaction(async (tx) => {
    // The audit log refuses DELETE by trigger (it is append-only); a replica session fires no triggers,
    // foreign keys' included, so the tables empty in any order.
    await tx.execute(sql`set local session_replication_role = replica`);
    // A connection the last file left in a transaction holding rows: not reusable (the caller closes it).
    await tx.execute(sql`set local lock_timeout = '2s'`);
    await tx.execute(sql`do $$
      declare rel text;
      begin
        for rel in select format('%I.%I', schemaname, tablename) from pg_tables where schemaname = 'public' loop
          execute 'delete from ' || rel;
        end loop;
        perform setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false) from pg_sequences where schemaname = 'public';
      end $$`);
  });
}

async function takeTestDatabase(options: { logger?: Logger }): Promise<Database> {
  const idle = idleDatabase;
  if (!idle || options.logger) return createTestDatabase(options);
  idleDatabase = undefined;
  if (idle.backend === "pglite") return idle.database;
  try {
    return await openPostgresTestDatabase(idle.database, options);
  } catch {
    // Gone meanwhile (dropped by hand, say): a new one.
    await idle.database.drop().catch(() => {});
    return createTestDatabase(options);
  }
}

async function releaseTestDatabase(database: Database, options: { logger?: Logger }): Promise<void> {
  // Only when nothing the file started can still write into it (a job driver left running, say).
  const driverLeftRunning = processSlot("localDriver").get() !== undefined;
  if (process.env.TEST_SHARED_PROCESS && !options.logger && !idleDatabase && !driverLeftRunning) {
    try {
      await timed("database: empty for the next file", () => emptyDatabase(database));
      if (backend === "pglite") {
        // Settings, advisory locks, LISTENs, temporary tables and prepared statements of the last file.
        await database.db.execute(sql`discard all`);
        idleDatabase = { backend, database };
        return;
      }
      const postgresDatabase = postgresDatabases.get(database);
      if (postgresDatabase) {
        await postgresDatabase.closeConnections();
        await endOtherSessions(postgresDatabase.name);
        recordIdleDatabase(postgresDatabase.name);
        idleDatabase = { backend, database: { name: postgresDatabase.name, url: postgresDatabase.url, drop: postgresDatabase.drop } };
        return;
      }
    } catch {
      // Not reusable (closed by the test, say): a new one for the next file.
    }
  }
  await database.close();
}

/** Registers beforeAll/afterAll hooks giving this file its own database (`logger`: sees every statement). */
export function setupTestDatabase(options: { logger?: Logger } = {}): { readonly db: Db; readonly database: Database } {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await takeTestDatabase(options);
    setDatabase(database);
  });
  afterAll(async () => {
    if (database) await releaseTestDatabase(database, options);
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
