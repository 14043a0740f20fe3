/**
 * A vitest reporter for `npm run test:profile` (scripts/test-profile.mjs): one line per finished
 * test file with vitest's own breakdown (import and collection, setup files, tests and hooks) into
 * TEST_PROFILE_DIR/files.jsonl, with the time it ended (so the profile can tell how many files ran side by side).
 * The per-phase lines come from tests/helpers/profile.ts.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const root = path.resolve(__dirname, "../..");

export default class ProfileReporter implements Reporter {
  onTestModuleEnd(testModule: TestModule): void {
    const dir = process.env.TEST_PROFILE_DIR;
    if (!dir) return;
    const diagnostic = testModule.diagnostic();
    let tests = 0;
    let failed = 0;
    for (const test of testModule.children.allTests()) {
      tests += 1;
      if (test.result().state === "failed") failed += 1;
    }
    const line = {
      file: path.relative(root, testModule.moduleId),
      project: testModule.project.name,
      state: testModule.state(),
      tests,
      failed,
      collectMs: Math.round(diagnostic.collectDuration),
      setupMs: Math.round(diagnostic.setupDuration),
      runMs: Math.round(diagnostic.duration),
      totalMs: Math.round(
        diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration,
      ),
      endedAt: Date.now(),
    };
    appendFileSync(path.join(dir, "files.jsonl"), JSON.stringify(line) + "\n");
  }
}
