/**
 * Issue 49 item 7: GET /api/metrics names RPC providers and counts requests per route, so a live
 * gateway never serves it without METRICS_TOKEN (404 in the error envelope); with the token set,
 * only a scrape that sends it is answered, in either mode.
 */
import { afterEach, describe, expect, test } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { env } from "@/lib/env";
import { setupTestDatabase } from "../helpers/db";
import { call } from "../helpers/request";
import { inMode } from "../webhooks/support";

setupTestDatabase();

const savedToken = env.METRICS_TOKEN;
afterEach(() => {
  env.METRICS_TOKEN = savedToken;
});

const token = "metrics-token-0123456789abcdef";
const scrape = (headers: Record<string, string> = {}) =>
  metricsRoute(new Request("http://localhost/api/metrics", { headers }), { params: Promise.resolve({}) });

describe("GET /api/metrics", () => {
  test("live mode without METRICS_TOKEN: 404 NOT_FOUND in the envelope, no metric in it", async () => {
    env.METRICS_TOKEN = undefined;
    const response = await inMode("live", () => scrape());
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: "NOT_FOUND", message: expect.stringMatching(/METRICS_TOKEN/) } });
    expect(text).not.toMatch(/gateway_/);
    // Whatever a scraper sends.
    expect((await inMode("live", () => scrape({ authorization: "Bearer anything-at-all-0123456789" }))).status).toBe(404);
    // Through the wrapper, with its request id and log line, like any route.
    const res = await inMode("live", () => call(metricsRoute, "GET", "/api/metrics"));
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("live mode with METRICS_TOKEN: 401 INVALID_TOKEN without it or with another, the metrics with it", async () => {
    env.METRICS_TOKEN = token;
    for (const headers of [{}, { authorization: `Bearer ${token.slice(0, -1)}x` }, { authorization: `Bearer ${token}-longer` }] as Record<string, string>[]) {
      const response = await inMode("live", () => scrape(headers));
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: "INVALID_TOKEN" } });
    }
    const response = await inMode("live", () => scrape({ authorization: `Bearer ${token}` }));
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^gateway_gasless_budget_used_ratio \S+$/m);
  });

  test("the sandbox: open without METRICS_TOKEN, and the token applies when set", async () => {
    env.METRICS_TOKEN = undefined;
    const open = await inMode("sandbox", () => scrape());
    expect(open.status).toBe(200);
    expect(await open.text()).toMatch(/^gateway_database_up 1$/m);
    env.METRICS_TOKEN = token;
    expect((await inMode("sandbox", () => scrape())).status).toBe(401);
    expect((await inMode("sandbox", () => scrape({ authorization: `Bearer ${token}` }))).status).toBe(200);
  });
});
