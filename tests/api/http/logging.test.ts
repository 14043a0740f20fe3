import { describe, expect, test } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as refreshRoute } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { captureOutput } from "../../helpers/capture-output";
import { setupTestDatabase } from "../../helpers/db";
import { uniqueName } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

describe("logging", () => {
  test("register, login, refresh and verify log one line per request and no password, token or secret", async () => {
    const username = uniqueName("logged");
    const password = "hunter2-but-longer";
    const { result, output, lines } = await captureOutput(async () => {
      const registered = await call(register, "POST", "/api/auth/register", {
        body: { username, email: `${username}@example.com`, password, shop_name: "Logged Shop" },
      });
      const failed = await call(login, "POST", "/api/auth/login", { body: { username, password: `${password}-wrong` } });
      const loggedIn = await call(login, "POST", "/api/auth/login", { body: { username, password } });
      const refreshed = await call(refreshRoute, "POST", "/api/auth/token/refresh/", { body: { refresh: loggedIn.body.refresh } });
      const reused = await call(refreshRoute, "POST", "/api/auth/token/refresh/", { body: { refresh: loggedIn.body.refresh } });
      const verified = await call(verify, "GET", "/api/auth/verify/", { token: refreshed.body.access });
      const malformed = await call(login, "POST", "/api/auth/login", { rawBody: `{"username":"${username}","password":"${password}"` });
      return { registered, failed, loggedIn, refreshed, reused, verified, malformed };
    });
    expect(result.registered.status).toBe(201);
    expect(result.failed.status).toBe(401);
    expect(result.loggedIn.status).toBe(200);
    expect(result.refreshed.status).toBe(200);
    expect(result.reused.status).toBe(401);
    expect(result.verified.status).toBe(401); // the reuse revoked the family
    expect(result.malformed.status).toBe(400);

    // Something was logged: one "request" line per call, carrying its request id and status.
    const requestLines = lines.filter((line) => line.msg === "request");
    expect(requestLines.map((line) => line.status)).toEqual([201, 401, 200, 200, 401, 401, 400]);
    const all = Object.values(result);
    expect(requestLines.map((line) => line.request_id)).toEqual(all.map((res) => res.headers.get("x-request-id")));

    const secrets = [
      password,
      result.registered.body.webhook_secret,
      result.loggedIn.body.access,
      result.loggedIn.body.refresh,
      result.refreshed.body.access,
      result.refreshed.body.refresh,
    ];
    for (const secret of secrets) {
      expect(typeof secret).toBe("string");
      expect(output).not.toContain(secret);
      // Not even a token's signature or payload part.
      for (const part of secret.split(".")) if (part.length >= 16) expect(output).not.toContain(part);
    }
    // And no response carries the password.
    for (const res of all) expect(JSON.stringify(res.body)).not.toContain(password);
  });
});
