import { afterEach, describe, expect, test, vi } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, uniqueName } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

const invalidCredentials = {
  success: false,
  error: { code: "INVALID_CREDENTIALS", message: expect.any(String) },
  timestamp: expect.any(String),
};

const rateLimited = {
  success: false,
  error: { code: "RATE_LIMITED", message: expect.any(String) },
  retry_after: expect.any(Number),
  timestamp: expect.any(String),
};

let ipCounter = 0;
/** A client address no other test uses, so throttle counts never leak between tests. */
function freshIp(): string {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

const tryLogin = (username: string, password: string, ip = freshIp()) => call(login, "POST", "/api/auth/login", { body: { username, password }, ip });

afterEach(() => {
  vi.useRealTimers();
});

describe("POST /api/auth/login", () => {
  test("answers 200 with access, refresh and the user", async () => {
    const m = await createMerchant();
    const res = await tryLogin(m.username, m.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refresh: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      user: { id: m.id, username: m.username, email: m.email },
      account: { id: m.id, role: "owner" },
    });
    expect(res.body.access).not.toBe(res.body.refresh);
    expect(JSON.stringify(res.body)).not.toContain(m.password);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("matches the username regardless of case and answers with the stored spelling", async () => {
    const m = await createMerchant({ username: uniqueName("MixedCase") });
    for (const spelling of [m.username.toUpperCase(), m.username.toLowerCase()]) {
      const res = await tryLogin(spelling, m.password);
      expect(res.status).toBe(200);
      expect(res.body.user).toEqual({ id: m.id, username: m.username, email: m.email });
    }
  });

  test("the password is case-sensitive", async () => {
    const m = await createMerchant();
    const res = await tryLogin(m.username, m.password.toUpperCase());
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidCredentials);
  });

  test("a wrong password and an unknown user both answer 401 INVALID_CREDENTIALS with the same message", async () => {
    const m = await createMerchant();
    const wrong = await tryLogin(m.username, "not the password");
    const unknown = await tryLogin(uniqueName("ghost"), "whatever password");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(invalidCredentials);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(invalidCredentials);
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
  });

  test("missing fields are 400 VALIDATION_ERROR with details", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: {}, ip: freshIp() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: { username: expect.any(Array), password: expect.any(Array) } },
      timestamp: expect.any(String),
    });
  });
});

