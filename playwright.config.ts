import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * Debian's headless shell (package chromium-headless-shell, which `.ci/run` installs): the same Blink and V8
 * without the full browser's window machinery, and what Playwright itself runs headless by default. A full
 * run: 415 → 216 s of chromium CPU, 426 → 322 s on this 2-core machine. Without it, the full chromium.
 */
const headlessShell = "/usr/lib/chromium/chromium-headless-shell";
const chromium = process.env.PLAYWRIGHT_CHROMIUM ?? (existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium");

/**
 * Every end-to-end spec in tests/e2e (payment page, refunds, merchant dashboard), in Debian's
 * chromium, against production servers on the sandbox devnet: tests/e2e/global-setup.ts builds
 * into .next-e2e (E2E_DIST_DIR; `npm test` has it reuse the build it has just made) and starts two
 * `next start` servers (each starts its own hardhat devnet) on free ports, each with a fresh PGlite
 * database (a new PostgreSQL one when TEST_DATABASE_URL is set), and stops them at the end. One project per
 * area: `npx playwright test --project dashboard` runs the dashboard spec alone.
 *
 * Three workers share the first server and devnet: the dashboard's serial tests in one, the other specs'
 * tests (each spec with its own merchant and its own devnet accounts) spread over all three. On the
 * headless shell, which loads the machine half as much as the full browser did, three beat two on this
 * 2-core machine (230–243 s against 262–263 s, back to back, all passing). Every transaction on the
 * devnet mines a block, so the tests that watch an order step through its confirmations (`quietChain`)
 * run on the second server, one at a time, beside the rest: under the `-exclusive-` lock they used to wait
 * for every other test to end, and ran alone at the end of the run (33–37 s of one busy worker).
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  globalSetup: "./tests/e2e/global-setup.ts",
  workers: 3,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    },
    // The pay page's pulsing status dot stops (it honours prefers-reduced-motion): a running CSS animation
    // keeps chromium drawing frames in software, 14 % of a core per idle page against 3.5 % without.
    reducedMotion: "reduce",
    screenshot: "only-on-failure",
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and a screenshot, but the trace
    // records no screencast: encoding one doubled chromium's CPU time (39 → 19.5 s on the i18n desktop test).
    // Under CI no trace is recorded: nobody opens it there, and recording every test for the few that fail
    // cost a full run about 30 s of CPU (Playwright's workers 74 → 54 s, chromium's browser process 44 → 37 s).
    // A failure still prints its error and call log and leaves its screenshot and page snapshot.
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", screenshots: false },
  },
  projects: [
    // The tests tagged @quiet-chain (tests/e2e/support.ts's `quietChain`), one at a time on their own server and
    // devnet (global-setup.ts), beside the other projects. First, so they start at once.
    { name: "quiet-chain", grep: /@quiet-chain/, workers: 1 },
    // Serial tests that sign up, pay on the devnet and wait for webhooks: more time per test. Before the
    // pay specs, so the longest chain of tests starts at once and the other workers take the pay specs meanwhile.
    { name: "dashboard", testMatch: "dashboard.spec.ts", timeout: 240_000, use: { viewport: { width: 1280, height: 900 } } },
    { name: "pay", testIgnore: "dashboard.spec.ts", grepInvert: /@quiet-chain/, fullyParallel: true },
  ],
});
