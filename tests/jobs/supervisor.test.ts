import { afterAll, afterEach, describe, expect, test } from "vitest";
import { GET as liveness } from "@/app/api/health/live/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as readiness } from "@/app/api/health/ready/route";
import { chainTasks } from "@/lib/engine/tasks";
import { chainClient } from "@/lib/chains/clients";
import { backoffDelayMs, RunDeadlineExceeded } from "@/lib/jobs/supervisor";
import { defaultTaskGraceMs, setTaskClock, taskStates } from "@/lib/jobs/task-state";
import { taskNames } from "@/lib/jobs/kick";
import { startLocalDriver, type LocalDriver } from "@/lib/jobs/local/driver";
import { defineTask, type AnyTask } from "@/lib/jobs/tasks";
import { captureOutput } from "../helpers/capture-output";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { call } from "../helpers/request";

// The local driver's supervision (lib/jobs/supervisor.ts) and what it shows operators: task
// state, readiness and metrics, against the real database and devnet.

const testDb = setupTestDatabase();
const devnet = setupTestDevnet();
const drivers: LocalDriver[] = [];

afterEach(async () => {
  setTaskClock(undefined);
  await Promise.all(drivers.splice(0).map((d) => d.stop()));
});
afterAll(() => setTaskClock(undefined));

function start(tasks: AnyTask[], options: { runDeadlineMs?: number; backoff?: { baseMs: number; capMs: number } } = {}): LocalDriver {
  const driver = startLocalDriver(tasks, { db: testDb.db, ...options });
  drivers.push(driver);
  return driver;
}

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const stateOf = (task: string) => taskStates().find((s) => s.task === task);

