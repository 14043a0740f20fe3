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
      const outcome = transaction.then(() => null, (error: unknown) => error);
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
