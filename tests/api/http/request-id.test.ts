import { describe, expect, test } from "vitest";
import * as catchAll from "@/app/api/[...path]/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as refreshRoute } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

const notFound = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE") => catchAll[method];

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("x-request-id", () => {
  test("every response carries its own request id: success, 4xx and 404", async () => {
    const m = await createMerchant();
    const responses = [
      await call(verify, "GET", "/api/auth/verify/", { token: m.access }),
      await call(verify, "GET", "/api/auth/verify/"),
      await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password } }),
      await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: "wrong password" } }),
      await call(login, "POST", "/api/auth/login", { rawBody: "{" }),
      await call(register, "POST", "/api/auth/register", { body: {} }),
      await call(refreshRoute, "POST", "/api/auth/token/refresh/", { body: { refresh: "x" } }),
      await call(notFound("GET"), "GET", "/api/nope", { params: { path: "nope" } }),
      await call(notFound("POST"), "POST", "/api/nope/deeper/", { body: {} }),
      await call(notFound("DELETE"), "DELETE", "/api/nope"),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 200, 401, 400, 400, 401, 404, 404, 404]);
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("unknown /api paths are 404 NOT_FOUND in the error envelope", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await call(notFound(method), method, "/api/nope/deeper/");
      expect(res.status, method).toBe(404);
      expect(res.body, method).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) }, timestamp: expect.any(String) });
    }
  });
});
