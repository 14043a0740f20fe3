import "server-only";
import { BlockNotFoundError, type PublicClient } from "viem";
import type { Blockchain } from "./catalog";

/**
 * The highest block the chain itself calls `safe` or `finalized` (its catalog entry says which tag
 * answers which), never above `head`. A chain without such tags answers `head`: its confirmation
 * threshold and re-check window are all there is. A node that has no such block yet (a young chain)
 * answers -1: nothing is final. Any other failure throws, like every block lookup of the engine.
 */
export async function finalityHead(client: PublicClient, chain: Blockchain, level: "safe" | "finalized", head: bigint): Promise<bigint> {
  if (!chain.finality) return head;
  const block = await client.getBlock({ blockTag: chain.finality[level] }).catch((error: unknown) => {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  });
  if (!block || block.number === null) return -1n;
  return block.number < head ? block.number : head;
}
