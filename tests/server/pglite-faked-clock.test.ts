import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { backend, forgetFakedClock } from "../helpers/db";

// PGlite's PostgreSQL takes its time from the JavaScript clock. After a test that fakes it years ahead and writes,
// PostgreSQL's statistics timeout stays set for years ahead of the real clock: Node cannot hold such a timer and
// fires it after 1 ms, again and again (TimeoutOverflowWarning), and a test worker spun on it until the database
// closed. tests/helpers/db.ts runs forgetFakedClock after each test and between files; this checks that it ends
// the spin. PGlite only (PostgreSQL keeps its own clock). On a database of its own, made and migrated here: one
// opened from the suite's migrated snapshot did not arm that timeout in this test (whole runs showed it did there).

const onPglite = describe.skipIf(backend !== "pglite");

let database: Database;
beforeAll(async () => {
  if (backend === "pglite") database = await openDatabase({ pgliteDir: "memory://" });
});
afterAll(async () => {
  await database?.close();
});

onPglite("a clock faked years ahead, then the real one again", () => {
  test("after forgetFakedClock, no timer fires at once in the next 13 s (PostgreSQL's would within 10 s)", async () => {
    await database.db.execute(sql`create table faked_clock_probe (x int)`);
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-05-31T20:00:00Z") });
    try {
      for (let i = 0; i < 3; i++) await database.db.execute(sql`insert into faked_clock_probe values (${i})`);
    } finally {
      vi.useRealTimers();
    }
    await forgetFakedClock(database);

    const overflows: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === "TimeoutOverflowWarning") overflows.push(warning.message);
    };
    process.on("warning", onWarning);
    try {
      const until = Date.now() + 13_000;
      while (Date.now() < until) {
        await database.db.execute(sql`select count(*) from faked_clock_probe`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      process.off("warning", onWarning);
    }
    expect(overflows.length, overflows.slice(0, 3).join("\n")).toBe(0);
  });
});
