/** Runs the built app with `next start` in a child process, for tests over real HTTP. */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { stopRecordedDevnet, withDevnetStartLock } from "@/lib/chains/devnet-record";
import { backend, createEmptyPostgresDatabase, createMigratedPgliteDir, createMigratedPostgresDatabase } from "./db";
import { recordPhase, timed } from "./profile";
import { shortLivedWasmFlags } from "./short-lived-wasm";

const root = path.resolve(__dirname, "../..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
// NEXT_DIST_DIR: a separate build folder (next.config.ts), passed on to `next start` too.
const buildIdFile = path.join(root, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID");
// Shared by both test projects (they run in parallel), so only one of them builds.
const buildLock = path.join(tmpdir(), `gw-next-build-${createHash("sha256").update(root).digest("hex").slice(0, 12)}.lock`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a hook that may have to build the app (`beforeAll(ensureBuilt, buildTimeoutMs)`) may take. */
export const buildTimeoutMs = 10 * 60_000;

/**
 * The test command runs `next build` before vitest; when `.next/BUILD_ID` is missing (a bare
 * `vitest run`), build once here. A lock directory keeps parallel test files from building twice.
 */
export async function ensureBuilt(): Promise<void> {
  const deadline = Date.now() + buildTimeoutMs;
  // Not done while another file's build still runs: `next build` writes BUILD_ID before the rest
  // of the server folder (a `next start` then died on a missing .next/server/preview-props.json).
  while (!existsSync(buildIdFile) || existsSync(buildLock)) {
    if (Date.now() > deadline) throw new Error("timed out waiting for another test file's `next build`");
    try {
      mkdirSync(buildLock);
    } catch {
      // Someone else is building; take over a lock left behind by a killed run.
      const lock = statSync(buildLock, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > 10 * 60_000) rmSync(buildLock, { recursive: true, force: true });
      await sleep(1000);
      continue;
    }
    try {
      if (existsSync(buildIdFile)) break;
      await timed("next build", build);
    } finally {
      rmSync(buildLock, { recursive: true, force: true });
    }
  }
}

function build(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, "build"], {
      cwd: root,
      env: { ...childEnv(), NODE_ENV: "production" } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), buildTimeoutMs - 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`next build failed (${code}):\n${output}`));
    });
  });
}

/** A port free on 127.0.0.1: one the system picks, or `port` itself (rejects when it is taken). */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** The parent's environment without what vitest and the test projects set, so the child decides for itself. */
function childEnv(): Record<string, string> {
  const dropped =
    /^(VITEST|TEST$|TEST_|NODE_ENV$|AUTH_SECRET$|DATABASE_URL$|PGLITE_DIR$|GATEWAY_MODE$|JOBS_DRIVER$|DEVNET$|DEVNET_STATE_FILE$|LOG_LEVEL$|NODE_OPTIONS$)/;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !dropped.test(key)) out[key] = value;
  return { ...out, NEXT_TELEMETRY_DISABLED: "1" };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  /** Stops the process (SIGTERM, SIGKILL after 5 s), waits for it, and removes its database. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Extra variables; `undefined` removes one (e.g. `{ AUTH_SECRET: undefined }`). */
  env?: Record<string, string | undefined>;
  /** Use this database (e.g. to restart a killed server on its data); `stop()` then leaves it alone. */
  database?: ServerDatabase;
  /** How long `startServer` waits for the first answer (default 60 s; a server that starts its own devnet and deploys to it needs longer on a busy machine). */
  readyTimeoutMs?: number;
}

/**
 * A database for `next start` children: `env` is DATABASE_URL or PGLITE_DIR, plus DEVNET_STATE_FILE
 * (in the same temporary folder), so that servers on one database share one sandbox devnet, the way
 * servers in one checkout share `.data/`. `drop()` stops that devnet (it outlives its servers) and
 * removes the database.
 */
