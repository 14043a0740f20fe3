import { afterEach, describe, expect, test, vi } from "vitest";
import { judge, maxRetryAfterMs, nextState, parseRetryAfter, retrySchedule, type AttemptOutcome } from "@/lib/webhooks/retry-schedule";

const outcome = (statusCode: number | null, extra: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  statusCode,
  error: null,
  retryAfterMs: null,
  refused: false,
  ...extra,
});
const schedule = { delaysMs: [1000, 2000, 4000], jitter: 0.2 };

describe("retry rules", () => {
  test("any 2xx succeeds", () => {
    for (const code of [200, 201, 202, 204, 299]) expect(nextState(outcome(code), 1, schedule)).toEqual({ status: "succeeded" });
  });

  test("410 fails and disables the endpoint; a refused URL fails at once", () => {
    expect(nextState(outcome(410), 1, schedule)).toMatchObject({ status: "failed", disableEndpoint: true });
    expect(nextState(outcome(null, { error: "Refused: private", refused: true }), 1, schedule)).toMatchObject({
      status: "failed",
      disableEndpoint: false,
      reason: "Refused: private",
    });
  });

  test("other answers back off on the schedule with ±20 % jitter, then give up", () => {
    for (const code of [null, 301, 400, 401, 404, 500, 503]) {
      const low = nextState(outcome(code, { error: code === null ? "ECONNREFUSED" : null }), 2, schedule, () => 0);
      const high = nextState(outcome(code), 2, schedule, () => 1);
      expect(low).toMatchObject({ status: "pending", delayMs: 1600 });
      expect(high).toMatchObject({ status: "pending", delayMs: 2400 });
    }
    expect(nextState(outcome(500), 3, schedule, () => 0.5)).toMatchObject({ status: "pending", delayMs: 4000 });
    expect(nextState(outcome(500), 4, schedule)).toMatchObject({ status: "failed", reason: "HTTP 500 (gave up after 4 attempts)" });
  });

  test("Retry-After is honoured for 429 and 5xx only, and capped at 24 h", () => {
    expect(nextState(outcome(429, { retryAfterMs: 90_000 }), 1, schedule)).toMatchObject({ status: "pending", delayMs: 90_000 });
    expect(nextState(outcome(503, { retryAfterMs: 5_000 }), 1, schedule)).toMatchObject({ delayMs: 5_000 });
    expect(nextState(outcome(503, { retryAfterMs: 30 * 24 * 3600_000 }), 1, schedule)).toMatchObject({ delayMs: maxRetryAfterMs });
    expect(nextState(outcome(400, { retryAfterMs: 90_000 }), 1, schedule, () => 0.5)).toMatchObject({ delayMs: 1000 });
    // …but never past the end of the schedule
    expect(nextState(outcome(429, { retryAfterMs: 1000 }), 4, schedule)).toMatchObject({ status: "failed" });
    expect(judge(outcome(429, { retryAfterMs: 1000 }))).toEqual({ kind: "retry", reason: "HTTP 429", retryAfterMs: 1000 });
  });

  test("Retry-After is read as seconds or an HTTP date", () => {
    const now = new Date("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:05:00 GMT", now)).toBe(300_000);
    expect(parseRetryAfter("Mon, 31 Dec 2029 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe("WEBHOOK_RETRY_SCHEDULE_SECONDS", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  test("the default spans about three days over 10 retries", () => {
    const { delaysMs } = retrySchedule();
    expect(delaysMs).toHaveLength(10);
    const days = delaysMs.reduce((a, b) => a + b, 0) / 86_400_000;
    expect(days).toBeGreaterThan(2.5);
    expect(days).toBeLessThan(3.5);
  });

  test("a comma list of seconds (fractions allowed) replaces it", async () => {
    vi.stubEnv("WEBHOOK_RETRY_SCHEDULE_SECONDS", "0.5, 1,2");
    vi.resetModules();
    const fresh = await import("@/lib/webhooks/retry-schedule");
    expect(fresh.retrySchedule().delaysMs).toEqual([500, 1000, 2000]);
  });

  test.each(["", "1,,2", "-1", "ten"])("%j is refused at startup", async (value) => {
    vi.stubEnv("WEBHOOK_RETRY_SCHEDULE_SECONDS", value);
    vi.resetModules();
    await expect(import("@/lib/env")).rejects.toThrow(/WEBHOOK_RETRY_SCHEDULE_SECONDS/);
  });
});
