import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { POST as register } from "@/app/api/auth/register/route";
import { GET as verify } from "@/app/api/auth/verify/route";
import { setDatabase, type Database } from "@/lib/db/client";
import { captureOutput } from "../../helpers/capture-output";
import { backend, createTestDatabase } from "../../helpers/db";
import { createMerchant, uniqueName, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

// This file breaks its database on purpose, so it manages it itself (the last test closes it).
let database: Database;
let closed = false;
let merchant: TestMerchant;

beforeAll(async () => {
  database = await createTestDatabase();
  setDatabase(database);
  merchant = await createMerchant();
});

afterAll(async () => {
  if (!closed) await database.close();
});

const internalError = {
  success: false,
  error: { code: "INTERNAL_ERROR", message: "An unexpected error occurred." },
  timestamp: expect.any(String),
};

/** Nothing about the failure may reach the client: no SQL, table names, stack frames or file paths. */
function expectNothingLeaked(raw: string) {
  expect(raw).not.toMatch(/select|insert|from "|login_failures|merchants|Failed query|params|PGlite|postgres|ECONN|CONNECTION/i);
  expect(raw).not.toMatch(/\bat \S+ \(|\.ts\b|\.js\b|node_modules|\/work\/|[A-Z]:\\/);
}

describe("unexpected failures", () => {
  test("a failing query is 500 INTERNAL_ERROR with a generic body, logged with the request id", async () => {
    await database.db.execute(sql`ALTER TABLE login_failures RENAME TO login_failures_moved`);
    try {
      const { result: res, lines } = await captureOutput(() =>
        call(login, "POST", "/api/auth/login", { body: { username: merchant.username, password: merchant.password } }),
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual(internalError);
      expectNothingLeaked(JSON.stringify(res.body));
      const requestId = res.headers.get("x-request-id");
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

      // The operator gets the details, tied to the response by its request id.
      const logged = lines.find((line) => line.level === "error" && line.request_id === requestId);
      expect(logged).toMatchObject({ msg: "unhandled error", route: "POST /api/auth/login" });
      expect(String(logged!.error)).toMatch(/login_failures/);
      expect(lines).toContainEqual(expect.objectContaining({ msg: "request", request_id: requestId, status: 500 }));
    } finally {
      await database.db.execute(sql`ALTER TABLE login_failures_moved RENAME TO login_failures`);
    }
    // Repaired: the same login works again.
    expect((await call(login, "POST", "/api/auth/login", { body: { username: merchant.username, password: merchant.password } })).status).toBe(200);
  });

  test("a failed insert logs no secret, hash or password from the query's parameters", async () => {
    await database.db.execute(sql`ALTER TABLE merchants ADD CONSTRAINT merchants_test_refuse CHECK (false) NOT VALID`);
    const username = uniqueName("failing");
    const password = "a password never to be logged";
    try {
      const { result: res, output } = await captureOutput(() =>
        call(register, "POST", "/api/auth/register", { body: { username, email: `${username}@example.com`, password, shop_name: "Shop" } }),
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual(internalError);
      expect(output).toContain(res.headers.get("x-request-id"));
      expect(output).toMatch(/merchants_test_refuse/); // the cause is still logged
      expect(output).not.toContain(password);
      expect(output).not.toContain("whsec_");
      expect(output).not.toContain("inb_");
      expect(output).not.toContain("$argon2");
    } finally {
      await database.db.execute(sql`ALTER TABLE merchants DROP CONSTRAINT merchants_test_refuse`);
    }
  });

  // On PostgreSQL an ended pool is CONNECTION_ENDED, a lost database (issue 23): 503 with Retry-After.
  // A closed PGlite says only that it is closed, with no code: still the generic 500.
  test("a closed database is 503 SERVICE_UNAVAILABLE (PostgreSQL) or 500 INTERNAL_ERROR (PGlite) on public and authenticated routes", async () => {
    closed = true;
    await database.close();
    const { result: responses } = await captureOutput(async () => [
      await call(login, "POST", "/api/auth/login", { body: { username: merchant.username, password: merchant.password } }),
      await call(verify, "GET", "/api/auth/verify/", { token: merchant.access }),
    ]);
    for (const res of responses) {
      if (backend === "postgres") {
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE" }, retry_after: 5 });
        expect(res.headers.get("retry-after")).toBe("5");
      } else {
        expect(res.status).toBe(500);
        expect(res.body).toEqual(internalError);
      }
      expectNothingLeaked(JSON.stringify(res.body));
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
  });
});
