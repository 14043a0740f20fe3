/**
 * Playwright global setup of every e2e spec (playwright.config.ts): one production server, with its
 * own devnet, for the payment-page, refund and dashboard specs, and a second one, with a devnet of its
 * own, for the tests that watch an order step through its confirmations (the `quiet-chain` project:
 * no other test mines blocks there); the returned function stops both. The specs read their URLs from
 * E2E_BASE_URL and E2E_QUIET_BASE_URL (tests/e2e/support.ts's `baseUrl()`).
 *
 * - E2E_BASE_URL already set: the specs test that running server; nothing is built or started. The
 *   quiet-chain tests use E2E_QUIET_BASE_URL when it is set too, else that server, running alone.
 * - E2E_DIST_DIR (default .next-e2e): the build folder. Without E2E_REUSE_BUILD=1 the app is built
 *   into it first; with it, a build already there is used (`npm test` passes the build it has just
 *   made, so CI builds once).
 * - TEST_DATABASE_URL set (CI): the server runs on a new PostgreSQL database next to that one, as a
 *   deployed gateway does, dropped at the end; otherwise on a fresh PGlite, as `npm run dev` does.
 */
import { buildApp, startAppServerOnTestDatabase, type AppServer } from "./app-server";

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) return undefined;
  const distDir = process.env.E2E_DIST_DIR || ".next-e2e";
  buildApp(distDir, { reuse: process.env.E2E_REUSE_BUILD === "1" });
  // Both servers start at once: nothing else runs yet. If one fails, the other is stopped.
  const started = await Promise.allSettled([
    // Short webhook retries, so the dashboard spec sees a failed attempt and a redelivery within the test.
    startAppServerOnTestDatabase({ distDir, devnet: true, env: { WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5" } }),
    startAppServerOnTestDatabase({ distDir, devnet: true }),
  ]);
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(started.map((result) => (result.status === "fulfilled" ? result.value.stop() : undefined)));
    throw failed.reason;
  }
  const [main, quiet] = started.map((result) => (result as PromiseFulfilledResult<AppServer>).value) as [AppServer, AppServer];
  process.env.E2E_BASE_URL = main.baseUrl;
  process.env.E2E_QUIET_BASE_URL = quiet.baseUrl;
  return async () => {
    await Promise.all([main.stop(), quiet.stop()]);
  };
}
