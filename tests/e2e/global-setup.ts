/**
 * Playwright global setup of every e2e spec (playwright.config.ts): one production server, with its
 * own devnet, for the payment-page, refund and dashboard specs; the returned function stops it.
 * The specs read its URL from E2E_BASE_URL.
 *
 * - E2E_BASE_URL already set: the specs test that running server; nothing is built or started.
 * - E2E_DIST_DIR (default .next-e2e): the build folder. Without E2E_REUSE_BUILD=1 the app is built
 *   into it first; with it, a build already there is used (`npm test` passes the build it has just
 *   made, so CI builds once).
 * - TEST_DATABASE_URL set (CI): the server runs on a new PostgreSQL database next to that one, as a
 *   deployed gateway does, dropped at the end; otherwise on a fresh PGlite, as `npm run dev` does.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { buildApp, startAppServer } from "./app-server";

/**
 * A new, empty database next to TEST_DATABASE_URL's (the server migrates it), and how to drop it. Not
 * tests/helpers/db.ts's: that one runs inside vitest (it registers vitest hooks), which Playwright is not.
 */
async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1)}_e2e_${randomBytes(4).toString("hex")}`;
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const sql = postgres(baseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(statement);
    } finally {
      await sql.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) return undefined;
  const distDir = process.env.E2E_DIST_DIR || ".next-e2e";
  buildApp(distDir, { reuse: process.env.E2E_REUSE_BUILD === "1" });
  const database = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  const server = await startAppServer({
    distDir,
    devnet: true,
    databaseUrl: database?.url,
    // Short webhook retries, so the dashboard spec sees a failed attempt and a redelivery within the test.
    env: { WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5" },
  }).catch(async (error: unknown) => {
    await database?.drop();
    throw error;
  });
  process.env.E2E_BASE_URL = server.baseUrl;
  return async () => {
    await server.stop();
    await database?.drop();
  };
}
