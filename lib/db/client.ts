import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Logger, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import { processSlot } from "@/lib/process-singleton";
import * as schema from "./schema";
import type { Db, DbOrTx } from "./types";

/** The session lock migrations run under (any fixed 64-bit key no task's lock takes). */
const migrationLockKey = "7346101905139811841";

export const migrationsFolder = path.join(process.cwd(), "drizzle");

export interface Database {
  db: Db;
  driver: "postgres" | "pglite";
  close(): Promise<void>;
}

/**
 * Opens a database and applies the migrations in drizzle/. `url` undefined = PGlite at `pgliteDir`
 * ("memory://" for tests). `logger` sees every statement drizzle sends (tests count round trips).
 * `pgliteDataDir`: a tarball from PGlite's `dumpDataDir()` to start from instead of an empty
 * cluster (tests keep one of a migrated database: PGlite's initdb costs seconds of CPU per start).
 */
export async function openDatabase(options: { url?: string; pgliteDir?: string; pgliteDataDir?: Blob; logger?: Logger }): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // Migrations run on their own connection, without the pools' statement timeout (an index
    // build on a large table may take longer), under an advisory lock: instances starting at the
    // same moment on an empty database would otherwise both create the tables, and one crash.
    const migrator = postgres(options.url, { max: 1, onnotice: () => {}, connect_timeout: env.DATABASE_CONNECT_TIMEOUT_SECONDS });
    try {
      await migrator`select pg_advisory_lock(${migrationLockKey}::bigint)`;
      await migrate(drizzle(migrator), { migrationsFolder });
    } finally {
      await migrator.end({ timeout: 5 });
    }
    const sqlClient = postgres(options.url, {
      max: 10,
      ...outageBounds(),
      // Named statements are parsed once per connection but planned at every execution, against
      // the tables as they are then: a generic plan cached while a table was still empty (say,
      // the merchant-and-date index picked for a nonce lookup) would stay with the connection
      // as the table grows whenever nothing re-analyzes it (autovacuum off or behind).
      connection: { plan_cache_mode: "force_custom_plan", ...sessionSettings() },
    });
    const db = drizzle(withNamedStatements(sqlClient), { schema, logger: options.logger });
    // The hot path's statements, on connections that keep their plans (see `withCachedPlans`).
    const cachedPlansClient = postgres(options.url, { max: 10, ...outageBounds(), connection: { plan_cache_mode: "auto", ...sessionSettings() } });
    cachedPlanDbs.set(db, drizzle(withNamedStatements(cachedPlansClient), { schema, logger: options.logger }) as unknown as Db);
    // List pages one index answers in order, on connections whose planner may not sort (see `withoutSortsPool`).
    const noSortsClient = postgres(options.url, {
      max: 10,
      ...outageBounds(),
      connection: { plan_cache_mode: "force_custom_plan", application_name: noSortsApplicationName, ...noSortSettings, ...sessionSettings() },
    });
    noSortDbs.set(db, drizzle(withNamedStatements(noSortsClient), { schema, logger: options.logger }) as unknown as Db);
    const url = options.url;
    sessionConnectionOpeners.set(db, (onclose) => {
      // One connection, never recycled while idle (a session lock lives as long as its connection).
      const client = postgres(url, { max: 1, ...outageBounds(), max_lifetime: null, onclose, connection: sessionSettings() });
      return { db: drizzle(client) as unknown as DbOrTx, end: () => client.end({ timeout: 5 }) };
    });
    return {
      db: db as unknown as Db,
      driver: "postgres",
      close: async () => {
        await Promise.all([sqlClient.end({ timeout: 5 }), cachedPlansClient.end({ timeout: 5 }), noSortsClient.end({ timeout: 5 })]);
      },
    };
  }
  const dir = options.pgliteDir ?? "memory://";
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = await PGlite.create({ dataDir: dir, loadDataDir: options.pgliteDataDir, extensions: { pg_trgm } });
  const db = drizzle(client, { schema, logger: options.logger });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close() };
}

/**
 * Bounds on every wait for PostgreSQL, so an outage answers fast instead of hanging: a new
 * connection gives up after DATABASE_CONNECT_TIMEOUT_SECONDS, and a failed connect is retried
 * after a fixed 0.1 s. postgres.js's default backoff grows to 20 s per attempt over an outage, and
 * a query queued behind failed connects waited for each of them: requests hung past 30 s.
 */
function outageBounds() {
  return { onnotice: () => {}, connect_timeout: env.DATABASE_CONNECT_TIMEOUT_SECONDS, backoff: () => 0.1 };
}

/**
 * Session settings of every connection: statement_timeout (ms), so no statement waits on the
 * database for ever; and no JIT compilation. The gateway's statements read a page, a probe, a batch:
 * milliseconds of work whose plans can still be costed past `jit_above_cost` on a big table
 * (a probe at a million deliveries compiled for 20 ms to run for 0.1 ms, issue 31).
 */
function sessionSettings(): Record<string, string> {
  const seconds = env.DATABASE_STATEMENT_TIMEOUT_SECONDS;
  return { jit: "off", ...(seconds > 0 ? { statement_timeout: String(Math.round(seconds * 1000)) } : {}) };
}

/** A connection of its own (outside the pools) and how to close it. */
export interface SessionConnection {
  db: DbOrTx;
  end(): Promise<void>;
}

const sessionConnectionOpeners = new WeakMap<object, (onclose: () => void) => SessionConnection>();

/**
 * A dedicated single-connection client for session state (advisory locks) on PostgreSQL, or null
 * on PGlite (one connection, one process). It reconnects by itself on its next statement after
 * the connection was lost; `onclose` is told each time a connection closes, since the session's
 * state (its locks) went with it.
 */
