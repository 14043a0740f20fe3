import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { backend } from "../helpers/db";

// PGlite's PostgreSQL takes its time from the JavaScript clock. Written to while that clock is years ahead (a test
// faking `Date`), it arms its statistics timeout for years ahead; with the real clock back the alarm finds it not yet
// due and asks for a timer of years, which Node fires after 1 ms (TimeoutOverflowWarning), again and again: a test
// worker spun on it until the database closed. scripts/patch-pglite.mjs caps the alarm's delay; this checks that
// nothing spins. PGlite only (PostgreSQL keeps its own clock). On a database of its own: one opened from the suite's
// migrated snapshot did not arm that timeout here.

const onPglite = describe.skipIf(backend !== "pglite");

let database: Database;
beforeAll(async () => {
  if (backend === "pglite") database = await openDatabase({ pgliteDir: "memory://" });
});
afterAll(async () => {
  await database?.close();
});

onPglite("a clock faked years ahead, then the real one again", () => {
  test("PostgreSQL's alarm does not spin on a timer Node cannot hold", async () => {
    await database.db.execute(sql`create table faked_clock_probe (x int)`);
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2030-05-31T20:00:00Z") });
    try {
      for (let i = 0; i < 3; i++) await database.db.execute(sql`insert into faked_clock_probe values (${i})`);
    } finally {
      vi.useRealTimers();
    }

    const overflows: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === "TimeoutOverflowWarning") overflows.push(warning.message);
    };
    process.on("warning", onWarning);
    try {
      // The statistics timeout fires 10 s after it was armed; a statement timeout makes the alarm go off after 300 ms,
      // and the alarm then sets itself again for the statistics timeout, years away: where the spin starts.
      await database.db.execute(sql`set statement_timeout = '300ms'`);
      await database.db.execute(sql`select count(*) from faked_clock_probe`);
      await database.db.execute(sql`reset statement_timeout`);
      const until = Date.now() + 1_500;
      while (Date.now() < until) {
        await database.db.execute(sql`select count(*) from faked_clock_probe`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      process.off("warning", onWarning);
    }
    expect(overflows.length, overflows.slice(0, 3).join("\n")).toBe(0);
  });
});
