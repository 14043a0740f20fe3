import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterEach, describe, expect, test, vi } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as refreshRoute } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { merchants } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();

const hour = 60 * 60 * 1000;
const day = 24 * hour;

const invalidToken = {
  success: false,
  error: { code: "INVALID_TOKEN", message: expect.any(String) },
  timestamp: expect.any(String),
};

const verifyWith = (token: string) => call(verify, "GET", "/api/auth/verify/", { token });
const refreshWith = (refresh: string) => call(refreshRoute, "POST", "/api/auth/token/refresh/", { body: { refresh } });
const loginAs = async (m: TestMerchant): Promise<{ access: string; refresh: string }> => {
  const res = await call(login, "POST", "/api/auth/login", { body: { username: m.username, password: m.password } });
  expect(res.status).toBe(200);
  return res.body;
};

/** Replaces the character at `index` of the token's `segment` (0 header, 1 payload, 2 signature) with another one. */
function tamper(token: string, segment: 0 | 1 | 2, index: number): string {
  const parts = token.split(".");
  const text = parts[segment]!;
  const old = text[index]!;
  parts[segment] = text.slice(0, index) + (old === "A" ? "B" : "A") + text.slice(index + 1);
  return parts.join(".");
}

/** The token with its payload re-encoded after `edit`, keeping the original signature. */
function editPayload(token: string, edit: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
  edit(claims);
  return [header, Buffer.from(JSON.stringify(claims)).toString("base64url"), signature].join(".");
}

/** A well-formed token of our shape for `merchantId`, signed with a secret the server does not know. */
function foreignToken(merchantId: number, username: string, type: "access" | "refresh") {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ username, typ: type, ...(type === "refresh" ? { fam: randomUUID() } : {}) })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(merchantId))
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(randomBytes(32));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("token lifetimes (fake clock)", () => {
  test("an access token works for 24 hours and not a second longer", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = new Date("2030-03-01T00:00:00Z").getTime();
    vi.setSystemTime(t0);
    const m = await createMerchant();

    vi.setSystemTime(t0 + 23 * hour + 59 * 60_000);
    expect((await verifyWith(m.access)).status).toBe(200);

    vi.setSystemTime(t0 + day + 1000);
    const res = await verifyWith(m.access);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidToken);
  });

  test("a refresh token works for 30 days", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = new Date("2030-04-01T00:00:00Z").getTime();
    vi.setSystemTime(t0);
    const m = await createMerchant();
    const second = await loginAs(m);
    const third = await loginAs(m);

    vi.setSystemTime(t0 + 29 * day);
    expect((await refreshWith(m.refresh)).status).toBe(200);

    vi.setSystemTime(t0 + 30 * day - 60_000);
    expect((await refreshWith(second.refresh)).status).toBe(200);

    vi.setSystemTime(t0 + 30 * day + 1000);
    const res = await refreshWith(third.refresh);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidToken);
  });

  test("a refreshed pair starts new lifetimes", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = new Date("2030-05-01T00:00:00Z").getTime();
    vi.setSystemTime(t0);
    const m = await createMerchant();

    vi.setSystemTime(t0 + 20 * hour);
    const pair = await refreshWith(m.refresh);
    expect(pair.status).toBe(200);

    // The login's access token has expired; the new one lives until 20 h + 24 h.
    vi.setSystemTime(t0 + 43 * hour);
    expect((await verifyWith(m.access)).status).toBe(401);
    const fresh = await verifyWith(pair.body.access);
    expect(fresh.status).toBe(200);
    expect(fresh.body.expires_at).toBe(new Date(t0 + 44 * hour).toISOString());

    // And the new refresh token lives 30 days from the rotation, not from the login.
    vi.setSystemTime(t0 + 20 * hour + 30 * day - 60_000);
    expect((await refreshWith(pair.body.refresh)).status).toBe(200);
  });
});

