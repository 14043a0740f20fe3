/** The webhook URL guard treats the port the server listens on as the gateway's own, not only APP_URL's. */
import { afterEach, describe, expect, test } from "vitest";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { env } from "@/lib/env";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

setupTestDatabase();

describe("(a) the webhook SSRF guard covers the port the server listens on, not only APP_URL's", () => {
  const savedPort = process.env.PORT;
  afterEach(() => {
    if (savedPort === undefined) delete process.env.PORT;
    else process.env.PORT = savedPort;
  });

  test("with `next start -p` on another port than APP_URL's, that port is the app's: only its inbox is a target", async () => {
    const appUrlPort = Number(new URL(env.APP_URL).port || 80);
    const listening = appUrlPort === 4317 ? 4318 : 4317;
    process.env.PORT = String(listening); // what Next's start-server sets before it serves (next/dist/server/lib/start-server.js)
    const merchant = await createMerchant();
    for (const url of [`http://127.0.0.1:${listening}/api/auth/login/`, `http://localhost:${listening}/api/webhook-endpoints/`]) {
      const res = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { url: [expect.stringContaining("gateway's own services")] } });
    }
    const inbox = await call(createEndpoint, "POST", "/api/webhook-endpoints/", {
      token: merchant.access,
      body: { url: `http://127.0.0.1:${listening}/api/sandbox/inbox/abc/` },
    });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
  });
});
