/** Builds the app into its own folder and runs it with `next start`, for the e2e tests and bench/pay-page.ts. */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

const root = path.resolve(__dirname, "../..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Only what the child needs from the parent; the options decide the rest. */
function baseEnv(distDir: string): Record<string, string> {
  const keep = /^(PATH|HOME|LANG|LC_ALL|TMPDIR|TERM|USER|SHELL|npm_config_cache)$/;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && keep.test(key)) out[key] = value;
  return { ...out, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: distDir };
}

/**
 * Ends the sandbox devnet a server recorded in `stateFile` (the app starts it detached, so it
 * outlives the server). Self-contained (no app imports) so Playwright loads this file as it is;
 * the app's own `npm run devnet:stop` also checks the pid is still that devnet, which a temporary
 * record read right after its server stopped does not need.
 */
function stopRecordedDevnet(stateFile: string): void {
  let pid: unknown;
  try {
    pid = (JSON.parse(readFileSync(stateFile, "utf8")) as { pid?: unknown }).pid;
  } catch {
    return; // no devnet was started
  }
  if (typeof pid !== "number") return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** `next build` into `distDir` (its own folder: other builds may run at the same time); `reuse` keeps an existing build. */
export function buildApp(distDir: string, options: { reuse: boolean; quiet?: boolean }): void {
  if (options.reuse && existsSync(path.join(root, distDir, "BUILD_ID"))) return;
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    env: { ...baseEnv(distDir), NODE_ENV: "production" },
    stdio: options.quiet ? "pipe" : "inherit",
    timeout: 15 * 60_000,
  });
  if (result.status !== 0) throw new Error(`next build failed (${result.status ?? result.signal})\n${result.stderr?.toString() ?? ""}`);
  // Next adds `<distDir>/types` to tsconfig's include; its route types clash with another build's
  // (.next/types) under the type check. `next start` does not need them.
  for (const dir of ["types", "dev/types"]) rmSync(path.join(root, distDir, dir), { recursive: true, force: true });
}

export interface AppServer {
  baseUrl: string;
  /** The last 20 kB the server wrote. */
  output(): string;
  /** Stops the server and everything it started (the devnet), and removes its database. */
  stop(): Promise<void>;
}

/**
 * `next start` on a free port in sandbox mode with a fresh PGlite database, or on `databaseUrl` (an empty
 * PostgreSQL database, which the app migrates at start). With `devnet`, the app starts its own hardhat
 * node on a free port and the local job driver scans it.
 */
export async function startAppServer(options: {
  distDir: string;
  devnet: boolean;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** The host name in APP_URL and baseUrl (it still listens on 127.0.0.1): `localhost` where an IP will not do (WebAuthn's RP ID). */
  publicHost?: string;
}): Promise<AppServer> {
  const publicHost = options.publicHost ?? "127.0.0.1";
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "gw-e2e-pglite-"));
  const child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: {
      ...baseEnv(options.distDir),
      NODE_ENV: "production",
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { PGLITE_DIR: path.join(dataDir, "pglite") }),
      // The devnet the app starts outlives it (lib/chains/devnet-record.ts): recorded here, stopped by stop().
      DEVNET_STATE_FILE: path.join(dataDir, "devnet.json"),
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      GATEWAY_MODE: "sandbox",
      JOBS_DRIVER: options.devnet ? "local" : "none",
      DEVNET: options.devnet ? "start" : "off",
      DEVNET_PORT: String(await freePort()),
      APP_URL: `http://${publicHost}:${port}`,
      LOG_LEVEL: "warn",
      ...options.env,
    },
    // Its own process group, stopped as a whole (the devnet has its own session: stop() ends it by its record).
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          // the group is gone
        }
      };
      signal("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      signal("SIGKILL");
      await exited;
      stopRecordedDevnet(path.join(dataDir, "devnet.json"));
      rmSync(dataDir, { recursive: true, force: true });
    })());

  const baseUrl = `http://${publicHost}:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`next start exited early:\n${output}`);
    }
    try {
      // Any answer will do; the instrumentation hook (database, devnet, jobs) has run by then.
      await fetch(`${baseUrl}/api/__ready`, { signal: AbortSignal.timeout(2_000) });
      return { baseUrl, stop, output: () => output };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`next start did not answer within 120 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

/**
 * A new, empty database next to TEST_DATABASE_URL's (the server migrates it), and how to drop it. Not
 * tests/helpers/db.ts's: that one runs inside vitest (it registers vitest hooks), which Playwright is not.
 */
async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1)}_e2e_${randomBytes(4).toString("hex")}`;
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const sql = postgres(baseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(statement);
    } finally {
      await sql.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * startAppServer on the run's database: a new PostgreSQL database next to TEST_DATABASE_URL's when it is set (CI),
 * as a deployed gateway runs, dropped by stop(); otherwise a fresh PGlite, as `npm run dev` runs. On PostgreSQL the
 * server is up sooner: a fresh PGlite runs every migration in WebAssembly first (the passkey and WalletConnect
 * specs, which start three such servers, took 43.4 s alone on PGlite and 21.7 s on PostgreSQL).
 */
export async function startAppServerOnTestDatabase(options: Omit<Parameters<typeof startAppServer>[0], "databaseUrl">): Promise<AppServer> {
  const database = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  const server = await startAppServer({ ...options, databaseUrl: database?.url }).catch(async (error: unknown) => {
    await database?.drop();
    throw error;
  });
  return {
    ...server,
    stop: async () => {
      await server.stop();
      await database?.drop();
    },
  };
}
