import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import { startLocalDriver, type LocalDriver } from "@/lib/jobs/local/driver";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { ensureLocalDriver, runningLocalDriver, stopLocalDriver } from "@/lib/jobs/start";
import { defineTask, type AnyTask } from "@/lib/jobs/tasks";
import { registeredTasks } from "@/lib/engine/registry";
import { deliverWebhooksTask, deliveryIdleBackstopMs } from "@/lib/engine/upkeep-tasks";
import { drainDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { backend, createMigratedPostgresDatabase, openTestPglite } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { orderFor, recordEventFor, settlePending, startReceiver, type Receiver } from "../webhooks/support";

// Own setup: on PostgreSQL the "second instance" opens its own connection pool to the same database.
let database: Database;
let url: string | undefined;
let drop: (() => Promise<void>) | undefined;
let receiver: Receiver;
const drivers: LocalDriver[] = [];
const extraDatabases: Database[] = [];

beforeAll(async () => {
  if (backend === "postgres") {
    const migrated = await createMigratedPostgresDatabase();
    url = migrated.url;
    drop = migrated.drop;
  }
  database = url ? await openDatabase({ url }) : await openTestPglite();
  setDatabase(database);
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
  await stopLocalDriver();
  receiver.reply(() => ({ status: 200 }));
  await settlePending(database.db);
});
afterAll(async () => {
  await receiver.close();
  for (const extra of extraDatabases) await extra.close();
  await database.close();
  await drop?.();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function start(tasks: AnyTask[], db = database.db): LocalDriver {
  const driver = startLocalDriver(tasks, { db });
  drivers.push(driver);
  return driver;
}

/** Another app instance's database handle: a separate pool on PostgreSQL, the same (only) connection on PGlite. */
async function secondInstanceDb() {
  if (!url) return database.db;
  const other = await openDatabase({ url });
  extraDatabases.push(other);
  return other.db;
}

async function until(condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}

describe("local driver", () => {
  test("a task never overlaps itself, however often it is kicked", async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    const task = defineTask({
      name: "test-single-flight",
      intervalMs: 5,
      async run() {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await sleep(30);
        running -= 1;
        runs += 1;
      },
    });
    const driver = start([task]);
    for (let i = 0; i < 20; i++) {
      driver.kick(task.name);
      await sleep(5);
    }
    await until(() => runs >= 4);
    expect(maxRunning).toBe(1);
  });

  test("kick runs a task right away instead of waiting for its interval; a kick during a run runs it again after", async () => {
    const startedAt: number[] = [];
    let release: () => void = () => {};
    const task = defineTask({
      name: "test-kick",
      intervalMs: 60_000,
      async run() {
        startedAt.push(Date.now());
        if (startedAt.length === 2) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const driver = start([task]);
    await until(() => startedAt.length === 1);
    const kickedAt = Date.now();
    driver.kick(task.name);
    await until(() => startedAt.length === 2);
    expect(startedAt[1]! - kickedAt).toBeLessThan(500);
    driver.kick(task.name); // arrives while run 2 is blocked
    release();
    await until(() => startedAt.length === 3);
  });

  test("an error is logged and the loop goes on", async () => {
    let runs = 0;
    const task = defineTask({
      name: "test-errors",
      intervalMs: 10,
      async run() {
        runs += 1;
        if (runs <= 2) throw new Error("boom");
      },
    });
    start([task]);
    await until(() => runs >= 4);
  });

  test("stop() waits for the run under way and nothing runs afterwards", async () => {
    let runs = 0;
    let finished = 0;
    const task = defineTask({
      name: "test-stop",
      intervalMs: 1,
      async run() {
        runs += 1;
        await sleep(50);
        finished += 1;
      },
    });
    const driver = startLocalDriver([task], { db: database.db });
    await until(() => runs >= 1);
    await driver.stop();
    expect(finished).toBe(runs);
    const after = runs;
    driver.kick(task.name);
    await sleep(100);
    expect(runs).toBe(after);
  });

  test.skipIf(backend !== "postgres")("the advisory lock keeps two instances from running an exclusive task at the same time", async () => {
    const intervals: Array<{ who: number; start: number; end: number }> = [];
    const make = (who: number, concurrency: "exclusive" | "shared") =>
      defineTask({
        name: `test-lock-${concurrency}`,
        intervalMs: 1,
        concurrency,
        async run() {
          const begin = performance.now();
          await sleep(40);
          intervals.push({ who, start: begin, end: performance.now() });
        },
      });
    const overlaps = () => intervals.some((a) => intervals.some((b) => a.who !== b.who && a.start < b.end && b.start < a.end));

    const otherDb = await secondInstanceDb();
    start([make(1, "exclusive")]);
    start([make(2, "exclusive")], otherDb);
    await until(() => intervals.filter((i) => i.who === 1).length >= 5 && intervals.filter((i) => i.who === 2).length >= 3, 15_000);
    expect(overlaps()).toBe(false);
    await Promise.all(drivers.splice(0).map((d) => d.stop()));

    // Control: without the lock ("shared") the same two loops do overlap.
    intervals.length = 0;
    start([make(1, "shared")]);
    start([make(2, "shared")], otherDb);
    await until(() => intervals.length >= 10, 15_000);
    expect(overlaps()).toBe(true);
  });

  test("two instances share the due deliveries (SKIP LOCKED): every webhook goes out exactly once", async () => {
    const merchant = await createMerchant();
    await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/shared") } });
    const order = await orderFor(merchant);
    const total = 150;
    const messageIds = new Set<string>();
    for (let i = 0; i < total; i++) for (const d of (await recordEventFor(database.db, merchant, order)).deliveries) messageIds.add(d.messageId);
    receiver.reply(() => ({ status: 200 }));
    const before = receiver.requests.length;

    const claimedBy: [number, number] = [0, 0];
    const worker = (who: 0 | 1) =>
      defineTask({
        name: deliverWebhooksTask.name,
        intervalMs: 5,
        concurrency: "shared",
        async run(db) {
          claimedBy[who] += await drainDueWebhooks(db, { concurrency: 4, perReceiver: 4 });
        },
      });
    start([worker(0)]);
    start([worker(1)], await secondInstanceDb());
    await receiver.waitFor(before + total, 30_000);
    await sleep(200);

    const sent = receiver.requests.slice(before).map((r) => r.headers["webhook-id"] as string);
    expect(sent).toHaveLength(total);
    expect(new Set(sent)).toEqual(messageIds);
    expect(claimedBy[0] + claimedBy[1]).toBe(total);
    if (backend === "postgres") {
      expect(claimedBy[0]).toBeGreaterThan(0);
      expect(claimedBy[1]).toBeGreaterThan(0);
    }
  });

  test("an idle task sleeps as long as its run says (nextRunInMs), not its interval; a kick still wakes it", async () => {
    const startedAt: number[] = [];
    const task = defineTask({
      name: "test-idle",
      intervalMs: 5,
      async run() {
        startedAt.push(Date.now());
        return { nextRunInMs: 60_000 };
      },
    });
    const driver = start([task]);
    await until(() => startedAt.length === 1);
    await sleep(300);
    expect(startedAt).toHaveLength(1); // polling every 5 ms would have run it ~60 times
    const kickedAt = Date.now();
    driver.kick(task.name);
    await until(() => startedAt.length === 2);
    expect(startedAt[1]! - kickedAt).toBeLessThan(500);
  });

  test("the delivery task sleeps until the next delivery falls due, or the backstop when none is pending", async () => {
    await settlePending(database.db);
    const idle = await deliverWebhooksTask.run(database.db, {});
    expect(idle).toEqual({ nextRunInMs: deliveryIdleBackstopMs });

    const merchant = await createMerchant();
    await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/failing") } });
    receiver.reply(() => ({ status: 500 }));
    await recordEventFor(database.db, merchant, await orderFor(merchant));
    const afterFailure = await deliverWebhooksTask.run(database.db, {}); // attempts it now; the retry is 30 s (±20 % jitter) out
    expect(afterFailure?.nextRunInMs).toBeGreaterThan(20_000);
    expect(afterFailure?.nextRunInMs).toBeLessThanOrEqual(36_000);
  });

  test("the process-wide driver delivers a recorded event within a second of the kick", async () => {
    const merchant = await createMerchant();
    await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url("/fast") } });
    const order = await orderFor(merchant);
    const driver = await ensureLocalDriver(registeredTasks);
    expect(await ensureLocalDriver(registeredTasks)).toBe(driver); // one per process
    expect(runningLocalDriver()).toBeDefined();
    await sleep(50); // let its first (empty) round pass

    const before = receiver.requests.length;
    const recordedAt = Date.now();
    await recordEventFor(database.db, merchant, order);
    await notifyDeliveriesDue();
    await receiver.waitFor(before + 1, 1000);
    expect(receiver.requests[before]!.at - recordedAt).toBeLessThan(1000);
    await stopLocalDriver();
    expect(runningLocalDriver()).toBeUndefined();
  });
});
