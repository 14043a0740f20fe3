import "server-only";
import { BlockNotFoundError, type PublicClient } from "viem";
import { processSingleton } from "@/lib/process-singleton";
import type { Blockchain } from "./catalog";
import { isViemError } from "./viem-errors";

/**
 * How long a chain's `safe` / `finalized` answer is reused. Both move once per epoch or L1 batch
 * (minutes), and a stale answer is only ever lower, which re-checks a little more and sweeps a
 * little later, never less safely; the devnet (tests move its answers) is always asked.
 */
const reuseMs = (chain: Blockchain) => (chain.isDevnet ? 0 : 12_000);

/**
 * The highest block the chain itself calls `safe` or `finalized` (its catalog entry says which tag
 * answers which), never above `head`. A chain without such tags answers `head`: its confirmation
 * threshold and re-check window are all there is. A node that has no such block yet (a young chain)
 * answers -1: nothing is final. Any other failure throws, like every block lookup of the engine.
 */
export async function finalityHead(client: PublicClient, chain: Blockchain, level: "safe" | "finalized", head: bigint): Promise<bigint> {
  if (!chain.finality) return head;
  const tag = chain.finality[level];
  // Process-wide: Next loads modules more than once, and the watcher and the sweeper share answers.
  const cache = processSingleton("finalityHeads", () => new Map<string, { block: bigint; at: number }>());
  const key = `${chain.chainId}|${chain.rpcUrl}|${tag}`;
  const cached = cache.get(key);
  let block: bigint;
  if (cached && Date.now() - cached.at < reuseMs(chain)) {
    block = cached.block;
  } else {
    const found = await client.getBlock({ blockTag: tag }).catch((error: unknown) => {
      if (isViemError(error, BlockNotFoundError, "BlockNotFoundError")) return null;
      throw error;
    });
    block = found?.number ?? -1n;
    cache.set(key, { block, at: Date.now() });
  }
  return block < head ? block : head;
}
