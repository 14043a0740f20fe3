import "server-only";
import { createTestClient, http, publicActions, type Hex } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { viemChain } from "@/lib/chains/clients";
import { ApiError } from "@/lib/http/errors";

/**
 * A reorg on hardhat: evm_revert to a snapshot of an earlier block, then mining a longer branch
 * past the old head (transactions reverted out are gone from the mempool, so a payment in them
 * vanishes). The sandbox tools take a snapshot of the head before each change they make to the
 * chain (pay, faucet, mine), kept in a ring per devnet: the deepest reorg possible is to the oldest
 * snapshot still held. In-process (on globalThis: Next may load this module more than once).
 */
interface Snapshot {
  id: Hex;
  block: bigint;
}

const ringSize = 128;
const holder = globalThis as unknown as { __gatewayDevnetSnapshots?: Map<string, Snapshot[]> };
const rings: Map<string, Snapshot[]> = (holder.__gatewayDevnetSnapshots ??= new Map());

function testClient(chain: Blockchain, rpcUrl: string) {
  return createTestClient({ mode: "hardhat", chain: viemChain(chain), transport: http(rpcUrl) }).extend(publicActions);
}

async function blockNumber(client: ReturnType<typeof testClient>): Promise<bigint> {
  return client.getBlockNumber({ cacheTime: 0 });
}

/** Takes a snapshot of the devnet's head, unless the ring already holds that block. */
export async function snapshotHead(chain: Blockchain, rpcUrl: string): Promise<void> {
  const client = testClient(chain, rpcUrl);
  const ring = rings.get(rpcUrl) ?? [];
  rings.set(rpcUrl, ring);
  const before = await blockNumber(client);
  if (ring.at(-1)?.block === before) return;
  const id = await client.snapshot();
  // A block mined between the two reads leaves the snapshot's height unknown: not kept.
  if ((await blockNumber(client)) !== before) return;
  ring.push({ id, block: before });
  if (ring.length > ringSize) ring.shift();
}

export interface DevnetReorg {
  /** Blocks replaced: the old head minus the block the chain went back to. */
  depth: number;
  /** The first height whose block was replaced. */
  fromBlock: bigint;
  /** The head of the new, longer branch. */
  head: bigint;
}

/**
 * Replaces at least the newest `depth` blocks: reverts to the newest snapshot at or below
 * head − depth, then mines one block more than it took away (interval 0, like the mine tool).
 * 409 CONFLICT when no snapshot goes back that far.
 */
export async function reorgDevnet(chain: Blockchain, rpcUrl: string, depth: number): Promise<DevnetReorg> {
  const client = testClient(chain, rpcUrl);
  const ring = rings.get(rpcUrl) ?? [];
  const head = await blockNumber(client);
  const candidates = ring.filter((s) => s.block + BigInt(depth) <= head).reverse();
  for (const snapshot of candidates) {
    // hardhat answers true, or false for an id it no longer holds (viem types the answer as void).
    const reverted = (await client.request({ method: "evm_revert", params: [snapshot.id] })) as unknown as boolean;
    // A revert drops the snapshot itself and every one taken after it; a failed one (the devnet
    // restarted, or something else reverted past it) is no use either.
    rings.set(
      rpcUrl,
      ring.filter((s) => BigInt(s.id) < BigInt(snapshot.id)),
    );
    if (!reverted) continue;
    const replaced = head - snapshot.block;
    await client.mine({ blocks: Number(replaced) + 1, interval: 0 });
    await snapshotHead(chain, rpcUrl);
    return { depth: Number(replaced), fromBlock: snapshot.block + 1n, head: await blockNumber(client) };
  }
  throw new ApiError(
    "CONFLICT",
    `The devnet holds no state ${depth} block(s) back to return to: the sandbox keeps one from each of its own pay, faucet and mine calls. Make one (e.g. mine a block), then pay and reorg.`,
  );
}
