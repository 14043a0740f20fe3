import { describe, expect, test } from "vitest";
import { consume, fixedWindow, rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { deleteCountersBefore } from "@/lib/rate-limit/queries";
import { setupTestDatabase } from "../helpers/db";

/** The general rate limiter: fixed windows counted in the database, for any key. */
const testDb = setupTestDatabase();
const hour = 3_600_000;

describe("consume", () => {
  test("counts each request against its key in the window, and is over the limit past it", async () => {
    const now = new Date("2030-01-01T10:15:00Z");
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await consume(testDb.db, "test:a", 3, hour, now));
    expect(states.map((s) => [s.remaining, s.exceeded])).toEqual([
      [2, false],
      [1, false],
      [0, false],
      [0, true],
    ]);
    expect(states[3]).toMatchObject({ limit: 3, reset: Date.parse("2030-01-01T11:00:00Z") / 1000, retryAfterSeconds: 45 * 60 });
    // Another key has a count of its own; the next window starts again from one.
    expect((await consume(testDb.db, "test:b", 3, hour, now)).remaining).toBe(2);
    expect((await consume(testDb.db, "test:a", 3, hour, new Date("2030-01-01T11:00:00Z"))).remaining).toBe(2);
  });

  test("windows are fixed clock spans of their length", () => {
    expect(fixedWindow(new Date("2030-01-01T10:59:59.999Z"))).toEqual({ start: new Date("2030-01-01T10:00:00Z"), end: new Date("2030-01-01T11:00:00Z") });
    expect(fixedWindow(new Date("2030-01-01T10:07:00Z"), 5 * 60_000)).toEqual({
      start: new Date("2030-01-01T10:05:00Z"),
      end: new Date("2030-01-01T10:10:00Z"),
    });
  });

  test("the refusal is 429 RATE_LIMITED with retry_after and Retry-After", () => {
    const error = rateLimitedError({ retryAfterSeconds: 42 }, { "X-RateLimit-Limit": "3" });
    expect(error).toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
      extra: { body: { retry_after: 42 }, headers: { "X-RateLimit-Limit": "3", "Retry-After": "42" } },
    });
  });
});

describe("deleteCountersBefore (the housekeeping task's clean-up)", () => {
  test("drops the windows that started before the moment and keeps the rest", async () => {
    const now = Date.parse("2030-01-01T10:30:00Z");
    await consume(testDb.db, "test:old", 10, hour, new Date(now - 3 * hour));
    await consume(testDb.db, "test:recent", 10, hour, new Date(now - hour));
    await deleteCountersBefore(testDb.db, new Date(now - 2 * hour));
    expect((await consume(testDb.db, "test:old", 10, hour, new Date(now - 3 * hour))).remaining).toBe(9);
    expect((await consume(testDb.db, "test:recent", 10, hour, new Date(now - hour))).remaining).toBe(8);
  });
});
