import { afterEach, describe, expect, test, vi } from "vitest";
import * as catchAll from "@/app/api/[...path]/route";
import * as inbox from "@/app/api/sandbox/inbox/[token]/route";
import { ApiError } from "@/lib/http/errors";
import { plainRoute } from "@/lib/http/plain-route";
import { captureOutput } from "../../helpers/capture-output";
import { setupTestDatabase } from "../../helpers/db";
import { call } from "../../helpers/request";

setupTestDatabase();

// The routes that are not withApi routes (catch-all 404, inbox capture URL, Inngest) share
// lib/http/plain-route.ts: request id, error envelope, one log line per request.

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const envelope = (code: string, message: unknown = expect.any(String)) => ({ success: false, error: { code, message }, timestamp: expect.any(String) });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("plainRoute", () => {
  test("an ApiError keeps its code, status and details; the response has a request id and one log line", async () => {
    const route = plainRoute({ route: "/api/example" }, async () => {
      throw new ApiError("VALIDATION_ERROR", "Bad.", { field: ["Wrong."] });
    });
    const { result: res, lines } = await captureOutput(() => call(route, "POST", "/api/example/"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "Bad.", details: { field: ["Wrong."] } },
      timestamp: expect.any(String),
    });
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(uuid);
    expect(lines.filter((line) => line.msg === "request")).toEqual([
      expect.objectContaining({ request_id: requestId, method: "POST", path: "/api/example/", status: 400 }),
    ]);
  });

  test("anything else is a fixed 500 INTERNAL_ERROR, logged with the request id and nothing in the body", async () => {
    const route = plainRoute({ route: "/api/example" }, async () => {
      throw new Error("connection string postgres://secret@db leaked");
    });
    const { result: res, lines } = await captureOutput(() => call(route, "GET", "/api/example"));
    expect(res.status).toBe(500);
    expect(res.body).toEqual(envelope("INTERNAL_ERROR", "An unexpected error occurred."));
    expect(JSON.stringify(res.body)).not.toContain("secret");
    const requestId = res.headers.get("x-request-id");
    expect(lines).toContainEqual(expect.objectContaining({ level: "error", msg: "unhandled error", route: "/api/example", request_id: requestId }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: "request", request_id: requestId, status: 500 }));
  });

  test("a result is sent as JSON with the request id; a ready Response keeps its status and gets the id", async () => {
    const json = plainRoute({ route: "/api/a" }, async () => ({ status: 202, body: { queued: true }, headers: { "x-extra": "1" } }));
    const res = await call(json, "GET", "/api/a");
    expect([res.status, res.body, res.headers.get("x-extra")]).toEqual([202, { queued: true }, "1"]);
    expect(res.headers.get("x-request-id")).toMatch(uuid);

    const ready = plainRoute({ route: "/api/b" }, async () => new Response("plain", { status: 206 }));
    const raw = await ready(new Request("http://localhost/api/b"), undefined);
    expect([raw.status, await raw.text()]).toEqual([206, "plain"]);
    expect(raw.headers.get("x-request-id")).toMatch(uuid);
  });

  test("sandboxOnly routes are 404 NOT_FOUND in live mode, before the handler runs", async () => {
    vi.stubEnv("GATEWAY_MODE", "live");
    vi.resetModules();
    const { plainRoute: livePlainRoute } = await import("@/lib/http/plain-route");
    const handler = vi.fn(async () => ({ status: 200, body: {} }));
    const res = await call(livePlainRoute({ route: "/api/sandbox/x", sandboxOnly: true }, handler), "POST", "/api/sandbox/x/");
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope("NOT_FOUND"));
    expect(handler).not.toHaveBeenCalled();
  });
});

describe("the routes outside withApi", () => {
  test("ANY /api/<unknown> is 404 NOT_FOUND with a request id and a log line", async () => {
    const { result: res, lines } = await captureOutput(() => call(catchAll.PATCH, "PATCH", "/api/nope/deeper/", { params: { path: "nope/deeper" } }));
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope("NOT_FOUND", "No API endpoint at this path."));
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "request", request_id: res.headers.get("x-request-id"), path: "/api/nope/deeper/", status: 404 }),
    );
  });

  test("the inbox capture URL: an unknown token is 404 with a request id; the token stays out of the log", async () => {
    const token = "inb_doesNotExist123";
    const { result: res, output } = await captureOutput(() =>
      call(inbox.POST, "POST", `/api/sandbox/inbox/${token}/`, { params: { token }, body: { hello: 1 } }),
    );
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope("NOT_FOUND", "Inbox not found."));
    expect(res.headers.get("x-request-id")).toMatch(uuid);
    expect(output).toContain('"path":"/api/sandbox/inbox/[token]"');
    expect(output).not.toContain(token);
  });

  test("GET/POST/PUT /api/inngest without JOBS_DRIVER=inngest is 404 NOT_FOUND in the error envelope, not a 500", async () => {
    vi.stubEnv("JOBS_DRIVER", "local");
    vi.resetModules();
    const route = await import("@/app/api/inngest/route");
    for (const method of ["GET", "POST", "PUT"] as const) {
      const res = await call(route[method], method, "/api/inngest", method === "GET" ? {} : { body: {} });
      expect(res.status, method).toBe(404);
      expect(res.body, method).toEqual(envelope("NOT_FOUND"));
      expect(res.headers.get("x-request-id"), method).toMatch(uuid);
    }
  });

  test("with JOBS_DRIVER=inngest, /api/inngest is Inngest's own endpoint", async () => {
    vi.stubEnv("JOBS_DRIVER", "inngest");
    vi.stubEnv("INNGEST_DEV", "1");
    vi.resetModules();
    const route = await import("@/app/api/inngest/route");
    const res = await call(route.GET, "GET", "/api/inngest");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ function_count: expect.any(Number) });
    expect(res.body.function_count).toBeGreaterThan(0);
    expect(res.headers.get("x-request-id")).toMatch(uuid);
  });
});
