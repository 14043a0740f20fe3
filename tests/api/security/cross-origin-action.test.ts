/** Issue 24 item 9: a dashboard action posted from another site is 403 in the error envelope, not 500. */
import { NextRequest } from "next/server";
import { describe, expect, test } from "vitest";
import { config, proxy } from "@/proxy";

const action = (headers: Record<string, string>) =>
  new NextRequest("http://localhost:3000/dashboard/wallets", {
    method: "POST",
    headers: { "next-action": "7f00aa", host: "localhost:3000", ...headers },
    body: "[]",
  });

describe("cross-origin server actions", () => {
  test("another site's Origin (or an opaque one) is 403 CROSS_ORIGIN_REQUEST in the envelope", async () => {
    for (const origin of ["https://evil.example", "http://localhost:3001", "null"]) {
      const res = proxy(action({ origin }));
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toMatchObject({
        success: false,
        error: { code: "CROSS_ORIGIN_REQUEST", message: expect.any(String) },
        timestamp: expect.any(String),
      });
    }
  });

  test("the same origin, or one behind a proxy's X-Forwarded-Host, passes through", () => {
    expect(proxy(action({ origin: "http://localhost:3000" })).headers.get("x-middleware-next")).toBe("1");
    expect(proxy(action({ origin: "https://pay.example.com", "x-forwarded-host": "pay.example.com" })).headers.get("x-middleware-next")).toBe("1");
  });

  test("the proxy runs for server actions (next-action header) besides percent-encoded paths", () => {
    expect(config.matcher).toEqual(expect.arrayContaining([expect.objectContaining({ has: [{ type: "header", key: "next-action" }] })]));
  });
});
