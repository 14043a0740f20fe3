import { describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/map-row";
import { backend, createEmptyPostgresDatabase } from "../helpers/db";

// Two instances starting at the same moment on an empty database both migrate it (PGlite is one
// process, so this is PostgreSQL's case).
describe.skipIf(backend !== "postgres")("instances starting together on an empty database", () => {
  test("migrate it once between them and both start", async () => {
    const empty = await createEmptyPostgresDatabase();
    try {
      const opened = await Promise.allSettled([openDatabase({ url: empty.url }), openDatabase({ url: empty.url }), openDatabase({ url: empty.url })]);
      const failures = opened.filter((result) => result.status === "rejected").map((result) => String((result as PromiseRejectedResult).reason));
      expect(failures).toEqual([]);
      const [first] = opened as PromiseFulfilledResult<Awaited<ReturnType<typeof openDatabase>>>[];
      const applied = rowsOf(await first!.value.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n;
      const journal = (await import("@/drizzle/meta/_journal.json")).default as { entries: unknown[] };
      expect(applied).toBe(journal.entries.length);
      await Promise.all(opened.map((result) => (result.status === "fulfilled" ? result.value.close() : undefined)));
    } finally {
      await empty.drop();
    }
  });
});
