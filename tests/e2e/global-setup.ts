/**
 * Playwright global setup of every e2e spec (playwright.config.ts): one production server, with its
 * own devnet, for the payment-page, refund and dashboard specs; the returned function stops it.
 * The specs read its URL from E2E_BASE_URL.
 *
 * - E2E_BASE_URL already set: the specs test that running server; nothing is built or started.
 * - E2E_DIST_DIR (default .next-e2e): the build folder. Without E2E_REUSE_BUILD=1 the app is built
 *   into it first; with it, a build already there is used (`npm test` passes the build it has just
 *   made, so CI builds once).
 */
import { buildApp, startAppServer } from "./app-server";

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) return undefined;
  const distDir = process.env.E2E_DIST_DIR || ".next-e2e";
  buildApp(distDir, { reuse: process.env.E2E_REUSE_BUILD === "1" });
  const server = await startAppServer({
    distDir,
    devnet: true,
    // Short webhook retries, so the dashboard spec sees a failed attempt and a redelivery within the test.
    env: { WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5" },
  });
  process.env.E2E_BASE_URL = server.baseUrl;
  return server.stop;
}
