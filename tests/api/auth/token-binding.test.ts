/** Issue 13 item 6: tokens are bound to the deployment (issuer, audience = mode) and to a known login family. */
import { SignJWT } from "jose";
import { describe, expect, test } from "vitest";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { getAuthSecret } from "@/lib/auth/secret";
import { env } from "@/lib/env";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { inMode } from "../../webhooks/support";

setupTestDatabase();

async function forge(claims: Record<string, unknown>, options: { iss?: string; aud?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT({ username: "x", ...claims })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .setJti(crypto.randomUUID());
  if (options.iss) jwt = jwt.setIssuer(options.iss);
  if (options.aud) jwt = jwt.setAudience(options.aud);
  return jwt.sign(getAuthSecret());
}

describe("token binding", () => {
  test("a sandbox access token is refused by a live deployment with the same secret", async () => {
    const m = await createMerchant();
    expect((await call(verify, "GET", "/api/auth/verify", { token: m.access })).status).toBe(200);
    const live = await inMode("live", () => call(verify, "GET", "/api/auth/verify", { token: m.access }));
    expect(live.status).toBe(401);
  });

  test("tokens without the issuer or audience, or from another issuer, are refused", async () => {
    const m = await createMerchant();
    const [, payload] = m.access.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
    const base = { sub: claims.sub, username: claims.username, typ: "access", fam: claims.fam };
    const origin = new URL(env.APP_URL).origin;
    const ok = await forge({ ...base }, { iss: origin, aud: "gateway:sandbox" });
    expect((await call(verify, "GET", "/api/auth/verify", { token: ok })).status).toBe(200);
    for (const token of [
      await forge(base),
      await forge(base, { iss: "https://other.example", aud: "gateway:sandbox" }),
      await forge(base, { iss: origin, aud: "gateway:live" }),
    ]) {
      expect((await call(verify, "GET", "/api/auth/verify", { token })).status).toBe(401);
    }
  });

  test("a correctly signed token naming a login family this gateway never issued is refused", async () => {
    const m = await createMerchant();
    const origin = new URL(env.APP_URL).origin;
    const sub = String(m.id);
    const unknownFamily = await forge({ sub, typ: "access", fam: crypto.randomUUID() }, { iss: origin, aud: "gateway:sandbox" });
    expect((await call(verify, "GET", "/api/auth/verify", { token: unknownFamily })).status).toBe(401);
    const noFamily = await forge({ sub, typ: "access" }, { iss: origin, aud: "gateway:sandbox" });
    expect((await call(verify, "GET", "/api/auth/verify", { token: noFamily })).status).toBe(401);
    const refreshUnknown = await forge({ sub, typ: "refresh", fam: crypto.randomUUID() }, { iss: origin, aud: "gateway:sandbox" });
    expect((await call(refresh, "POST", "/api/auth/token/refresh", { body: { refresh: refreshUnknown } })).status).toBe(401);
  });
});

describe("live refuses a secret it can tell is shared with a sandbox", () => {
  test("the repository's example secret and the development secret file are refused", async () => {
    const { sharedSecretReason } = await import("@/lib/auth/secret");
    const { mkdirSync, readFileSync, writeFileSync } = await import("node:fs");
    const previous = env.AUTH_SECRET;
    try {
      env.AUTH_SECRET = "bench-secret-bench-secret-bench-secret";
      expect(sharedSecretReason()).toMatch(/example/);
      mkdirSync(".data", { recursive: true });
      let dev: string;
      try {
        dev = readFileSync(".data/auth-secret", "utf8").trim();
      } catch {
        dev = "generated-dev-secret-for-this-test-0123456789";
        writeFileSync(".data/auth-secret", dev, { flag: "wx" });
      }
      env.AUTH_SECRET = dev;
      expect(sharedSecretReason()).toMatch(/development/);
      env.AUTH_SECRET = "a-completely-different-live-secret-0123456789abcdef";
      expect(sharedSecretReason()).toBeNull();
    } finally {
      env.AUTH_SECRET = previous;
    }
  });
});
