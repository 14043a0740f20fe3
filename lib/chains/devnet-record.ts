/**
 * The sandbox's detached devnet and its record (DEVNET_STATE_FILE, `.data/devnet.json`): which
 * process runs it, on which port, and which chain it is (chain id, genesis hash, hardhat's
 * instance id). A server re-attaches to the recorded devnet only when it still answers as that
 * very chain; `npm run devnet:stop` and the test helpers stop it. No `server-only` and no `env`:
 * the operator script and the tests use it too.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Hex } from "viem";
import { readDevnetIdentity } from "./devnet";

export type DevnetRecord = {
  pid: number;
  port: number;
  rpcUrl: string;
  chainId: number;
  genesisHash: Hex;
  /** hardhat_metadata's per-run id: tells two runs apart even when their genesis blocks match (same second). */
  instanceId: Hex | null;
  startedAt: string;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The devnet's stderr log, next to its record (`devnet.json` → `devnet.log`). */
export function devnetLogFile(stateFile: string): string {
  return stateFile.replace(/(\.json)?$/, ".log");
}

export function readDevnetRecord(stateFile: string): DevnetRecord | null {
  let parsed: Partial<DevnetRecord>;
  try {
    parsed = JSON.parse(readFileSync(stateFile, "utf8")) as Partial<DevnetRecord>;
  } catch {
    return null;
  }
  const valid =
    Number.isInteger(parsed.pid) &&
    Number.isInteger(parsed.port) &&
    typeof parsed.rpcUrl === "string" &&
    Number.isInteger(parsed.chainId) &&
    typeof parsed.genesisHash === "string" &&
    (parsed.instanceId === null || typeof parsed.instanceId === "string");
  return valid ? (parsed as DevnetRecord) : null;
}

/** Writes the record whole or not at all (a new file renamed over the old), so a crash never leaves half a record. */
export function writeDevnetRecord(stateFile: string, record: DevnetRecord): void {
  mkdirSync(path.dirname(stateFile), { recursive: true });
  const partial = `${stateFile}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(partial, stateFile);
}

/**
 * The recorded devnet, if it still answers on its port as the same chain (chain id, genesis hash
 * and, on hardhat, instance id). While its process still runs the recorded node, a slow answer
 * gets a few more tries (a busy machine must not cost the sandbox its chain).
 */
export async function liveRecordedDevnet(stateFile: string): Promise<DevnetRecord | null> {
  const record = readDevnetRecord(stateFile);
  if (!record) return null;
  if (await answersAsRecorded(record)) return record;
  for (let attempt = 0; attempt < 3 && !processGone(record.pid) && isRecordedNode(record); attempt++) {
    if (await answersAsRecorded(record, 5_000)) return record;
    await sleep(1_000);
  }
  return null;
}

async function answersAsRecorded(record: DevnetRecord, timeoutMs = 2_000): Promise<boolean> {
  const identity = await readDevnetIdentity(record.rpcUrl, timeoutMs);
  return (
    !!identity &&
    identity.chainId === record.chainId &&
    identity.genesisHash === record.genesisHash &&
    (record.instanceId === null || identity.instanceId === record.instanceId)
  );
}

/** Whether `pid` is gone (or a zombie nobody reaped: it no longer runs). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    // Linux: field 3 of /proc/<pid>/stat is the state; Z is a zombie.
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/**
 * Whether `pid` is still the hardhat node the record names (its command line says `hardhat … node
 * … --port <port>`), so that a pid the system has since given to another program is never signalled.
 * Without /proc (not Linux) nothing can be proven, and the answer is no.
 */
function isRecordedNode(record: DevnetRecord): boolean {
  try {
    const args = readFileSync(`/proc/${record.pid}/cmdline`, "utf8").split("\0");
    return args.some((a) => a.includes("hardhat")) && args.includes("node") && args[args.indexOf("--port") + 1] === String(record.port);
  } catch {
    return false;
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!processGone(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

export type StopOutcome = "stopped" | "not running";

/**
 * Stops the recorded devnet (SIGTERM, SIGKILL after 5 s) when it is still ours: it answers as the
 * recorded chain, or its pid still runs the recorded hardhat node (a node that hangs). Removes the
 * record either way. A stopped devnet's chain is gone: the next server starts a fresh one and the
 * gateway handles the reset (new genesis) like any devnet restart.
 */
export async function stopRecordedDevnet(stateFile: string): Promise<StopOutcome> {
  const record = readDevnetRecord(stateFile);
  if (!record) return "not running";
  let outcome: StopOutcome = "not running";
  if (!processGone(record.pid) && ((await answersAsRecorded(record)) || isRecordedNode(record))) {
    try {
      process.kill(record.pid, "SIGTERM");
      if (!(await waitGone(record.pid, 5_000))) {
        process.kill(record.pid, "SIGKILL");
        await waitGone(record.pid, 5_000);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
    outcome = "stopped";
  }
  // Only the record we looked at: a server may have written a new one meanwhile.
  if (readDevnetRecord(stateFile)?.pid === record.pid) rmSync(stateFile, { force: true });
  return outcome;
}

/** A start lock older than this belonged to a server that died while starting the devnet (start + deploys take seconds). */
const staleLockMs = 2 * 60_000;

function lockIsStale(lockFile: string): boolean {
  try {
    const holder = Number(readFileSync(lockFile, "utf8"));
    if (Number.isInteger(holder) && holder > 0 && processGone(holder)) return true;
    return Date.now() - statSync(lockFile).mtimeMs > staleLockMs;
  } catch {
    // Gone between the failed create and this look: just try again.
    return false;
  }
}

/**
 * Runs `work` (attach to or start the devnet, deploy the gateway contracts, write the record)
 * while no other server on this machine does the same for `stateFile`: two instances starting at
 * once would otherwise start two devnets, or deploy the contracts twice (the second set would land
 * at other addresses). The lock is a file created exclusively next to the record, holding the pid;
 * a lock whose holder died is taken over.
 */
export async function withDevnetStartLock<T>(stateFile: string, work: () => Promise<T>, timeoutMs = 3 * 60_000): Promise<T> {
  const lockFile = `${stateFile}.lock`;
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lockFile, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockIsStale(lockFile)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Another server held ${lockFile} for over ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
