import { readFileSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createTestClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { findBlockchainBySlug, setDevnetRpcUrl, type Blockchain } from "@/lib/chains/catalog";
import { devnetChain, startDetachedDevnet, startDevnet, type Devnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { processSlot } from "@/lib/process-singleton";
import { timed } from "./profile";
import { stopSharedDevnet } from "./shared-run";

/** A worker slot's shared devnet (tests/helpers/shared-run.ts). */
type SharedDevnetRecord = { pid: number; port: number; rpcUrl: string };

function readRecord(file: string): SharedDevnetRecord | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as SharedDevnetRecord;
  } catch {
    return null;
  }
}

function writeRecord(file: string, record: SharedDevnetRecord): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(record));
  renameSync(`${file}.tmp`, file);
}

async function rpc(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * A new chain on the running node: `hardhat_reset` (block 0, the config's accounts, no snapshots
 * or pending transactions), the config's mining settings (a reset keeps the last ones set), the
 * chain's clock put on the wall clock, and the gateway contracts deployed again at their fixed
 * addresses. The clock: after a reset hardhat counts block time on from the node's first genesis
 * (a node started minutes ago would lag by minutes); the first deployment block is stamped now,
 * and later blocks follow the wall clock from there, as on a new node. Not evm_revert to a
 * snapshot: hardhat puts the clock back to the snapshot's time, so chain time drifts from file to
 * file. False when the node does not answer.
 */
async function resetChain(rpcUrl: string, deploy: boolean): Promise<boolean> {
  try {
    await rpc(rpcUrl, "hardhat_reset");
    await rpc(rpcUrl, "evm_setIntervalMining", [0]);
    await rpc(rpcUrl, "evm_setAutomine", [true]);
    await rpc(rpcUrl, "evm_setNextBlockTimestamp", [Math.floor(Date.now() / 1000)]);
  } catch {
    return false;
  }
  if (deploy) await ensureGatewayContracts(rpcUrl);
  return true;
}

async function startShared(recordFile: string, deploy: boolean, port?: number): Promise<SharedDevnetRecord> {
  const logFile = recordFile.replace(/\.json$/, ".log");
  const started = await startDetachedDevnet({ logFile, port, sameProcessGroup: true });
  const record = { pid: started.pid, port: started.port, rpcUrl: started.rpcUrl };
  writeRecord(recordFile, record);
  if (deploy) await ensureGatewayContracts(started.rpcUrl);
  return record;
}

/**
 * This worker slot's devnet as a new node is after deployment: the slot's node with a new chain
 * (`resetChain`), or a new node when there is none yet or it no longer answers. Vitest runs one
 * file per slot at a time, so nothing else uses it meanwhile.
 */
async function acquireSharedDevnet(recordFile: string, deploy: boolean): Promise<SharedDevnetRecord> {
  const record = readRecord(recordFile);
  const deploying = deploy ? " and deploy contracts" : "";
  if (record && (await timed(`devnet: reset${deploying}`, () => resetChain(record.rpcUrl, deploy)))) return record;
  if (record) await stopSharedDevnet(record.pid);
  return timed(`devnet: start${deploying}`, () => startShared(recordFile, deploy));
}

/**
 * Waits for the blocks a sandbox simulated payment of this file still mines in the background
 * (lib/sandbox/simulate-payment.ts, one every 1.6 s): on a shared devnet they would land on the slot's
 * next file's chain, one confirmation more than that file counted.
 */
async function simulatedMiningSettled(): Promise<void> {
  const mining = processSlot<Set<string>>("simulatedMining").get();
  const deadline = Date.now() + 60_000;
  while (mining?.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * This file's devnet, with the gateway contracts deployed, and the sandbox catalog pointed at it:
 * under vitest, the worker slot's shared devnet with a new chain (what a new node has, without a
 * node's start: 1.5-2 s on a quiet machine, more under load); else, or with `{ own: true }`, a
 * hardhat node of the file's own, started on a free port and stopped after the file.
 * `{ deploy: false }`: without the gateway contracts (for tests of the deployment itself).
 */
export function setupTestDevnet(options: { own?: boolean; deploy?: boolean } = {}) {
  const deploy = options.deploy ?? true;
  let own: Devnet | undefined;
  let shared: { record: SharedDevnetRecord; recordFile: string } | undefined;
  beforeAll(async () => {
    const dir = options.own ? undefined : inject("sharedRunDir");
    if (dir) {
      const recordFile = path.join(dir, `devnet-${process.env.VITEST_POOL_ID ?? "0"}.json`);
      shared = { record: await acquireSharedDevnet(recordFile, deploy), recordFile };
    } else {
      own = await timed("devnet: start", () => startDevnet());
      if (deploy) await timed("devnet: deploy contracts", () => ensureGatewayContracts(own!.rpcUrl));
    }
    setDevnetRpcUrl(handle.rpcUrl);
  });
  afterAll(async () => {
    await simulatedMiningSettled();
    setDevnetRpcUrl(undefined);
    // A shared devnet stays up for the slot's next file, which resets its chain.
    await timed("devnet: stop", async () => own?.stop());
  });
  const handle = {
    get rpcUrl(): string {
      if (shared) return shared.record.rpcUrl;
      if (own) return own.rpcUrl;
      throw new Error("devnet not started");
    },
    chain(slug = "base"): Blockchain {
      return findBlockchainBySlug(slug)!;
    },
    testClient() {
      return createTestClient({ mode: "hardhat", chain: devnetChain, transport: http(handle.rpcUrl) });
    },
    wallet(privateKey: Hex) {
      return createWalletClient({ account: privateKeyToAccount(privateKey), chain: devnetChain, transport: http(handle.rpcUrl) });
    },
    /** Replaces the devnet with a fresh one on the same port (a restart: new genesis, empty state). */
    async restart(): Promise<void> {
      await timed("devnet: restart", async () => {
        if (shared) {
          await stopSharedDevnet(shared.record.pid);
          shared.record = await startShared(shared.recordFile, deploy, shared.record.port);
          return;
        }
        const port = own!.port;
        await own!.stop();
        own = await startDevnet({ port });
        if (deploy) await ensureGatewayContracts(own.rpcUrl);
      });
    },
  };
  return handle;
}

export type TestDevnet = ReturnType<typeof setupTestDevnet>;
export type { Address };
