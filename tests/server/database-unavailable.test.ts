import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET as liveness } from "@/app/api/health/live/route";
import { GET as readiness } from "@/app/api/health/ready/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as listOrders, POST as createOrderRoute } from "@/app/api/payment-orders/route";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import { taskStates } from "@/lib/jobs/task-state";
import { startLocalDriver, type LocalDriver } from "@/lib/jobs/local/driver";
import { defineTask } from "@/lib/jobs/tasks";
import { captureOutput } from "../helpers/capture-output";
import { backend } from "../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from "../faults/private-postgres";
import { signInAs } from "../dashboard/session";

const { updateToleranceAction } = await import("@/app/(dashboard)/dashboard/settings/actions");

// The database stops under the running code (its own PostgreSQL cluster, `pg_ctl stop -m fast`):
// routes answer a fast 503 SERVICE_UNAVAILABLE with Retry-After, readiness fails on the database
// while liveness stays up, an exclusive task (advisory lock on its own connection) backs off with
// one warning, and everything recovers by itself when the database is back. PostgreSQL only:
// PGlite is embedded in the process and cannot go away on its own.

const outageScenario = describe.skipIf(backend !== "postgres" || !privatePostgresAvailable);

let cluster: PrivatePostgres;
let database: Database;
let merchant: TestMerchant;
let driver: LocalDriver | undefined;
let ticks = 0;

beforeAll(async () => {
  if (backend !== "postgres" || !privatePostgresAvailable) return;
  cluster = await startPrivatePostgres();
  database = await openDatabase({ url: cluster.url });
  setDatabase(database);
  merchant = await createMerchant();
  await createWallet(merchant);
  signInAs(merchant);
}, 120_000);

afterAll(async () => {
  await driver?.stop();
  await database?.close();
  await cluster?.destroy();
});

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started };
}

outageScenario("PostgreSQL stops under the running code", () => {
  test(
    "503 with Retry-After within seconds, readiness 503 / liveness 200, one warning per task, recovery without a restart",
    { timeout: 120_000 },
    async () => {
      const tolerance = (bps: string) => {
        const form = new FormData();
        form.append("payment_tolerance_bps", bps);
        return updateToleranceAction(form);
      };
      const orders = () => call(listOrders, "GET", "/api/payment-orders/", { token: merchant.access });
      const newOrder = (nonce: number) =>
        call(createOrderRoute, "POST", "/api/payment-orders/", {
          token: merchant.access,
          body: { amount: "1", currency: "USDC", blockchain: "base", order_info: "{}", nonce },
        });
      driver = startLocalDriver(
        [
          defineTask({
            name: "test-database-ping",
            intervalMs: 100,
            concurrency: "exclusive",
            async run(db) {
              await db.execute(sql`select 1`);
              ticks += 1;
            },
          }),
        ],
        { db: database.db, backoff: { baseMs: 200, capMs: 1_000 } },
      );
      await until("a first tick", () => ticks > 0);
      expect((await orders()).status).toBe(200);
      expect((await call(readiness, "GET", "/api/health/ready")).status).toBe(200);

      const { lines } = await captureOutput(async () => {
        await cluster.stop();
        const outageStarted = Date.now();

        const read = await timed(orders);
        const write = await timed(() => newOrder(1));
        for (const { result, ms } of [read, write]) {
          expect(result.status).toBe(503);
          expect(result.body).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE" }, retry_after: 5 });
          expect(result.headers.get("retry-after")).toBe("5");
          expect(ms).toBeLessThan(5_000);
        }
        // A dashboard action (authedAction) says the same, as its result rather than a 500 page.
        const action = await timed(() => tolerance("30"));
        expect(action.result).toEqual({
          ok: false,
          error: { code: "SERVICE_UNAVAILABLE", message: "The service is temporarily unavailable. Try again in a few seconds." },
        });
        expect(action.ms).toBeLessThan(5_000);
        const ready = await timed(() => call(readiness, "GET", "/api/health/ready"));
        expect(ready.result.status).toBe(503);
        expect(ready.result.body).toMatchObject({ status: "not_ready", checks: { database: { status: "failed" } } });
        expect(ready.result.body.failed).toContain("database");
        expect(ready.ms).toBeLessThan(5_000);
        expect((await call(liveness, "GET", "/api/health/live")).status).toBe(200);
        const scrape = await metricsRoute(new Request("http://localhost/api/metrics"), { params: Promise.resolve({}) });
        expect(scrape.status).toBe(200);
        expect(await scrape.text()).toMatch(/^gateway_database_up 0$/m);

        // The task keeps failing, backing off (0.2, 0.4, 0.8, 1, 1 s): a few retries, not one per 100 ms.
        await until("the task to fail a few times", () => (taskStates().find((s) => s.task === "test-database-ping")?.consecutiveErrors ?? 0) >= 4);
        const failing = taskStates().find((s) => s.task === "test-database-ping")!;
        expect(failing.backingOffUntil).not.toBeNull();
        expect(failing.consecutiveErrors).toBeLessThanOrEqual(Math.ceil((Date.now() - outageStarted) / 160) + 1);

        await cluster.start();
        await until("the API to answer again", async () => (await orders()).status === 200);
        expect((await newOrder(2)).status).toBe(201);
        expect(await tolerance("30")).toEqual({ ok: true, data: { payment_tolerance_bps: 30 } });
        const ticksAfter = ticks;
        await until("the task to tick again", () => ticks > ticksAfter && taskStates().find((s) => s.task === "test-database-ping")?.consecutiveErrors === 0);
        await until("readiness to pass again", async () => (await call(readiness, "GET", "/api/health/ready")).status === 200);
      });

      const taskLines = lines.filter((l) => l.task === "test-database-ping" && l.level !== "debug");
      expect(taskLines.map((l) => [l.level, l.msg])).toEqual([
        ["warn", "task failing: database unavailable; retrying with backoff"],
        ["info", "task recovered"],
      ]);
      expect(lines.filter((l) => l.msg === "unhandled error")).toEqual([]);
      expect(lines.filter((l) => l.msg === "database unavailable; answered 503").length).toBeGreaterThanOrEqual(2);
      expect(lines.filter((l) => l.msg === "database unavailable; dashboard action refused")).toHaveLength(1);
      expect(lines.filter((l) => l.level === "error")).toEqual([]);
    },
  );
});
