/** Issue 28 item 5: a person's active sessions (API logins and dashboard sign-ins), and revoking any of them for real. */
import { afterEach, describe, expect, test, vi } from "vitest";
import { GET as listSessions } from "@/app/api/account/sessions/route";
import { DELETE as revokeSession } from "@/app/api/account/sessions/[id]/route";
import { POST as createApiKey } from "@/app/api/api-keys/route";
import { GET as listAuditLog } from "@/app/api/audit-log/route";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as refresh } from "@/app/api/auth/token/refresh/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { isRefreshFamilyRevoked } from "@/lib/auth/queries";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant } from "../../helpers/factories";
import { expectMatchesSchema } from "../../helpers/openapi";
import { call } from "../../helpers/request";
import { signInAs } from "../../dashboard/session";

const { revokeSessionAction } = await import("@/app/(dashboard)/dashboard/sessions/actions");
const { authorizeDashboardSignIn } = await import("@/lib/auth/dashboard-sign-in");
const { runAsActor } = await import("@/lib/audit/context");

const testDb = setupTestDatabase();

afterEach(() => {
  signInAs(null);
});

const firefox = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0";
const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

async function sessionsOf(access: string) {
  const res = await call(listSessions, "GET", "/api/account/sessions/", { token: access });
  expect(res.status).toBe(200);
  expectMatchesSchema("GET /api/account/sessions", 200, res.body);
  return res.body.data as Array<Record<string, any>>;
}

describe("sessions", () => {
  test("lists each login with its device, address and last seen; the caller's own is marked current", async () => {
    const m = await createMerchant();
    const onLaptop = await call(login, "POST", "/api/auth/login", {
      body: { username: m.username, password: m.password },
      ip: "198.18.5.1",
      headers: { "user-agent": firefox },
    });
    expect(onLaptop.status).toBe(200);

    const sessions = await sessionsOf(onLaptop.body.access);
    expect(sessions).toHaveLength(2);
    const laptop = sessions.find((s) => s.client_ip === "198.18.5.1");
    expect(laptop).toMatchObject({
      kind: "api",
      device: "Firefox 128 on macOS Sonoma (desktop)",
      user_agent: firefox,
      last_seen_ip: "198.18.5.1",
      current: true,
    });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);

    // A refresh is "seen" (at most once a minute, so move the clock).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5 * 60_000 });
    try {
      const rotated = await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: onLaptop.body.refresh }, ip: "198.18.5.2" });
      expect(rotated.status).toBe(200);
      const after = (await sessionsOf(rotated.body.access)).find((s) => s.id === laptop!.id);
      expect(after).toMatchObject({ client_ip: "198.18.5.1", last_seen_ip: "198.18.5.2", current: true });
      expect(Date.parse(after!.last_seen_at)).toBeGreaterThan(Date.parse(laptop!.last_seen_at));
    } finally {
      vi.useRealTimers();
    }
  });

  test("revoking a session ends it for real: its refresh token and access token are refused, the others keep working", async () => {
    const m = await createMerchant();
    const other = await call(login, "POST", "/api/auth/login", {
      body: { username: m.username, password: m.password },
      ip: "198.18.6.1",
      headers: { "user-agent": chrome },
    });
    const target = (await sessionsOf(m.access)).find((s) => s.client_ip === "198.18.6.1");
    if (!target) throw new Error("no session for the second login");

    const revoked = await call(revokeSession, "DELETE", "/x/", { token: m.access, params: { id: target.id }, ip: "198.18.6.9" });
    expect(revoked.status).toBe(200);
    expectMatchesSchema("DELETE /api/account/sessions/[id]", 200, revoked.body);
    expect((await call(refresh, "POST", "/api/auth/token/refresh/", { body: { refresh: other.body.refresh } })).status).toBe(401);
    expect((await call(verify, "GET", "/api/auth/verify/", { token: other.body.access })).status).toBe(401);
    expect((await call(verify, "GET", "/api/auth/verify/", { token: m.access })).status).toBe(200);
    expect((await sessionsOf(m.access)).map((s) => s.id)).not.toContain(target.id);
    // Twice is harmless.
    expect((await call(revokeSession, "DELETE", "/x/", { token: m.access, params: { id: target.id } })).status).toBe(200);

    const audit = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { action: "auth.session_revoked" } });
    expect(audit.body.results).toEqual([
      expect.objectContaining({
        actor: { kind: "access_token", name: m.username },
        client_ip: "198.18.6.9",
        before: expect.objectContaining({ kind: "api", device: "Chrome 120 on Linux (desktop)", client_ip: "198.18.6.1" }),
      }),
    ]);
  });

  test("another account's session and a malformed id are 404, an API key 403", async () => {
    const m = await createMerchant();
    const stranger = await createMerchant();
    const [theirs] = await sessionsOf(stranger.access);
    const refused = await call(revokeSession, "DELETE", "/x/", { token: m.access, params: { id: theirs!.id } });
    expect(refused.status).toBe(404);
    expect((await call(verify, "GET", "/api/auth/verify/", { token: stranger.access })).status).toBe(200);
    // A path id that does not parse names no resource (as everywhere in the API).
    expect((await call(revokeSession, "DELETE", "/x/", { token: m.access, params: { id: "not-a-uuid" } })).status).toBe(404);
    const key = await call(createApiKey, "POST", "/api/api-keys/", { token: m.access, body: { name: "full", preset: "full_access" } });
    expect((await call(listSessions, "GET", "/x/", { token: key.body.data.key })).status).toBe(403);
    expect((await call(revokeSession, "DELETE", "/x/", { token: key.body.data.key, params: { id: theirs!.id } })).status).toBe(403);
  });

  test("the dashboard lists its sign-ins and revokes them: that session's family is revoked, so getSessionMerchant signs it out", async () => {
    const m = await createMerchant();
    const signedIn = await runAsActor({ kind: "public", label: null, clientIp: "198.18.7.1", userAgent: chrome, via: "dashboard" }, () =>
      authorizeDashboardSignIn(testDb.db, { username: m.username, password: m.password }, "198.18.7.1"),
    );
    if (signedIn.kind !== "signed_in" || !signedIn.user.familyId) throw new Error(JSON.stringify(signedIn));
    const dashboardSession = (await sessionsOf(m.access)).find((s) => s.id === signedIn.user.familyId);
    expect(dashboardSession).toMatchObject({ kind: "dashboard", device: "Chrome 120 on Linux (desktop)", client_ip: "198.18.7.1" });

    // From the dashboard (another sign-in of the same person), revoke that one.
    signInAs(m);
    const result = await revokeSessionAction(formOf({ id: signedIn.user.familyId }));
    expect(result).toMatchObject({ ok: true, data: { id: signedIn.user.familyId, kind: "dashboard" } });
    // What the real getSessionMerchant checks on every dashboard request.
    expect(await isRefreshFamilyRevoked(testDb.db, signedIn.user.familyId)).toBe(true);
    expect((await sessionsOf(m.access)).map((s) => s.id)).not.toContain(signedIn.user.familyId);
    const audit = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { action: "auth.session_revoked" } });
    expect(audit.body.results).toEqual([expect.objectContaining({ actor: { kind: "session", name: m.username } })]);
    const signIns = await call(listAuditLog, "GET", "/api/audit-log/", { token: m.access, query: { action: "auth.login_succeeded" } });
    expect(signIns.body.results[0]).toMatchObject({
      actor: { kind: "session", name: m.username },
      client_ip: "198.18.7.1",
      after: { method: "password", via: "dashboard" },
    });
  });
});

function formOf(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}
