/**
 * A PostgreSQL cluster of the test's own (Debian's PostgreSQL 15 binaries, a temp dir, a free port),
 * so a test can stop and start the database under a running app without touching the machine's
 * shared server. initdb refuses to run as root: as root, the cluster runs as the `postgres` user.
 */
import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../helpers/server";

const run = promisify(execFile);
export const postgresBin = "/usr/lib/postgresql/15/bin";

export interface PrivatePostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** `pg_ctl stop -m fast`: every connection is closed (57P01 admin_shutdown), new ones are refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it (immediate) and removes its files. */
  destroy(): Promise<void>;
}

/**
 * A free port below Linux's ephemeral range (32768–60999). A port from that range (what listening
 * on port 0 hands out) is free again while the cluster is stopped: another test file's server
 * could take it then, and the app's connection attempts of an outage could be given it as their
 * own local port (a TCP self-connect). Either way a connect meets something that is not PostgreSQL
 * and waits out the connect timeout: a 5 s answer in an outage, seen in a full run.
 */
async function freePortBelowEphemeralRange(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort(20_000 + Math.floor(Math.random() * 12_000)).catch(() => null);
    if (port !== null) return port;
  }
  throw new Error("no free port below the ephemeral range");
}

export const privatePostgresAvailable = existsSync(path.join(postgresBin, "initdb"));

function asClusterOwner(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const binary = path.join(postgresBin, command);
  if (process.getuid?.() === 0) return run("runuser", ["-u", "postgres", "--", binary, ...args], { timeout: 60_000 });
  return run(binary, args, { timeout: 60_000 });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "gw-private-pg-"));
  const dataDir = path.join(dir, "data");
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  chmodSync(dir, 0o700);
  await asClusterOwner("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  const port = await freePortBelowEphemeralRange();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100 -c shared_buffers=32MB`;
  const pgCtl = (...args: string[]) => asClusterOwner("pg_ctl", ["-D", dataDir, "-l", path.join(dir, "server.log"), ...args]);
  const start = async () => {
    await pgCtl("start", "-w", "-t", "60", "-o", options);
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pgCtl("stop", "-m", "fast", "-w", "-t", "60");
    },
    start,
    destroy: async () => {
      await pgCtl("stop", "-m", "immediate", "-w", "-t", "30").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
