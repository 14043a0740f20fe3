/**
 * The operator's command (npm run admin -- screening:load / screening:status) as a child process on
 * this backend's own database: it loads the SDN.XML an operator downloaded, says what it loaded,
 * refuses a file that is not the list, and the server then screens against it.
 */
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { findLatestListLoad } from "@/lib/screening/queries";
import { screenAddress } from "@/lib/screening/screen-address";
import { backend, createEmptyPostgresDatabase, createMigratedPgliteDir, setupTestDatabase } from "../helpers/db";
import { shortLivedWasmFlags } from "../helpers/short-lived-wasm";

setupTestDatabase();
const run = promisify(execFile);
const tsx = path.join(process.cwd(), "node_modules", ".bin", "tsx");
const sample = path.join(__dirname, "fixtures/sdn-sample.xml");

describe(`npm run admin -- screening:load (${backend})`, () => {
  test("loads the downloaded list, reports it, refuses another file; the server screens against it", { timeout: 240_000 }, async () => {
    let target: { env: Record<string, string>; open(): Promise<Database>; cleanup(): Promise<void> };
    if (backend === "postgres") {
      const empty = await createEmptyPostgresDatabase();
      target = { env: { DATABASE_URL: empty.url }, open: () => openDatabase({ url: empty.url }), cleanup: () => empty.drop() };
    } else {
      const dir = await createMigratedPgliteDir("screening-admin-");
      target = { env: { PGLITE_DIR: dir }, open: () => openDatabase({ pgliteDir: dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    }
    const admin = (...args: string[]) => {
      const env: NodeJS.ProcessEnv = { ...process.env, ...target.env, LOG_LEVEL: "silent" };
      if (backend === "pglite") delete env.DATABASE_URL;
      return run(tsx, [...shortLivedWasmFlags, "--conditions=react-server", "scripts/admin.ts", ...args], { env, cwd: process.cwd() });
    };
    try {
      expect((await admin("screening:status")).stdout).toContain("No sanctions list loaded");
      const loaded = await admin("screening:load", sample);
      expect(loaded.stdout).toContain("OFAC SDN list of 2026-11-20 loaded: 3 listed parties, 3 EVM addresses (1 addresses of other chains skipped).");
      const refused = await admin("screening:load", path.join(process.cwd(), "package.json")).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("No <sdnList> root") });
      expect((await admin("screening:status")).stdout).toContain("OFAC SDN list of 2026-11-20");

      const database = await target.open();
      try {
        expect(await findLatestListLoad(database.db)).toMatchObject({ publishedOn: "2026-11-20", addresses: 3 });
        expect(await screenAddress(database.db, "0x00000000000000000000000000000000005eed02", { provider: null })).toMatchObject({ listed: true });
      } finally {
        await database.close();
      }
    } finally {
      await target.cleanup();
    }
  });
});