describe("POST /api/auth/token/refresh/", () => {
  test("returns a new pair that works", async () => {
    const m = await createMerchant();
    const res = await refreshWith(m.refresh);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access: expect.any(String), refresh: expect.any(String) });
    expect(res.body.access).not.toBe(m.access);
    expect(res.body.refresh).not.toBe(m.refresh);
    expect(res.body.access).not.toBe(res.body.refresh);
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const verified = await verifyWith(res.body.access);
    expect(verified.status).toBe(200);
    expect(verified.body.user.id).toBe(m.id);
    expect((await refreshWith(res.body.refresh)).status).toBe(200);
  });

  test("answers on the path without the trailing slash too", async () => {
    const m = await createMerchant();
    const res = await call(refreshRoute, "POST", "/api/auth/token/refresh", { body: { refresh: m.refresh } });
    expect(res.status).toBe(200);
  });

  test("a refresh token is single-use: reuse is 401 and revokes its whole family", async () => {
    const m = await createMerchant();
    const first = await refreshWith(m.refresh);
    expect(first.status).toBe(200);

    const reuse = await refreshWith(m.refresh);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual(invalidToken);

    // The pair issued by the first refresh dies with it, and so does the login's access token.
    const next = await refreshWith(first.body.refresh);
    expect(next.status).toBe(401);
    expect(next.body).toEqual(invalidToken);
    expect((await verifyWith(first.body.access)).body).toEqual(invalidToken);
    expect((await verifyWith(m.access)).status).toBe(401);
  });

  test("revoking one family leaves the merchant's other logins working", async () => {
    const m = await createMerchant();
    const other = await loginAs(m);
    await refreshWith(m.refresh);
    expect((await refreshWith(m.refresh)).status).toBe(401);

    expect((await verifyWith(other.access)).status).toBe(200);
    const rotated = await refreshWith(other.refresh);
    expect(rotated.status).toBe(200);
    expect((await verifyWith(rotated.body.access)).status).toBe(200);
  });

  test("two concurrent uses of one refresh token: at most one wins", async () => {
    const m = await createMerchant();
    const results = await Promise.all([refreshWith(m.refresh), refreshWith(m.refresh)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401]);
    // A reuse revokes the family, the winner's new pair included.
    const winner = results.find((r) => r.status === 200)!;
    expect((await refreshWith(winner.body.refresh)).status).toBe(401);
  });

  test("rejects bad refresh tokens with 401 INVALID_TOKEN", async () => {
    const m = await createMerchant();
    const bad = {
      "an access token": m.access,
      "a tampered signature": tamper(m.refresh, 2, 10),
      "a tampered payload": tamper(m.refresh, 1, 12),
      "a payload naming another merchant": editPayload(m.refresh, (p) => (p.sub = String(m.id + 1))),
      "a token signed with another secret": await foreignToken(m.id, m.username, "refresh"),
      garbage: "not-a-token",
      "three garbage segments": "aaa.bbb.ccc",
    };
    for (const [what, token] of Object.entries(bad)) {
      const res = await refreshWith(token);
      expect(res.status, what).toBe(401);
      expect(res.body, what).toEqual(invalidToken);
    }
    // None of those spent the real one.
    expect((await refreshWith(m.refresh)).status).toBe(200);
  });

  test("a missing refresh field is 400 VALIDATION_ERROR", async () => {
    const res = await call(refreshRoute, "POST", "/api/auth/token/refresh/", { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "VALIDATION_ERROR", message: expect.any(String), details: { refresh: ["This field is required."] } });
  });
});

describe("credentials that are not a valid access token", () => {
  test("are 401 INVALID_TOKEN with the exact envelope", async () => {
    const m = await createMerchant();
    const headers: Record<string, string | undefined> = {
      "no Authorization header": undefined,
      "Basic credentials": `Basic ${Buffer.from(`${m.username}:${m.password}`).toString("base64")}`,
      "Basic xxx": "Basic xxx",
      "an empty Bearer": "Bearer ",
      "Bearer garbage": "Bearer garbage",
      "a refresh token": `Bearer ${m.refresh}`,
      "a tampered signature": `Bearer ${tamper(m.access, 2, 10)}`,
      "a tampered payload": `Bearer ${tamper(m.access, 1, 12)}`,
      "a tampered header": `Bearer ${tamper(m.access, 0, 5)}`,
      "a payload naming another merchant": `Bearer ${editPayload(m.access, (p) => (p.sub = String(m.id + 1)))}`,
      "a payload with a later expiry": `Bearer ${editPayload(m.access, (p) => (p.exp = (p.exp as number) + 365 * 86400))}`,
      "a token signed with another secret": `Bearer ${await foreignToken(m.id, m.username, "access")}`,
      "an unsigned token": `Bearer ${editPayload(m.access, () => {})
        .split(".")
        .slice(0, 2)
        .join(".")}.`,
      "alg none": `Bearer ${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${m.access.split(".")[1]}.`,
      "a token with trailing junk": `Bearer ${m.access}x`,
      "two tokens": `Bearer ${m.access} ${m.access}`,
    };
    for (const [what, header] of Object.entries(headers)) {
      const res = await call(verify, "GET", "/api/auth/verify/", { headers: header === undefined ? {} : { authorization: header } });
      expect(res.status, what).toBe(401);
      expect(res.body, what).toEqual(invalidToken);
      expect(res.headers.get("x-request-id"), what).toBeTruthy();
    }
    // The untampered token still works, and "bearer" is case-insensitive.
    expect((await call(verify, "GET", "/api/auth/verify/", { headers: { authorization: `bearer ${m.access}` } })).status).toBe(200);
  });

  test("an access token of a deleted account is 401", async () => {
    const m = await createMerchant();
    await testDb.db.delete(merchants).where(eq(merchants.id, m.id));
    const res = await verifyWith(m.access);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidToken);
  });
});
