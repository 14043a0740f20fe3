import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { shortLivedWasmFlags } from "./tests/helpers/short-lived-wasm";

// Database tests run once on in-memory PGlite and, when TEST_DATABASE_URL is set,
// again on PostgreSQL (each test file gets its own fresh database there).
const shared = {
  alias: {
    "@": path.resolve(__dirname),
    // `server-only` throws outside the react-server condition; tests are server code.
    "server-only": path.resolve(__dirname, "tests/helpers/server-only-stub.ts"),
  },
};

const backends = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

// Test files mostly wait on their child processes (hardhat, `next start`, PostgreSQL) and each has
// its own database, devnet and ports, so they run side by side: vitest's default on two cores
// (cores − 1 = one file at a time) left a core idle most of the run. TEST_MAX_WORKERS overrides.
const maxWorkers = Number(process.env.TEST_MAX_WORKERS) || 3;

/**
 * Most files share their worker process with the files run before them (`isolate: false`): loading
 * the gateway's modules (viem, drizzle, next's route modules) once per worker instead of once per file
 * halved the suite's time. A file that replaces modules (`vi.mock`), changes the environment the
 * modules read at load (`process.env.X =`, `vi.stubEnv`), fakes timers (a timer a module started
 * under them would never fire for the files after it) or says `// vitest: isolate` runs in a process
 * of its own, as before. Faking only the clock (`vi.useFakeTimers({ toFake: ["Date"] })`, with or without `now`, also in
 * the helpers `inOneRateWindow` and totp-support's `useStepClock`) is shared: each file starts on
 * real timers. What the gateway keeps in memory between calls is cleared before each file
 * (tests/helpers/setup.ts).
 */
const needsOwnProcess =
  /vi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\(|vi\.useFakeTimers\((?!\{ toFake: \["Date"\](, now: [^}]+)? \}\))|process\.env\.[A-Za-z_]+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env|\/\/ vitest: isolate/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith(".test.ts") ? [path.relative(__dirname, full)] : [];
  });
}
const allTestFiles = testFiles(path.join(__dirname, "tests")).map((file) => ({ file, text: readFileSync(path.join(__dirname, file), "utf8") }));
const ownProcessFiles = allTestFiles.filter(({ text }) => needsOwnProcess.test(text)).map(({ file }) => file);

/**
 * The files that reach a database: through the database helpers or a `next start` child (which gets one from
 * them), directly or through a local helper they import, or through the backend variables. The others (pure
 * logic, a devnet, a local receiver) would run the same twice, so they run on PGlite's project only, as
 * tests/unit does.
 */
/** The local modules (`./x`, `../x`) a file's text imports, as paths from the root, those that exist. */
function localImports(file: string, text: string): string[] {
  return [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)]
    .map(([, specifier]) => path.join(path.dirname(file), `${specifier}.ts`))
    .filter((imported) => existsSync(path.join(__dirname, imported)));
}

const databaseHelpers = /helpers\/db"|helpers\/server"|setupTestDatabase/;
function usesDatabase(file: string, text: string, seen = new Set<string>()): boolean {
  if (databaseHelpers.test(text)) return true;
  return localImports(file, text).some((imported) => {
    if (seen.has(imported)) return false;
    seen.add(imported);
    return usesDatabase(imported, readFileSync(path.join(__dirname, imported), "utf8"), seen);
  });
}
const readsBackend = /TEST_DB_BACKEND|TEST_DATABASE_URL/;
const databaseFreeFiles = allTestFiles
  .filter(({ file, text }) => !file.startsWith("tests/unit/") && !readsBackend.test(text) && !usesDatabase(file, text))
  .map(({ file }) => file);

/** The bytes of a test file and of the local modules it imports, followed (tests/helpers, which nearly every file imports, aside). */
function sizeWithLocalImports(file: string, seen = new Set<string>()): number {
  const text = readFileSync(path.join(__dirname, file), "utf8");
  let size = Buffer.byteLength(text);
  for (const imported of localImports(file, text)) {
    if (seen.has(imported) || imported.startsWith("tests/helpers/")) continue;
    seen.add(imported);
    size += sizeWithLocalImports(imported, seen);
  }
  return size;
}

/**
 * Vitest's order, with a file's size counted with the local modules it imports. Without earlier
 * results (a fresh clone: CI), vitest starts each project's larger files first; but the fault files that
 * only register scenarios written in modules beside them are a few hundred bytes, so the longest of them
 * (running-server-requests, 35–77 s) started last and ran on alone at the end of the run. With earlier
 * results, vitest's own order (longest first) stands. Projects still run one after another, so a worker
 * process goes on to the next file of its project (vitest.config's `isolate: false`).
 */
class LargerWithImportsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = sorted.every((spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(__dirname, spec.moduleId)}`));
    if (known) return sorted;
    const projectOrder = [...new Set(sorted.map((spec) => spec.project.name))];
    const sizes = new Map<string, number>();
    const size = (spec: TestSpecification) => {
      const file = path.relative(__dirname, spec.moduleId);
      if (!sizes.has(file)) sizes.set(file, sizeWithLocalImports(file));
      return sizes.get(file)!;
    };
    return [...sorted].sort((a, b) => projectOrder.indexOf(a.project.name) - projectOrder.indexOf(b.project.name) || size(b) - size(a));
  }
}

function project(backend: string, isolated: boolean): TestProjectInlineConfiguration {
  return {
    resolve: shared,
    test: {
      name: isolated ? `${backend}-isolated` : backend,
      isolate: isolated,
      include: isolated ? ownProcessFiles : ["tests/**/*.test.ts"],
      // Pure unit tests and files that reach no database do not depend on the backend: run them in one project only.
      exclude: [...(isolated ? [] : ownProcessFiles), ...(backend === "postgres" ? ["tests/unit/**", ...databaseFreeFiles] : [])],
      // What instrumentation.ts sets up once per server process (zod's messages), and a clean slate per file.
      setupFiles: ["tests/helpers/setup.ts"],
      // A file in a process of its own opens PGlite for seconds: WebAssembly's baseline compiler only (tests/helpers/short-lived-wasm.ts).
      ...(isolated && backend === "pglite" ? { execArgv: shortLivedWasmFlags } : {}),
      // One devnet per worker slot, reverted to its deployment snapshot per file (tests/helpers/devnet.ts).
      globalSetup: ["tests/helpers/shared-run.ts"],
      env: { TEST_DB_BACKEND: backend, GATEWAY_MODE: "sandbox", NODE_ENV: "test", TEST_SHARED_PROCESS: isolated ? "" : "1" },
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  };
}

export default defineConfig({
  test: {
    maxWorkers,
    sequence: { sequencer: LargerWithImportsFirst },
    projects: backends.flatMap((backend) => [project(backend, false), project(backend, true)]),
  },
});
