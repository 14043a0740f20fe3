import { describe, expect, test } from "vitest";
import { checkOrigin, requestOrigin } from "@/lib/dashboard/request-origin";
import { describeWebhookTest } from "@/lib/dashboard/webhook-test-outcome";
import { inboxUrl } from "@/lib/webhooks/inbox-url";

const headers = (h: Record<string, string>) => new Headers(h);

describe("the address in use, against APP_URL", () => {
  test("the Host header gives the origin; forwarded headers count only behind a trusted proxy", () => {
    expect(requestOrigin(headers({ host: "localhost:3100" }), 0)).toBe("http://localhost:3100");
    const proxied = headers({ host: "10.0.0.5:3000", "x-forwarded-host": "pay.example.com", "x-forwarded-proto": "https" });
    expect(requestOrigin(proxied, 0)).toBe("http://10.0.0.5:3000");
    expect(requestOrigin(proxied, 1)).toBe("https://pay.example.com");
    expect(requestOrigin(headers({}), 0)).toBeNull();
    expect(requestOrigin(headers({ host: "bad host/" }), 0)).toBeNull();
  });

  test("a server on another port than APP_URL: the mismatch is reported and the inbox URL uses the address in use", () => {
    const check = checkOrigin(headers({ host: "localhost:3100" }), "http://localhost:3000", 0);
    expect(check).toEqual({ origin: "http://localhost:3100", appOrigin: "http://localhost:3000", mismatch: true });
    expect(inboxUrl("tok", check.origin)).toBe("http://localhost:3100/api/sandbox/inbox/tok/");
    expect(checkOrigin(headers({ host: "localhost:3000" }), "http://localhost:3000/", 0).mismatch).toBe(false);
    expect(checkOrigin(headers({}), "http://localhost:3000", 0)).toMatchObject({ origin: "http://localhost:3000", mismatch: false });
  });
});

describe("a webhook test's outcome", () => {
  const base = { duration_ms: 42, attempted_at: "2026-01-01T00:00:00.000Z" };
  test("delivered only on a 2xx; otherwise the status or the transport's error, with the time taken (the form words it)", () => {
    expect(describeWebhookTest({ ...base, succeeded: true, status_code: 200, error: null })).toEqual({
      kind: "ok",
      outcome: "delivered",
      status: 200,
      durationMs: 42,
    });
    expect(describeWebhookTest({ ...base, succeeded: false, status_code: 500, error: "HTTP 500" })).toEqual({
      kind: "error",
      outcome: "rejected",
      status: 500,
      durationMs: 42,
    });
    expect(describeWebhookTest({ ...base, succeeded: false, status_code: null, error: "connect ECONNREFUSED 127.0.0.1:9" })).toEqual({
      kind: "error",
      outcome: "unreachable",
      error: "connect ECONNREFUSED 127.0.0.1:9",
      durationMs: 42,
    });
    expect(describeWebhookTest({ ...base, succeeded: false, status_code: null, error: null })).toMatchObject({ outcome: "unreachable", error: null });
  });
});
