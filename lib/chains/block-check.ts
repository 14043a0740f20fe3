import "server-only";
import { BlockNotFoundError, type PublicClient } from "viem";

/**
 * The one rule for "was this block reorged away": the node says there is no block at that height,
 * or it has a block there with another hash. Heights above the node's head are not judged (a node
 * behind its peers has not seen them yet), and any other failure (timeout, 5xx, JSON-RPC error)
 * throws, so a flaky RPC is never taken for a reorg. One call per distinct height.
 */
export async function canonicalHashes(client: PublicClient, heights: Iterable<bigint>, head: bigint): Promise<Map<bigint, string | null>> {
  const hashes = new Map<bigint, string | null>();
  for (const blockNumber of new Set(heights)) {
    if (blockNumber > head) continue;
    const block = await client.getBlock({ blockNumber }).catch((error: unknown) => {
      if (error instanceof BlockNotFoundError) return null;
      throw error;
    });
    hashes.set(blockNumber, block?.hash ?? null);
  }
  return hashes;
}

/** Whether a record mined at (blockNumber, blockHash) is gone from the chain, by `canonicalHashes`; unjudged heights are not gone. */
export function isReorgedOut(hashes: Map<bigint, string | null>, blockNumber: bigint, blockHash: string): boolean {
  return hashes.has(blockNumber) && hashes.get(blockNumber) !== blockHash;
}

/**
 * How long after its confirmation a transfer or a sweep is still re-checked against the chain:
 * `thresholdMultiple` × its order's confirmation threshold, at least `minBlocks` blocks.
 */
export interface RecheckWindow {
  thresholdMultiple: number;
  minBlocks: number;
}