describe("POST /api/auth/login throttling (10 failures in 15 minutes)", () => {
  test("10 failures for one username from varying addresses make new addresses back off, even with the right password", async () => {
    const m = await createMerchant();
    for (let i = 0; i < 10; i++) {
      const res = await tryLogin(i % 2 ? m.username : m.username.toUpperCase(), `wrong-${i}`);
      expect(res.status).toBe(401);
    }
    const res = await tryLogin(m.username, m.password);
    expect(res.status).toBe(429);
    expect(res.body).toEqual(rateLimited);
    expect(Number.isInteger(res.body.retry_after)).toBe(true);
    expect(res.body.retry_after).toBeGreaterThan(0);
    expect(res.body.retry_after).toBeLessThanOrEqual(30); // the first step of the per-username backoff
    expect(res.headers.get("retry-after")).toBe(String(res.body.retry_after));
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.body).not.toHaveProperty("access");

    // Another account from a fresh address is unaffected.
    const other = await createMerchant();
    expect((await tryLogin(other.username, other.password)).status).toBe(200);
  });

  test("9 failures do not block the username, and a success clears its count", async () => {
    const m = await createMerchant();
    for (let i = 0; i < 9; i++) expect((await tryLogin(m.username, "wrong password")).status).toBe(401);
    expect((await tryLogin(m.username, m.password)).status).toBe(200);
    // Cleared: 9 more failures still leave it open.
    for (let i = 0; i < 9; i++) expect((await tryLogin(m.username, "wrong password")).status).toBe(401);
    expect((await tryLogin(m.username, m.password)).status).toBe(200);
  });

  test("10 failures from one address with varying usernames block that address, even for a right password", async () => {
    const m = await createMerchant();
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const res = await tryLogin(uniqueName("nobody"), "wrong password", ip);
      expect(res.status).toBe(401);
    }
    const blocked = await tryLogin(m.username, m.password, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(rateLimited);
    expect(blocked.headers.get("retry-after")).toBe(String(blocked.body.retry_after));

    // The account itself is not blocked from another address.
    expect((await tryLogin(m.username, m.password, freshIp())).status).toBe(200);
  });

  test("a blocked login works again once 15 minutes have passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2030-01-01T12:00:00Z");
    vi.setSystemTime(start);
    const m = await createMerchant();
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await tryLogin(m.username, "wrong password", ip)).status).toBe(401);

    vi.setSystemTime(new Date(start.getTime() + 5 * 60_000));
    const blocked = await tryLogin(m.username, m.password, ip);
    expect(blocked.status).toBe(429);
    // All failures happened at `start`: allowed again at start + 15 min, 10 minutes from now.
    expect(blocked.body.retry_after).toBe(10 * 60);
    expect(blocked.headers.get("retry-after")).toBe("600");

    vi.setSystemTime(new Date(start.getTime() + 14 * 60_000 + 59_000));
    expect((await tryLogin(m.username, m.password, ip)).status).toBe(429);

    vi.setSystemTime(new Date(start.getTime() + 15 * 60_000 + 1000));
    const res = await tryLogin(m.username, m.password, ip);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(m.id);
  });

  test("blocked attempts are not counted as new failures", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2031-06-01T08:00:00Z");
    vi.setSystemTime(start);
    const m = await createMerchant();
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await tryLogin(m.username, "wrong password", ip)).status).toBe(401);
    // Hammering while blocked must not extend the block (10 more would, if they were counted).
    vi.setSystemTime(new Date(start.getTime() + 10 * 60_000));
    for (let i = 0; i < 10; i++) expect((await tryLogin(m.username, "wrong password", ip)).status).toBe(429);
    vi.setSystemTime(new Date(start.getTime() + 15 * 60_000 + 1000));
    expect((await tryLogin(m.username, m.password, ip)).status).toBe(200);
  });
});

describe("an attacker cannot keep the owner out (issue 13 item 3)", () => {
  test("failures from rotating addresses never block the owner's known address; the attacker backs off", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2032-03-01T09:00:00Z");
    vi.setSystemTime(start);
    const m = await createMerchant();
    const home = freshIp();
    expect((await tryLogin(m.username, m.password, home)).status).toBe(200); // home is now known

    // The attack: wrong passwords from ever new addresses, as fast as they are let through, for an hour.
    let failures = 0;
    let refused = 0;
    for (let minute = 0; minute < 60; minute += 1) {
      vi.setSystemTime(new Date(start.getTime() + minute * 60_000));
      for (let i = 0; i < 5; i++) {
        const res = await tryLogin(m.username, `guess-${minute}-${i}`);
        if (res.status === 401) failures += 1;
        else {
          expect(res.status).toBe(429);
          refused += 1;
        }
      }
      // The owner at home is never refused.
      if (minute % 10 === 0) expect((await tryLogin(m.username, m.password, home)).status, `minute ${minute}`).toBe(200);
    }
    // The old 10-per-username lock let the owner in at most a quarter of the time; the attacker
    // got through at most ~10 guesses plus one per backoff step per successful owner reset.
    expect(refused).toBeGreaterThan(200);
    expect(failures).toBeLessThan(100);
  });

  test("the owner from a new address waits at most the backoff; per (username, address) and per address still block hard", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2032-04-01T09:00:00Z");
    vi.setSystemTime(start);
    const m = await createMerchant();
    for (let i = 0; i < 12; i++) await tryLogin(m.username, `guess-${i}`);
    const fresh = await tryLogin(m.username, m.password);
    expect(fresh.status).toBe(429);
    expect(fresh.body.retry_after).toBeLessThanOrEqual(15 * 60);
    vi.setSystemTime(new Date(start.getTime() + 15 * 60_000 + 1000));
    expect((await tryLogin(m.username, m.password)).status).toBe(200);

    // One address hammering one username is blocked for the window, the owner elsewhere is not.
    const attacker = freshIp();
    for (let i = 0; i < 10; i++) expect((await tryLogin(m.username, `again-${i}`, attacker)).status).toBe(401);
    expect((await tryLogin(m.username, m.password, attacker)).status).toBe(429);
  });
});
