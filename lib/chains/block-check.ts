import "server-only";
import { BlockNotFoundError, type PublicClient } from "viem";
import { isViemError } from "./viem-errors";

/**
 * The one rule for "was this block reorged away": the node says there is no block at that height,
 * or it has a block there with another hash. Heights above the node's head are not judged (a node
 * behind its peers has not seen them yet), and any other failure (timeout, 5xx, JSON-RPC error)
 * throws, so a flaky RPC is never taken for a reorg. One call per distinct height, 16 at once.
 */
export async function canonicalHashes(client: PublicClient, heights: Iterable<bigint>, head: bigint): Promise<Map<bigint, string | null>> {
  const hashes = new Map<bigint, string | null>();
  const wanted = [...new Set(heights)].filter((blockNumber) => blockNumber <= head);
  // 16 at a time (one batch with a pooled client): a re-check through a remote provider costs a round trip, not one per block.
  for (let i = 0; i < wanted.length; i += 16) {
    const blocks = await Promise.all(
      wanted.slice(i, i + 16).map((blockNumber) =>
        client.getBlock({ blockNumber }).catch((error: unknown) => {
          if (isViemError(error, BlockNotFoundError, "BlockNotFoundError")) return null;
          throw error;
        }),
      ),
    );
    wanted.slice(i, i + 16).forEach((blockNumber, j) => hashes.set(blockNumber, blocks[j]?.hash ?? null));
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
