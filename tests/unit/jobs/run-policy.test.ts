import { describe, expect, test } from "vitest";
import { backoffDelayMs, nextRun, retryInMsOf } from "@/lib/jobs/run-policy";

const policy = { baseMs: 1_000, capMs: 30_000 };
const noJitter = () => 1;
const fullJitter = () => 0;

describe("backoffDelayMs: the wait before a retry", () => {
  test("doubles from the base with each error in a row, up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelayMs(n, policy, noJitter))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(backoffDelayMs(1_000, policy, noJitter)).toBe(30_000);
  });

  test("jitters up to 20 % below, never above", () => {
    expect(backoffDelayMs(3, policy, fullJitter)).toBe(3_200);
    expect(backoffDelayMs(6, policy, fullJitter)).toBe(24_000);
    for (let i = 0; i < 50; i++) {
      const delay = backoffDelayMs(2, policy);
      expect(delay).toBeGreaterThanOrEqual(1_600);
      expect(delay).toBeLessThanOrEqual(2_000);
    }
  });

  test("a streak of zero (or less) waits the base", () => {
    expect(backoffDelayMs(0, policy, noJitter)).toBe(1_000);
    expect(backoffDelayMs(-3, policy, noJitter)).toBe(1_000);
  });
});

describe("nextRun: what both drivers do after a run", () => {
  const task = { intervalMs: 5_000 };

  test("a success sleeps what the run named, else the interval, and ends the streak", () => {
    expect(nextRun({ ok: true, nextRunInMs: 700 }, 4, task, policy, noJitter)).toEqual({ sleepMs: 700, consecutiveErrors: 0, backingOff: false });
    expect(nextRun({ ok: true }, 0, task, policy, noJitter)).toEqual({ sleepMs: 5_000, consecutiveErrors: 0, backingOff: false });
    expect(nextRun({ ok: true, nextRunInMs: 0 }, 0, task, policy, noJitter).sleepMs).toBe(0);
  });

  test("a failure extends the streak and sleeps its backoff, whatever the interval", () => {
    expect(nextRun({ ok: false }, 0, task, policy, noJitter)).toEqual({ sleepMs: 1_000, consecutiveErrors: 1, backingOff: true });
    expect(nextRun({ ok: false }, 2, task, policy, noJitter)).toEqual({ sleepMs: 4_000, consecutiveErrors: 3, backingOff: true });
    expect(nextRun({ ok: false }, 10, { intervalMs: 60 * 60_000 }, policy, noJitter).sleepMs).toBe(30_000);
  });

  test("a failure that names a sooner retry sleeps that, never longer than its backoff, and still extends the streak", () => {
    expect(nextRun({ ok: false, retryInMs: 500 }, 4, task, policy, noJitter)).toEqual({ sleepMs: 500, consecutiveErrors: 5, backingOff: true });
    expect(nextRun({ ok: false, retryInMs: 60_000 }, 0, task, policy, noJitter).sleepMs).toBe(1_000);
  });

  test("retryInMsOf reads a failed run's error: a finite number of milliseconds, else nothing", () => {
    expect(retryInMsOf(Object.assign(new Error("part failed"), { retryInMs: 2_000 }))).toBe(2_000);
    expect(retryInMsOf(Object.assign(new Error("x"), { retryInMs: 0 }))).toBe(0);
    for (const error of [
      new Error("plain"),
      null,
      undefined,
      "text",
      Object.assign(new Error("x"), { retryInMs: -1 }),
      Object.assign(new Error("x"), { retryInMs: "5" }),
      Object.assign(new Error("x"), { retryInMs: Infinity }),
    ]) {
      expect(retryInMsOf(error)).toBeUndefined();
    }
  });
});
