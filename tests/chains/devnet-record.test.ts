import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { readDevnetIdentity, startDetachedDevnet, startDevnet } from "@/lib/chains/devnet";
import {
  devnetLogFile,
  liveRecordedDevnet,
  processGone,
  readDevnetRecord,
  stopRecordedDevnet,
  withDevnetStartLock,
  writeDevnetRecord,
  type DevnetRecord,
} from "@/lib/chains/devnet-record";

// The record of the sandbox's detached devnet: re-attach only to the very chain recorded, never
// signal a process that is not that devnet, and let one starter at a time in.

const dir = mkdtempSync(path.join(tmpdir(), "gw-devnet-record-"));
const stateFile = path.join(dir, "devnet.json");
const started: number[] = [];

afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // stopped by the test
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

async function recordNewDevnet(): Promise<DevnetRecord> {
  const devnet = await startDetachedDevnet({ logFile: devnetLogFile(stateFile) });
  started.push(devnet.pid);
  const identity = (await readDevnetIdentity(devnet.rpcUrl))!;
  const record = { pid: devnet.pid, port: devnet.port, rpcUrl: devnet.rpcUrl, ...identity, startedAt: new Date().toISOString() };
  writeDevnetRecord(stateFile, record);
  return record;
}

test("a recorded devnet is found again while it answers as that chain, and stopping it ends the process and the record", async () => {
  const record = await recordNewDevnet();
  expect(record.chainId).toBe(31337);
  expect(record.instanceId).toMatch(/^0x[0-9a-f]{64}$/);
  expect(await liveRecordedDevnet(stateFile)).toEqual(record);

  expect(await stopRecordedDevnet(stateFile)).toBe("stopped");
  expect(processGone(record.pid)).toBe(true);
  expect(existsSync(stateFile)).toBe(false);
  expect(await liveRecordedDevnet(stateFile)).toBeNull();
  expect(await stopRecordedDevnet(stateFile)).toBe("not running");
});

test("another chain on the recorded port is not re-attached to, and its process is left alone", async () => {
  // Someone else's devnet now answers where ours was recorded, under a pid that is not a hardhat node of ours.
  const stranger = await startDevnet();
  try {
    const identity = (await readDevnetIdentity(stranger.rpcUrl))!;
    const bystander = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    writeDevnetRecord(stateFile, {
      pid: bystander.pid!,
      port: stranger.port,
      rpcUrl: stranger.rpcUrl,
      chainId: identity.chainId,
      genesisHash: `0x${"ab".repeat(32)}`,
      instanceId: identity.instanceId,
      startedAt: new Date().toISOString(),
    });
    expect(await liveRecordedDevnet(stateFile)).toBeNull();
    expect(await stopRecordedDevnet(stateFile)).toBe("not running");
    expect(processGone(bystander.pid!)).toBe(false);
    expect(await readDevnetIdentity(stranger.rpcUrl)).toEqual(identity);
    expect(readDevnetRecord(stateFile)).toBeNull();
    bystander.kill("SIGKILL");
  } finally {
    await stranger.stop();
  }
});

test("a record that is not JSON or lacks fields counts as none", () => {
  writeFileSync(stateFile, "{ half a rec");
  expect(readDevnetRecord(stateFile)).toBeNull();
  writeFileSync(stateFile, JSON.stringify({ pid: 1, port: 8545 }));
  expect(readDevnetRecord(stateFile)).toBeNull();
  rmSync(stateFile);
});

test("the start lock lets one starter in at a time, and takes over a lock whose holder died", async () => {
  const order: string[] = [];
  const hold = (name: string) =>
    withDevnetStartLock(stateFile, async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      order.push(`${name} out`);
    });
  await Promise.all([hold("a"), hold("b"), hold("c")]);
  for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace(" in", " out"));
  expect(existsSync(`${stateFile}.lock`)).toBe(false);

  // A server killed while starting the devnet left its lock behind.
  const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => dead.once("exit", resolve));
  writeFileSync(`${stateFile}.lock`, String(dead.pid));
  const began = Date.now();
  expect(await withDevnetStartLock(stateFile, async () => "taken over", 10_000)).toBe("taken over");
  expect(Date.now() - began).toBeLessThan(5_000);
});