export interface ServerDatabase {
  env: Record<string, string>;
  /** Where servers on this database record the devnet they start (DEVNET=start without DEVNET_RPC_URL). */
  devnetStateFile: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for this test project's backend, to be shared by several server processes in turn:
 * `env` is DATABASE_URL or PGLITE_DIR, plus DEVNET_STATE_FILE (in a temporary folder of its own), so that
 * servers on one database share one sandbox devnet, the way servers in one checkout share `.data/`.
 * It is already migrated (a copy of the migrated template), so the server's own migration at start
 * finds nothing to do; `{ empty: true }` gives an empty one instead, for the server to migrate.
 * `drop()` stops the recorded devnet (it outlives its servers) and removes the database.
 */
export async function createServerDatabase(options: { empty?: boolean } = {}): Promise<ServerDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "gw-server-data-"));
  const devnetStateFile = path.join(dir, "devnet.json");
  const removeDir = async () => {
    // Under the start lock: a server still starting the devnet finishes (or died and left the lock) first.
    await withDevnetStartLock(devnetStateFile, () => stopRecordedDevnet(devnetStateFile));
    rmSync(dir, { recursive: true, force: true });
  };
  if (backend === "postgres") {
    const created = options.empty ? await createEmptyPostgresDatabase() : await createMigratedPostgresDatabase();
    return {
      env: { DATABASE_URL: created.url, DEVNET_STATE_FILE: devnetStateFile },
      devnetStateFile,
      drop: async () => {
        await removeDir();
        await created.drop();
      },
    };
  }
  const pgliteDir = options.empty ? path.join(dir, "pglite") : await createMigratedPgliteDir();
  return {
    env: { PGLITE_DIR: pgliteDir, DEVNET_STATE_FILE: devnetStateFile },
    devnetStateFile,
    drop: async () => {
      await removeDir();
      rmSync(pgliteDir, { recursive: true, force: true });
    },
  };
}

/** Spawns `next start` on a free port with a fresh database for this test project's backend. Does not wait. */
export async function spawnServer(options: ServerOptions = {}): Promise<ServerProcess> {
  await ensureBuilt();
  const port = await freePort();
  const cleanups: Array<() => Promise<void> | void> = [];
  let database: Record<string, string>;
  if (options.database) {
    database = options.database.env;
  } else {
    const created = await createServerDatabase();
    database = created.env;
    cleanups.push(() => created.drop());
  }

  const env: Record<string, string> = {
    ...childEnv(),
    ...database,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    NODE_ENV: "production",
    GATEWAY_MODE: "sandbox",
    JOBS_DRIVER: "none",
    DEVNET: "off",
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }

  const child = spawn(process.execPath, [...shortLivedWasmFlags, nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test process that exits with its server still up takes the server along. Once, an orphaned server
  // went on using half a core for the rest of a run (its file had passed).
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(killer);
      }
      for (const cleanup of cleanups.reverse()) await cleanup();
    })());

  return { child, port, url: `http://127.0.0.1:${port}`, output: () => output, exited, stop };
}

/**
 * How long `startServer` waits for `next start` to answer: about 10 s on a quiet machine, but files
 * run three at a time beside other work (a bound on an event, not a sleep: it returns as soon as the server answers).
 */
const serverReadyTimeoutMs = 120_000;

/** Starts the production server and waits until it answers HTTP; call `stop()` after. */
export async function startServer(options: ServerOptions = {}): Promise<ServerProcess> {
  const started = performance.now();
  const server = await spawnServer(options);
  const readyTimeoutMs = options.readyTimeoutMs ?? serverReadyTimeoutMs;
  const deadline = Date.now() + readyTimeoutMs;
  let exitCode: number | string | undefined;
  void server.exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) {
      await server.stop();
      throw new Error(`next start exited with ${exitCode} before answering:\n${server.output()}`);
    }
    try {
      // Any answer will do: the 404 catch-all does not touch the database.
      await fetch(`${server.url}/api/__ready`, { signal: AbortSignal.timeout(2000) });
      recordPhase("next start (until it answers)", performance.now() - started);
      return server;
    } catch {
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`next start did not answer within ${readyTimeoutMs / 1000} s:\n${server.output()}`);
      }
      await sleep(200);
    }
  }
}