describe("supervised task loops", () => {
  test("a run that hangs past its deadline is abandoned (its signal aborted) and the loop runs again", async () => {
    let runs = 0;
    let abortedWith: unknown;
    const task = defineTask({
      name: "test-hangs-once",
      intervalMs: 10,
      runDeadlineMs: 300,
      async run(_db, { signal }) {
        runs += 1;
        if (runs === 1) {
          // Never settles on its own: only the deadline gets the loop past it.
          await new Promise<never>(() => signal?.addEventListener("abort", () => (abortedWith = signal.reason)));
        }
        return { nextRunInMs: 10 };
      },
    });
    const { lines } = await captureOutput(async () => {
      start([task], { backoff: { baseMs: 20, capMs: 100 } });
      await until("a second run after the hung one", () => runs >= 3);
    });
    expect(abortedWith).toBeInstanceOf(RunDeadlineExceeded);
    const state = stateOf("test-hangs-once")!;
    expect(state.restarts).toBe(1);
    expect(state.consecutiveErrors).toBe(0);
    expect(state.lastError).toMatch(/deadline \(300 ms\)/);
    expect(lines.filter((l) => l.task === "test-hangs-once").map((l) => [l.level, l.msg])).toEqual([
      ["error", "task failing; retrying with backoff"],
      ["info", "task recovered"],
    ]);
  });

  test("errors back off exponentially up to the cap: one error line for the streak, one recovered line", async () => {
    const runTimes: number[] = [];
    const task = defineTask({
      name: "test-fails-five-times",
      intervalMs: 10,
      async run() {
        runTimes.push(performance.now());
        if (runTimes.length <= 5) throw new Error("receiver of our own making is down");
        return { nextRunInMs: 60_000 };
      },
    });
    const { lines } = await captureOutput(async () => {
      start([task], { backoff: { baseMs: 100, capMs: 400 } });
      // The sixth run has started when its time is noted; its success is recorded once it returns (and the task lock is released).
      await until("the sixth run to succeed", () => runTimes.length >= 6 && stateOf("test-fails-five-times")?.lastSuccessAt != null);
    });
    const gaps = runTimes.slice(1).map((t, i) => t - runTimes[i]!);
    // 100, 200, 400, 400, 400 ms, each with up to 20 % jitter below (and some scheduling lateness above).
    const expected = [100, 200, 400, 400, 400];
    gaps.forEach((gap, i) => {
      expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(expected[i]! * 0.8 - 5);
      expect(gap, `gap ${i + 1}`).toBeLessThan(expected[i]! + 250);
    });
    const state = stateOf("test-fails-five-times")!;
    expect(state.consecutiveErrors).toBe(0);
    expect(state.lastError).toBe("receiver of our own making is down");
    expect(state.backingOffUntil).toBeNull();
    const mine = lines.filter((l) => l.task === "test-fails-five-times");
    expect(mine.map((l) => [l.level, l.msg])).toEqual([
      ["error", "task failing; retrying with backoff"],
      ["info", "task recovered"],
    ]);
    expect(mine[1]).toMatchObject({ after_errors: 5 });
  });

  test("a kick cuts an error backoff short, but never retries sooner than the base delay after the failure", async () => {
    const runTimes: number[] = [];
    const task = defineTask({
      name: "test-kicked-in-backoff",
      intervalMs: 10,
      async run() {
        runTimes.push(performance.now());
        // Two failures: the second backoff is 2 × 100 ms… capped far above anything the test waits for.
        if (runTimes.length <= 2) throw new Error("provider down");
        return { nextRunInMs: 60_000 };
      },
    });
    await captureOutput(async () => {
      const driver = start([task], { backoff: { baseMs: 100, capMs: 60_000 } });
      await until("the second run", () => runTimes.length >= 2);
      // Now in a backoff of ~200 ms: a storm of kicks retries once, about one base delay after the failure.
      const failedAt = runTimes[1]!;
      for (let i = 0; i < 20; i++) driver.kick("test-kicked-in-backoff");
      await until("the third run", () => runTimes.length >= 3);
      expect(runTimes[2]! - failedAt).toBeGreaterThanOrEqual(95);
      expect(runTimes.length).toBe(3);
    });
    // A long backoff is cut short by a kick: after six failures the wait is ~3.2 s (±20 %); the kick
    // retries about a base delay after the failure. Timers never fire early, so a retry before the
    // backoff's own end (read from the task's state, same clock) is the kick's doing, however slow
    // the machine is.
    const longRuns: number[] = [];
    const slow = defineTask({
      name: "test-kicked-in-long-backoff",
      intervalMs: 10,
      async run() {
        longRuns.push(Date.now());
        if (longRuns.length <= 6) throw new Error("provider down");
        return { nextRunInMs: 60_000 };
      },
    });
    await captureOutput(async () => {
      const driver = start([slow], { backoff: { baseMs: 100, capMs: 60_000 } });
      const state = () => taskStates().find((s) => s.task === "test-kicked-in-long-backoff");
      await until("the sixth failure's backoff", () => longRuns.length >= 6 && (state()?.consecutiveErrors ?? 0) >= 6, 10_000);
      const backoffEndsAt = state()!.backingOffUntil!;
      expect(backoffEndsAt - longRuns[5]!).toBeGreaterThanOrEqual(3_200 * 0.8 - 50);
      driver.kick("test-kicked-in-long-backoff");
      await until("the retry after the kick", () => longRuns.length >= 7, 10_000);
      expect(longRuns[6]!).toBeLessThan(backoffEndsAt);
    });
  });

  test("backoff doubles from the base and stops at the cap", () => {
    const policy = { baseMs: 1_000, capMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelayMs(n, policy, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(3_200);
  });
});

describe("health and metrics", () => {
  test("liveness answers 200 without touching anything", async () => {
    const res = await call(liveness, "GET", "/api/health/live");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "alive" });
  });

  test("readiness is 200 while every loop ticks on time, and 503 naming the task once one is overdue (moved clock, no sleeping)", async () => {
    let runs = 0;
    start([
      defineTask({
        name: "test-idle-minute",
        intervalMs: 1_000,
        async run() {
          runs += 1;
          return { nextRunInMs: 60_000 };
        },
      }),
    ]);
    await until("a first tick", () => stateOf("test-idle-minute")?.lastSuccessAt);
    const ready = await call(readiness, "GET", "/api/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: "ready",
      failed: [],
      checks: { database: { status: "ok" }, workers: { status: "ok", driver: "local", stale: [] } },
    });
    expect(ready.body.checks.workers.tasks).toContainEqual(expect.objectContaining({ task: "test-idle-minute", consecutive_errors: 0 }));

    // The loop said it would sleep 60 s: still fine just before 60 s + the grace, overdue just after.
    const lastSuccess = stateOf("test-idle-minute")!.lastSuccessAt!;
    setTaskClock({ now: () => lastSuccess + 60_000 + defaultTaskGraceMs - 1_000 });
    expect((await call(readiness, "GET", "/api/health/ready")).status).toBe(200);
    setTaskClock({ now: () => lastSuccess + 60_000 + defaultTaskGraceMs + 5_000 });
    const late = await call(readiness, "GET", "/api/health/ready");
    expect(late.status).toBe(503);
    expect(late.body).toMatchObject({ status: "not_ready", failed: ["workers"], checks: { database: { status: "ok" }, workers: { status: "failed" } } });
    expect(late.body.checks.workers.stale).toEqual([{ task: "test-idle-minute", overdue_seconds: 5, consecutive_errors: 0, last_error: null }]);
    expect(runs).toBe(1);
  });

  test("after a chain tick, the metrics show the chain's head, its scanned cursor and lag, the task state and the HTTP requests", async () => {
    const watcher = chainTasks().find((task) => task.name === taskNames.watchChain("base"))!;
    start([watcher]);
    await until("the base watcher's first tick", () => stateOf(watcher.name)?.lastSuccessAt, 30_000);
    await devnet.testClient().mine({ blocks: 1 });
    const head = await chainClient(devnet.chain()).getBlockNumber();

    const response = await metricsRoute(new Request("http://localhost/api/metrics"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    const value = (name: string) => {
      const match = text.match(new RegExp(`^${name.replace(/[{}"]/g, "\\$&")} (\\S+)$`, "m"));
      return match ? Number(match[1]) : undefined;
    };
    const seenHead = value('gateway_chain_head_block{chain="base"}')!;
    const scanned = value('gateway_chain_scanned_block{chain="base"}')!;
    expect(seenHead).toBeGreaterThan(0);
    expect(seenHead).toBeLessThanOrEqual(Number(head));
    expect(scanned).toBeGreaterThan(0);
    expect(value('gateway_chain_lag_blocks{chain="base"}')).toBe(Math.max(0, seenHead - scanned));
    expect(value('gateway_chain_last_tick_age_seconds{chain="base"}')).toBeGreaterThanOrEqual(0);
    expect(value(`gateway_task_consecutive_errors{task="${watcher.name}"}`)).toBe(0);
    expect(value(`gateway_task_overdue{task="${watcher.name}"}`)).toBe(0);
    expect(value("gateway_database_up")).toBe(1);
    // The chain's one provider (the devnet), as the watcher's client saw it: in use, answering.
    const provider = `1:${new URL(devnet.rpcUrl).host}`;
    expect(value(`gateway_rpc_provider_requests{chain="base",provider="${provider}"}`)).toBeGreaterThan(0);
    expect(value(`gateway_rpc_provider_set_aside{chain="base",provider="${provider}"}`)).toBe(0);
    expect(value(`gateway_rpc_provider_error_rate{chain="base",provider="${provider}"}`)).toBe(0);
    expect(value(`gateway_rpc_provider_head_lag_blocks{chain="base",provider="${provider}"}`)).toBe(0);
    expect(value(`gateway_rpc_provider_latency_seconds{chain="base",provider="${provider}"}`)).toBeGreaterThan(0);
    expect(value("gateway_webhook_deliveries_due")).toBe(0);
    expect(value('gateway_sweeps{status="failed"}')).toBe(0);
    // The liveness and readiness calls above went through the shared wrapper's request log.
    expect(value('gateway_http_requests_total{method="GET",route="/api/health/live",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(value('gateway_http_requests_total{method="GET",route="/api/health/ready",status="503"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^gateway_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/health\/live"\} \d+$/m);
  });
});
