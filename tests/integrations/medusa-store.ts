/**
 * A real Medusa store for the plugin's end-to-end test: Medusa as installed by .ci/medusa-e2e (its
 * cache, MEDUSA_INSTALL_DIR), the plugin installed from its packed tarball (MEDUSA_PLUGIN_TARBALL) the way
 * `npm install` would, a PostgreSQL database copied from a migrated and seeded template (made once per
 * Medusa install and store definition; `medusa db:migrate` alone takes a minute), Redis for the event
 * bus, workflow engine and locking, and `medusa start` in production mode on a free port.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "../e2e/app-server";
import { redis, scanKeys } from "./redis";

const root = path.resolve(__dirname, "../..");
const appSource = path.join(root, "integrations/medusa/test/app");
export const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
export const adminEmail = "admin@shop.test";
export const adminPassword = "correct horse battery staple";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this test through .ci/medusa-e2e`);
  return value;
}

/** The server PostgreSQL databases are made on: TEST_DATABASE_URL's (CI) or the local one. */
function serverUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin(statement: string): Promise<void> {
  const sql = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  const sql = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  try {
    return (await sql`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;
  } finally {
    await sql.end();
  }
}

/** The variables every Medusa process of this store gets, apart from the gateway's. */
function baseEnv(run: string, databaseUrl: string): Record<string, string> {
  const keep = /^(PATH|HOME|LANG|LC_ALL|TMPDIR|TERM|USER|npm_config_cache)$/;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && keep.test(key)) env[key] = value;
  return {
    ...env,
    NODE_ENV: "production",
    MEDUSA_DISABLE_TELEMETRY: "true",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    MEDUSA_RUN: run,
    JWT_SECRET: randomBytes(24).toString("hex"),
    COOKIE_SECRET: randomBytes(24).toString("hex"),
    MEDUSA_ADMIN_EMAIL: adminEmail,
    MEDUSA_ADMIN_PASSWORD: adminPassword,
    // Placeholders for the commands that only need the provider to load (migrations, seeding).
    GATEWAY_URL: "http://127.0.0.1:9",
    GATEWAY_API_KEY: "sk_test_placeholder",
    GATEWAY_WEBHOOK_SECRET: "whsec_placeholder",
  };
}

export interface MedusaApp {
  runDir: string;
  run: string;
  databaseUrl: string;
  medusaCli: string;
  /** Seconds spent making the template database (0: it was there). */
  templateSeconds: number;
  remove(): Promise<void>;
}

/** Runs a `medusa` command in the app folder (asynchronously: the gateway starts meanwhile in the same process). */
function medusaCommand(app: Pick<MedusaApp, "runDir" | "medusaCli">, env: Record<string, string>, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [app.medusaCli, ...args], { cwd: app.runDir, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-20_000)));
    child.stderr.on("data", (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-20_000)));
    child.once("error", reject);
    child.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`medusa ${args.join(" ")} failed (${code ?? signal}):\n${output}`))));
  });
}

/**
 * A Medusa app folder inside the install (so Node finds Medusa in the install's node_modules), with the
 * test store's config and the plugin unpacked into its own node_modules, and a database of its own.
 */
export async function prepareMedusaApp(): Promise<MedusaApp> {
  const installDir = required("MEDUSA_INSTALL_DIR");
  const tarball = required("MEDUSA_PLUGIN_TARBALL");
  const medusaCli = path.join(installDir, "node_modules/@medusajs/cli/cli.js");
  if (!existsSync(medusaCli)) throw new Error(`no Medusa install in ${installDir}`);

  mkdirSync(path.join(installDir, "runs"), { recursive: true });
  const runDir = mkdtempSync(path.join(installDir, "runs", "run-"));
  const run = path
    .basename(runDir)
    .replace(/^run-/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  for (const file of ["medusa-config.js", "seed.js", "package.json"]) cpSync(path.join(appSource, file), path.join(runDir, file));
  const pluginDir = path.join(runDir, "node_modules/@payment-gateway/medusa");
  mkdirSync(pluginDir, { recursive: true });
  const untar = spawnSync("tar", ["-xzf", tarball, "--strip-components=1", "-C", pluginDir], { encoding: "utf8" });
  if (untar.status !== 0) throw new Error(`could not unpack ${tarball}: ${untar.stderr}`);

  // The template depends on the Medusa install and on what the store is made of.
  const key = createHash("sha256")
    .update(path.basename(installDir))
    .update(readFileSync(path.join(appSource, "medusa-config.js")))
    .update(readFileSync(path.join(appSource, "seed.js")))
    .digest("hex")
    .slice(0, 12);
  const template = `medusa_tpl_${key}`;
  const app = { runDir, medusaCli };
  let templateSeconds = 0;
  if (!(await databaseExists(template))) {
    const started = performance.now();
    const making = `${template}_making_${randomBytes(3).toString("hex")}`;
    await admin(`CREATE DATABASE "${making}"`);
    try {
      // Queues of their own: what seeding emits is never handled by the store's server (cleaned up with the run's).
      const env = baseEnv(`${run}seed`, serverUrl(making));
      await medusaCommand(app, env, ["db:migrate"]);
      await medusaCommand(app, env, ["exec", "./seed.js"]);
      // Another run may have made it meanwhile: then this copy goes.
      await admin(`ALTER DATABASE "${making}" RENAME TO "${template}"`).catch(() => admin(`DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`));
    } catch (error) {
      await admin(`DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`);
      throw error;
    }
    templateSeconds = Math.round((performance.now() - started) / 1000);
  }
  const database = `medusa_run_${run}`;
  await admin(`CREATE DATABASE "${database}" TEMPLATE "${template}"`);

  return {
    runDir,
    run,
    databaseUrl: serverUrl(database),
    medusaCli,
    templateSeconds,
    async remove() {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      // The run's queues and their jobs (their names carry the run's id).
      const keys = await scanKeys(redisUrl, `*${run}*`);
      for (let i = 0; i < keys.length; i += 500) await redis(redisUrl, [["DEL", ...keys.slice(i, i + 500)]]);
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}

export interface MedusaServer {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** `medusa start` in production mode with the gateway's settings; resolves once /health answers 200. */
export async function startMedusa(app: MedusaApp, gateway: Record<string, string>, port?: number): Promise<MedusaServer> {
  const listenPort = port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, [app.medusaCli, "start", "-p", String(listenPort), "-H", "127.0.0.1"], {
    cwd: app.runDir,
    env: { ...baseEnv(app.run, app.databaseUrl), ...gateway } as NodeJS.ProcessEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // gone
    }
  };
  const killOnExit = () => signal("SIGKILL");
  process.once("exit", killOnExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      signal("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      signal("SIGKILL");
      await exited;
      process.off("exit", killOnExit);
    })());

  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`medusa start exited early:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { url, output: () => output, stop };
    } catch {
      // not yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`medusa start did not answer within 180 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Whether the run's event bus has no job waiting, delayed or running: every webhook it took is handled. */
export async function eventBusIdle(run: string): Promise<boolean> {
  // BullMQ's keys are `<prefix>:<queue>:…`, the prefix being the event bus class's name; found, not assumed,
  // so that a renamed class fails here instead of every queue reading empty.
  const [meta] = await scanKeys(redisUrl, `*:events-${run}:meta`);
  if (!meta) throw new Error(`no event bus queue events-${run} in Redis`);
  const queue = meta.slice(0, -":meta".length);
  const replies = await redis(redisUrl, [
    ["LLEN", `${queue}:wait`],
    ["LLEN", `${queue}:active`],
    ["ZCARD", `${queue}:delayed`],
    ["ZCARD", `${queue}:prioritized`],
  ]);
  return replies.every((count) => count === 0);
}
