import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test, vi } from "vitest";
import { GET as verify } from "@/app/api/auth/verify/route";
import { credentialCacheTtlMs } from "@/lib/auth/credential-cache";
import { AdminError, setMerchantPlan, showMerchantPlan } from "@/lib/auth/set-plan";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import { backend, createEmptyPostgresDatabase, createMigratedPgliteDir, setupTestDatabase } from "../../helpers/db";
import { createMerchant, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { shortLivedWasmFlags } from "../../helpers/short-lived-wasm";

const testDb = setupTestDatabase();
const run = promisify(execFile);

const limitOf = async (merchant: TestMerchant) => (await call(verify, "GET", "/api/auth/verify/", { token: merchant.access })).headers.get("x-ratelimit-limit");

describe("operator plan changes (lib/auth/set-plan.ts)", () => {
  test("set-plan applies to the merchant's very next request", async () => {
    const merchant = await createMerchant();
    expect(await limitOf(merchant)).toBe("1000");
    const enterprise = await setMerchantPlan(testDb.db, merchant.username, "enterprise", 25);
    expect(enterprise).toMatchObject({ id: merchant.id, plan: "enterprise", rateLimitPerHour: 25, effectiveLimitPerHour: 25 });
    expect(await limitOf(merchant)).toBe("25");
    await setMerchantPlan(testDb.db, merchant.username.toUpperCase(), "premium");
    expect(await limitOf(merchant)).toBe("5000");
    // Enterprise without its own value: the deployment's enterprise default; the old 25 is cleared.
    expect(await setMerchantPlan(testDb.db, merchant.username, "enterprise")).toMatchObject({ rateLimitPerHour: null, effectiveLimitPerHour: 20000 });
    expect(await limitOf(merchant)).toBe("20000");
    expect(await showMerchantPlan(testDb.db, merchant.username)).toMatchObject({ plan: "enterprise", effectiveLimitPerHour: 20000 });
  });

  test("refuses unknown merchants and plans, bad limits, and an own limit outside enterprise", async () => {
    const merchant = await createMerchant();
    await expect(setMerchantPlan(testDb.db, "no-such-merchant", "premium")).rejects.toThrow(AdminError);
    await expect(setMerchantPlan(testDb.db, merchant.username, "gold")).rejects.toThrow(/Unknown plan 'gold'/);
    await expect(setMerchantPlan(testDb.db, merchant.username, "enterprise", 0)).rejects.toThrow(/whole number/);
    await expect(setMerchantPlan(testDb.db, merchant.username, "enterprise", 1.5)).rejects.toThrow(/whole number/);
    await expect(setMerchantPlan(testDb.db, merchant.username, "premium", 9000)).rejects.toThrow(/Only enterprise/);
    await expect(showMerchantPlan(testDb.db, "no-such-merchant")).rejects.toThrow(AdminError);
    expect(await limitOf(merchant)).toBe("1000");
  });
});

describe(`npm run admin as a child process (${backend})`, () => {
  const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");

  test(
    "set-plan and show work on this backend's own database, and a running server sees the limit within the credential cache's bound",
    { timeout: 120_000 },
    async () => {
      // The CLI opens the database the server would: DATABASE_URL, or else the PGlite directory.
      let target: { env: Record<string, string>; open(): Promise<Database>; cleanup(): Promise<void> };
      if (backend === "postgres") {
        const empty = await createEmptyPostgresDatabase();
        target = { env: { DATABASE_URL: empty.url }, open: () => openDatabase({ url: empty.url }), cleanup: () => empty.drop() };
      } else {
        // Already migrated (a copy of the suite's migrated PGlite): PGlite's initdb and the migrations cost seconds of
        // CPU, and migrating an empty database is what the PostgreSQL branch and the browser tests' server do.
        const dir = await createMigratedPgliteDir("idem-admin-");
        target = { env: { PGLITE_DIR: dir }, open: () => openDatabase({ pgliteDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
      }
      const admin = (...args: string[]) => {
        const env: NodeJS.ProcessEnv = { ...process.env, ...target.env, LOG_LEVEL: "silent" };
        if (backend === "pglite") delete env.DATABASE_URL;
        return run(tsx, [...shortLivedWasmFlags, "--conditions=react-server", "scripts/admin.ts", ...args], { env, cwd: process.cwd() });
      };
      let database = await target.open();
      try {
        setDatabase(database);
        const merchant = await createMerchant();
        expect(await limitOf(merchant)).toBe("1000");
        // PGlite serves one process: the server side lets go while the operator runs the command.
        if (backend === "pglite") await database.close();

        const set = await admin("set-plan", merchant.username, "enterprise", "--rate-limit", "42");
        expect(set.stdout).toContain(`${merchant.username} (id ${merchant.id}): plan enterprise, 42 requests per hour (own value)`);
        const shown = await admin("show", merchant.username);
        expect(shown.stdout).toContain("plan enterprise, 42 requests per hour");
        const failed = await admin("set-plan", merchant.username, "gold").then(
          () => null,
          (error: { code: number; stderr: string }) => error,
        );
        expect(failed?.code).toBe(1);
        expect(failed?.stderr).toContain("Unknown plan 'gold'");
        const usage = await admin("set-plan").catch((error: { code: number; stderr: string }) => error);
        expect(usage).toMatchObject({ code: 1, stderr: expect.stringContaining("usage: npm run admin") });

        if (backend === "pglite") {
          database = await target.open();
          setDatabase(database);
        }
        // Another process changed the plan: this one may answer from its credential cache until the bound.
        expect(["1000", "42"]).toContain(await limitOf(merchant));
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(Date.now() + credentialCacheTtlMs);
        expect(await limitOf(merchant)).toBe("42");
      } finally {
        vi.useRealTimers();
        await database.close().catch(() => {});
        setDatabase(testDb.database);
        await target.cleanup();
      }
    },
  );
});
