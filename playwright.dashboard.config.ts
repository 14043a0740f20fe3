import { defineConfig } from "@playwright/test";

/**
 * Dashboard end-to-end tests in Debian's chromium. tests/e2e/dashboard-server.ts builds the app
 * into .next-dash when needed and starts `next start` on a free port with a fresh PGlite, the
 * sandbox devnet and the local job driver; the spec reads its URL from DASH_BASE_URL.
 * Run: npx playwright test -c playwright.dashboard.config.ts
 */
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "dashboard.spec.ts",
  outputDir: "test-results/dashboard-artifacts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  globalSetup: "./tests/e2e/dashboard-server.ts",
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] },
    viewport: { width: 1280, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
