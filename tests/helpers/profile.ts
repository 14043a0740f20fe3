/**
 * Where a test file's time goes, for `npm run test:profile` (scripts/test-profile.mjs): with
 * TEST_PROFILE_DIR set, `timed` appends one line per phase (database, devnet, build, server start,
 * sleep…) to a file of this process in that folder; without it, it only runs `fn`.
 * No vitest import here: the Playwright side loads the helpers that call it too.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../..");

/** The test file this worker is running (set by tests/helpers/setup.ts). */
function currentFile(): string {
  const file = (globalThis as { __testProfileFile?: string }).__testProfileFile;
  return file ? path.relative(root, file) : "(outside a test file)";
}

export function recordPhase(phase: string, ms: number): void {
  const dir = process.env.TEST_PROFILE_DIR;
  if (!dir) return;
  // vitest.config.ts's project name: the backend, and "-isolated" for a file in a process of its own.
  const project = `${process.env.TEST_DB_BACKEND ?? ""}${process.env.TEST_SHARED_PROCESS === "" ? "-isolated" : ""}`;
  const line = JSON.stringify({ file: currentFile(), project, phase, ms: Math.round(ms) });
  appendFileSync(path.join(dir, `phases-${process.pid}.jsonl`), line + "\n");
}

export async function timed<T>(phase: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    recordPhase(phase, performance.now() - started);
  }
}
