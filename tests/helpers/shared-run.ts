/**
 * vitest globalSetup (vitest.config.ts): a folder for what this run's test files share and the run
 * cleans up at its end.
 * - Shared devnets, one per vitest worker slot (VITEST_POOL_ID), which `setupTestDevnet`
 *   (tests/helpers/devnet.ts) starts on first use and each later file of that slot gives a new chain
 *   (hardhat_reset, contracts deployed again), instead of starting its own hardhat node. Both projects
 *   (pglite, postgres) share the slots: vitest hands a slot to one file at a time.
 * - The PostgreSQL database each worker process keeps between its files (tests/helpers/db.ts), named in
 *   an `idle-database-<pid>` file: it outlives the worker.
 * Teardown stops the devnets and drops the databases recorded there. No `@/` imports: this runs in
 * vitest's main process before the projects' module graphs exist.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    sharedRunDir: string;
  }
}

type Run = { dir: string; projects: number };
const holder = globalThis as { __sharedRun?: Run };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function running(pid: number): boolean {
  try {
    // Ours only while the pid still runs a hardhat node (a pid can be reused after it exits).
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("hardhat");
  } catch {
    return false;
  }
}

/** Stops a shared devnet's node (SIGTERM, SIGKILL after 5 s), if that pid still runs one. */
export async function stopSharedDevnet(pid: number): Promise<void> {
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (!running(pid)) return;
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + 5_000;
    while (running(pid) && Date.now() < deadline) await sleep(50);
  }
}

async function stopSharedDevnets(dir: string): Promise<void> {
  const records = readdirSync(dir).filter((name) => /^devnet-\d+\.json$/.test(name));
  await Promise.all(
    records.map(async (name) => {
      try {
        const { pid } = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as { pid: number };
        await stopSharedDevnet(pid);
      } catch {
        // A record being rewritten when the run was cut short: nothing to stop.
      }
    }),
  );
}

async function dropIdleDatabases(dir: string): Promise<void> {
  const names = readdirSync(dir)
    .filter((name) => name.startsWith("idle-database-"))
    .map((name) => readFileSync(path.join(dir, name), "utf8"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (names.length === 0 || !adminUrl) return;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    for (const name of names) await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export default function setup(project: TestProject) {
  // Each project calls this; the first makes the folder, the last one's teardown empties it.
  const run = (holder.__sharedRun ??= { dir: mkdtempSync(path.join(tmpdir(), "gw-test-run-")), projects: 0 });
  run.projects += 1;
  project.provide("sharedRunDir", run.dir);
  return async () => {
    run.projects -= 1;
    if (run.projects > 0) return;
    holder.__sharedRun = undefined;
    try {
      await Promise.all([stopSharedDevnets(run.dir), dropIdleDatabases(run.dir)]);
    } finally {
      rmSync(run.dir, { recursive: true, force: true });
    }
  };
}