export function openSessionConnection(db: Db, onclose: () => void): SessionConnection | null {
  return sessionConnectionOpeners.get(db)?.(onclose) ?? null;
}

/**
 * The database handle for the statements of the hot path (authentication and the rate-limit
 * count, order creation, the order views): on PostgreSQL a second pool whose connections keep
 * PostgreSQL's default plan caching (plan_cache_mode auto), where the main pool plans every
 * execution afresh (force_custom_plan, see openDatabase). Planning the order view's joins cost
 * about 3 ms of database CPU per request, ten times its execution; a cached plan costs nothing.
 *
 * Only statements whose plan cannot go wrong belong here: every table is reached through the one
 * index that fits its key (a primary or unique key, all columns given), never through a choice
 * between indexes. A plan cached while a table is nearly empty is kept as the table grows when
 * nothing re-analyzes it; PostgreSQL then breaks a tie between, say, the (merchant, nonce) key and
 * the (merchant, created_at) index arbitrarily, and a wrong pick scans all of a merchant's orders.
 * Inside a transaction, and on PGlite, it is the handle itself.
 */
export function withCachedPlans(db: DbOrTx): DbOrTx {
  return cachedPlanDbs.get(db) ?? db;
}

const cachedPlanDbs = new WeakMap<object, Db>();

/**
 * The planner settings of list reads that one index answers in order (lib/db/list-window.ts
 * `withoutSorts`): no sort, plain or incremental, so such a statement is read from that index
 * whatever the planner believes of the rows it matches.
 */
export const noSortSettings = { enable_sort: "off", enable_incremental_sort: "off" } as const;

/** How the connections of that pool name themselves (pg_stat_activity). */
export const noSortsApplicationName = "gateway list reads";

/**
 * On PostgreSQL, the handle of a third pool whose connections run with `noSortSettings` (list
 * pages, `withoutSorts`): the settings cost no statement. Undefined inside a transaction and on
 * PGlite (one connection), where the caller sets them for one transaction instead.
 */
export function withoutSortsPool(db: DbOrTx): DbOrTx | undefined {
  return noSortDbs.get(db);
}

const noSortDbs = new WeakMap<object, Db>();

const dialect = new PgDialect();

type PreparedStatement = ReturnType<Db["_"]["session"]["prepareQuery"]>;
const preparedStatements = new WeakMap<object, Map<string, PreparedStatement>>();

/**
 * A hand-written statement whose text is built once per database session (drizzle would build
 * it again from its template on every `execute`): `build` writes it with `sql.placeholder(name)`
 * for every value, the returned function runs it with the values, answering the driver's rows
 * (see `rowsOf`). The drizzle logger sees each execution as it sees `execute`.
 */
export function preparedStatement(name: string, build: () => SQL): (db: DbOrTx, values: Record<string, unknown>) => Promise<unknown> {
  let query: ReturnType<PgDialect["sqlToQuery"]> | undefined;
  return (db, values) => {
    const session = db._.session;
    let statements = preparedStatements.get(session);
    if (!statements) preparedStatements.set(session, (statements = new Map()));
    let prepared = statements.get(name);
    if (!prepared) statements.set(name, (prepared = session.prepareQuery((query ??= dialect.sqlToQuery(build())), undefined, name, false)));
    return prepared.execute(values);
  };
}

type PostgresClient = import("postgres").Sql;

/**
 * At most this many statement texts are named (each connection keeps a plan per named text). Most
 * texts are fixed, but a list filter (`in ($1, $2, …)`) makes one per list length; past the cap, new
 * texts go unnamed, as drizzle would send them.
 */
const maxNamedStatements = 500;
const namedStatements = new Set<string>();

function shouldName(query: string): boolean {
  if (namedStatements.has(query)) return true;
  if (namedStatements.size >= maxNamedStatements) return false;
  namedStatements.add(query);
  return true;
}

/**
 * drizzle's postgres.js driver sends every query as an unnamed statement (`prepare: false`), and for
 * one with parameters postgres.js first has the server describe it: two round trips per statement,
 * and PostgreSQL parses and plans it every time. This client names them instead: postgres.js
 * prepares each once per connection and then only binds and executes it, one round trip, the plan
 * reused. Transactions and savepoints get the same client.
 */
function withNamedStatements<T extends PostgresClient>(client: T): T {
  const scoped =
    (method: "begin" | "savepoint") =>
    (...args: unknown[]) => {
      const fn = args.pop() as (tx: PostgresClient) => unknown;
      return (Reflect.get(client, method) as (...a: unknown[]) => unknown)(...args, (tx: PostgresClient) => fn(withNamedStatements(tx)));
    };
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, parameters?: unknown[], options?: Record<string, unknown>) =>
          target.unsafe(query, parameters as never, { ...options, prepare: shouldName(query) });
      }
      if (property === "begin" || property === "savepoint") return scoped(property);
      return Reflect.get(target, property, receiver);
    },
  });
}

// Next.js may load this module more than once (instrumentation vs. routes, dev reloads):
// the connection is a process-wide singleton (lib/process-singleton.ts), opened lazily.
const processDatabase = processSlot<Promise<Database>>("database");

/** The process-wide database, opened (and migrated) on first use. */
export function getDatabase(): Promise<Database> {
  return (
    processDatabase.get() ??
    processDatabase.set(
      openDatabase({ url: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR }).catch((error) => {
        processDatabase.set(undefined);
        throw error;
      }),
    )
  );
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Replace the process-wide database (tests and benchmarks open their own). */
export function setDatabase(database: Database): void {
  processDatabase.set(Promise.resolve(database));
}
