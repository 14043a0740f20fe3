import { describe, expect, test } from "vitest";
import { databaseUnavailableReason } from "@/lib/db/errors";
import { errorAnswer } from "@/lib/http/plain-route";
import { captureOutput } from "../../helpers/capture-output";

/** An error as drizzle throws it: its own message with the SQL, the driver's error as the cause. */
function drizzleWrapped(cause: Error): Error {
  return Object.assign(new Error("Failed query: select 1\nparams: "), { query: "select 1", params: [], cause });
}
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("a lost database is told apart from a bug", () => {
  test.each([
    ["connection refused", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"), "ECONNREFUSED"],
    ["admin shutdown (pg_ctl stop)", withCode("terminating connection due to administrator command", "57P01"), "57P01"],
    ["starting up", withCode("the database system is starting up", "57P03"), "57P03"],
    ["postgres.js closed connection", withCode("write CONNECTION_CLOSED 127.0.0.1:5432", "CONNECTION_CLOSED"), "CONNECTION_CLOSED"],
    ["postgres.js ended client", withCode("write CONNECTION_ENDED", "CONNECTION_ENDED"), "CONNECTION_ENDED"],
    ["connect timeout", withCode("write CONNECT_TIMEOUT 10.0.0.1:5432", "CONNECT_TIMEOUT"), "CONNECT_TIMEOUT"],
    ["statement timeout", withCode("canceling statement due to statement timeout", "57014"), "57014"],
    ["connection exception class 08", withCode("connection failure", "08006"), "08006"],
  ])("%s is unavailability, also wrapped by drizzle", (_, error, code) => {
    expect(databaseUnavailableReason(error)).toBe(code);
    expect(databaseUnavailableReason(drizzleWrapped(error))).toBe(code);
  });

  test.each([
    ["a unique violation", withCode("duplicate key", "23505")],
    ["a syntax error", withCode("syntax error", "42601")],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
  ])("%s is not", (_, error) => {
    expect(databaseUnavailableReason(drizzleWrapped(error))).toBeNull();
  });

  test("errorAnswer: 503 SERVICE_UNAVAILABLE with Retry-After and retry_after, logged as a warning with the cause (not 500, not 'unhandled error')", async () => {
    const { result: response, lines } = await captureOutput(async () =>
      errorAnswer(drizzleWrapped(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")), {
        requestId: "req-1",
        route: "GET /api/payment-orders",
        headers: { "x-request-id": "req-1" },
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("x-request-id")).toBe("req-1");
    const body = await response.json();
    expect(body).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE" }, retry_after: 5 });
    expect(JSON.stringify(body)).not.toMatch(/select|ECONNREFUSED|127\.0\.0\.1/);
    expect(lines).toEqual([expect.objectContaining({ level: "warn", msg: "database unavailable; answered 503", cause: "ECONNREFUSED", request_id: "req-1" })]);
  });

  test("errorAnswer: any other error stays a 500 INTERNAL_ERROR", async () => {
    const { result: response } = await captureOutput(async () => errorAnswer(new TypeError("boom"), { requestId: "req-2", route: "x", headers: {} }));
    expect(response.status).toBe(500);
    expect((await response.json()).error.code).toBe("INTERNAL_ERROR");
  });
});
