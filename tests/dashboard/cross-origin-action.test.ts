/** Issue 24 item 9d: a cross-origin server action gets 403 in the error envelope (Next alone answers a bare 500), under `next start`. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildTimeoutMs, ensureBuilt, startServer, type ServerProcess } from "../helpers/server";

let server: ServerProcess;
beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
}, buildTimeoutMs);
afterAll(() => server?.stop());

// What a browser's fetch of a server action sends (the action id does not matter: the Origin check comes first).
const postAction = (path: string, headers: Record<string, string>) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      "next-action": "7f00000000000000000000000000000000000000aa",
      "content-type": "text/plain;charset=UTF-8",
      accept: "text/x-component",
      ...headers,
    },
    body: "[]",
    redirect: "manual",
  });

describe("server actions across origins", () => {
  test("an Origin that is not the Host: 403 CROSS_ORIGIN_REQUEST in the envelope, on a dashboard and a public page", async () => {
    for (const path of ["/dashboard/links", "/sign-in"]) {
      const res = await postAction(path, { origin: "https://evil.example" });
      expect(res.status, path).toBe(403);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = await res.json();
      expect(body.error).toMatchObject({ code: "CROSS_ORIGIN_REQUEST" });
    }
    // Behind a proxy X-Forwarded-Host is the site's host, as Next reads it.
    const forwarded = await postAction("/sign-in", { origin: "https://pay.example.com", "x-forwarded-host": "evil.example" });
    expect(forwarded.status).toBe(403);
  });

  test("a same-origin action (or one without Origin) reaches Next's action handler, not the 403", async () => {
    const host = new URL(server.url).host;
    const cases: Record<string, string>[] = [{ origin: server.url }, {}, { origin: "https://pay.example.com", "x-forwarded-host": "pay.example.com" }];
    for (const headers of cases) {
      const res = await postAction("/sign-in", headers);
      expect(res.status, JSON.stringify({ host, headers })).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    }
  });
});
