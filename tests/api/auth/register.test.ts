import { describe, expect, test } from "vitest";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as login } from "@/app/api/auth/login/route";
import { setPasswordHashCostForTests } from "@/lib/auth/passwords";
import { merchants } from "@/lib/db/schema";
import { eq } from "drizzle-orm";
import { setupTestDatabase } from "../../helpers/db";
import { uniqueName } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();

function newAccount() {
  const username = uniqueName("reg");
  return { username, email: `${username}@example.com`, password: "s3cure-enough", shop_name: "Corner Shop" };
}

describe("POST /api/auth/register", () => {
  test("creates an account: 201 with user and webhook secret, never the password", async () => {
    const input = newAccount();
    const res = await call(register, "POST", "/api/auth/register", { body: input });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.any(Number), username: input.username, email: input.email, shop_name: "Corner Shop" },
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(JSON.stringify(res.body)).not.toContain(input.password);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("stores the password as an argon2id hash, at the production cost", async () => {
    // tests/helpers/setup.ts lowers the cost for the suite; this test is the one that sees what production stores.
    setPasswordHashCostForTests(undefined);
    const input = newAccount();
    const res = await call(register, "POST", "/api/auth/register", { body: input });
    const [row] = await testDb.db.select().from(merchants).where(eq(merchants.id, res.body.user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.passwordHash).not.toContain(input.password);
  });

  test("rejects a username taken in another case with a field error", async () => {
    const first = newAccount();
    await call(register, "POST", "/api/auth/register", { body: first });
    const res = await call(register, "POST", "/api/auth/register", {
      body: { ...newAccount(), username: first.username.toUpperCase() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: expect.any(String), details: { username: [expect.stringContaining("already exists")] } },
      timestamp: expect.any(String),
    });
  });

  test("rejects an email taken in another case", async () => {
    const first = newAccount();
    await call(register, "POST", "/api/auth/register", { body: first });
    const res = await call(register, "POST", "/api/auth/register", { body: { ...newAccount(), email: first.email.toUpperCase() } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.details)).toEqual(["email"]);
  });

  test("reports every invalid field in details", async () => {
    const res = await call(register, "POST", "/api/auth/register", { body: { username: "x", email: "nope", password: "short" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(res.body.error.details).sort()).toEqual(["email", "password", "shop_name", "username"]);
    expect(res.body.error.details.shop_name).toEqual(["This field is required."]);
  });

  test("the new account can log in", async () => {
    const input = newAccount();
    await call(register, "POST", "/api/auth/register", { body: input });
    const res = await call(login, "POST", "/api/auth/login", { body: { username: input.username, password: input.password } });
    expect(res.status).toBe(200);
  });

  test("limits registrations to 100 an hour per client address", async () => {
    const ip = "192.0.2.200";
    for (let i = 0; i < 100; i++) {
      const res = await call(register, "POST", "/api/auth/register", { body: { username: "x" }, ip });
      expect(res.status).toBe(400);
    }
    const res = await call(register, "POST", "/api/auth/register", { body: newAccount(), ip });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("RATE_LIMITED");
    expect(res.body.retry_after).toBeGreaterThan(0);
    expect(res.headers.get("retry-after")).toBe(String(res.body.retry_after));
  });
});
