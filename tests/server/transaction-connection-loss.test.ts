import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { databaseUnavailability } from "@/lib/db/errors";
import { backend, createMigratedPostgresDatabase } from "../helpers/db";
import { waitFor } from "../faults/support";

// A connection that dies under a transaction (a database restart, a killed backend): the transaction
// fails as the database being unavailable, nothing is thrown outside it, and the pool's connections all
// work again. postgres.js 3.4.9 sent its own ROLLBACK on the dead connection from a setImmediate and threw
// `Cannot read properties of null (reading 'write')` as an uncaughtException (seen in the database-outage
// fault test), leaving that pool slot unable to connect again; scripts/patch-postgres.mjs fixes it.
// PostgreSQL only: PGlite has no connection to lose.

const onPostgres = describe.skipIf(backend !== "postgres");

let migrated: Awaited<ReturnType<typeof createMigratedPostgresDatabase>>;
let database: Database;
let admin: postgres.Sql;

beforeAll(async () => {
  if (backend !== "postgres") return;
  migrated = await createMigratedPostgresDatabase();
  database = await openDatabase({ url: migrated.url });
  admin = postgres(migrated.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await admin?.end();
  await database?.close();
  await migrated?.drop();
});

onPostgres("a connection lost under a transaction", () => {
  test("fails the transaction as the database being unavailable, throws nothing outside it, and every pooled connection works again", async () => {
    const thrownOutside: unknown[] = [];
    const record = (error: unknown) => thrownOutside.push(error);
    process.on("uncaughtException", record);
    try {
      let pid: number | undefined;
      const transaction = database.db.transaction(async (tx) => {
        const [row] = (await tx.execute(sql`select pg_backend_pid() as pid`)) as unknown as Array<{ pid: number }>;
        pid = row!.pid;
        await tx.execute(sql`select pg_sleep(10)`);
      });
      const outcome = transaction.then(
        () => null,
        (error: unknown) => error,
      );
      const backendPid = await waitFor("the transaction to start", async () => pid, 10_000, 20);
      await admin`select pg_terminate_backend(${backendPid})`;

      const error = await outcome;
      expect(error).not.toBeNull();
      expect(databaseUnavailability(error), String(error)).not.toBeNull();

      // More statements at once than the pool has connections (ten): every connection is used, the dead one among them.
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => database.db.execute(sql`select ${i}::int as n, pg_sleep(0.05)`)));
      expect(answers.map((rows) => (rows as unknown as Array<{ n: number }>)[0]!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      // Room for anything the dead connection had scheduled to run.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(thrownOutside.map(String)).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });
});

/**
 * A TCP proxy in front of the test database that, once armed, cuts the next connection the moment the driver
 * sends its array-types query (a new connection's first statement) and stops listening, so the driver's
 * reconnect is refused: what a connection starting just as PostgreSQL goes down meets.
 */
async function startCuttingProxy(target: URL) {
  let armed = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const cut = armed;
    client.on("data", (chunk: Buffer) => {
      if (cut && chunk.includes("typarray")) {
        armed = false;
        server.close();
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on("error", () => {});
      socket.on("close", () => (client.destroy(), upstream.destroy(), sockets.delete(socket)));
    }
  });
  const listen = (port = 0) => new Promise<number>((resolve) => server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  const port = await listen();
  return {
    url: Object.assign(new URL(target), { host: `127.0.0.1:${port}` }).toString(),
    arm: () => (armed = true),
    listenAgain: () => listen(port),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}

onPostgres("a connection lost while it starts", () => {
  test("the driver's own array-types query failing throws nothing outside: the waiting statement fails as the database being unavailable, and the pool works again", async () => {
    const unhandled: unknown[] = [];
    const record = (error: unknown) => unhandled.push(error);
    process.on("unhandledRejection", record);
    const proxy = await startCuttingProxy(new URL(migrated.url));
    const throughProxy = await openDatabase({ url: proxy.url });
    try {
      proxy.arm();
      const error = await throughProxy.db.execute(sql`select 1 as n`).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).not.toBeNull();
      expect(databaseUnavailability(error), String(error)).not.toBeNull();
      // Room for the driver's own promise to settle and be reported.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled.map(String)).toEqual([]);

      await proxy.listenAgain();
      const rows = await waitFor("the pool to connect again", async () => {
        const answer = (await throughProxy.db.execute(sql`select 2 as n`).catch(() => undefined)) as unknown as Array<{ n: number }> | undefined;
        return answer?.[0]?.n === 2 ? answer : undefined;
      });
      expect(rows[0]!.n).toBe(2);
    } finally {
      process.off("unhandledRejection", record);
      await throughProxy.close();
      await proxy.close();
    }
  });
});
