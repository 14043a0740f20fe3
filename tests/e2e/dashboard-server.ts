/** Playwright global setup for the dashboard spec: build (if needed) and start the app on a free port. */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const distDir = process.env.NEXT_DIST_DIR ?? ".next-dash";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Only what the child needs from the parent (no DATABASE_URL or the like leaking in from the shell). */
function baseEnv(): Record<string, string> {
  const keep = /^(PATH|HOME|LANG|LC_ALL|TMPDIR|TERM|USER|SHELL|npm_config_cache)$/;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && keep.test(key)) out[key] = value;
  return { ...out, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: distDir };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.DASH_BASE_URL) return async () => {}; // an already running server
  const env = baseEnv();
  if (!existsSync(path.join(root, distDir, "BUILD_ID")) || process.env.DASH_REBUILD === "1") {
    const built = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, env: { ...env, NODE_ENV: "production" }, stdio: "inherit" });
    if (built.status !== 0) throw new Error("next build failed");
  }
  const [port, devnetPort] = [await freePort(), await freePort()];
  const pgliteDir = mkdtempSync(path.join(tmpdir(), "gw-dash-e2e-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: "production",
      PGLITE_DIR: pgliteDir,
      GATEWAY_MODE: "sandbox",
      JOBS_DRIVER: "local",
      DEVNET: "start",
      DEVNET_PORT: String(devnetPort),
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      APP_URL: baseUrl,
      LOG_LEVEL: "warn",
      // Short retries so a redelivery or a failed attempt shows up within the test.
      WEBHOOK_RETRY_SCHEDULE_SECONDS: "1,2,5",
    },
    // Its own process group: stopping it also stops the hardhat node it starts.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/api/blockchains/`, { signal: AbortSignal.timeout(3000) });
      if (res.status < 500) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`next start did not answer within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  process.env.DASH_BASE_URL = baseUrl;

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  return async () => {
    signalGroup("SIGTERM");
    await new Promise((r) => setTimeout(r, 3000));
    signalGroup("SIGKILL");
    rmSync(pgliteDir, { recursive: true, force: true });
    if (process.env.DASH_SERVER_LOG === "1") console.log(output);
  };
}
