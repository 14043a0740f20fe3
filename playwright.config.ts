import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests of the hosted payment page, in Debian's chromium, against the production build
 * on the sandbox devnet. tests/e2e/global-setup.ts builds into .next-e2e and starts `next start`
 * (which starts its own hardhat devnet) on free ports with a fresh PGlite database, and stops both
 * at the end.
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  globalSetup: "./tests/e2e/global-setup.ts",
  // One server and one devnet for all tests, on a small machine: one worker.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [{ name: "chromium" }],
});
