import "server-only";
import { deleteCountersBefore, deleteLoginFailuresBefore } from "@/lib/auth/queries";
import { defineTask, type AnyTask } from "@/lib/jobs/tasks";
import { findBlockchainById, listBlockchains } from "./catalog";
import { chainClient } from "./clients";
import { subscribeNewHeads } from "./new-heads";
import { sweepConfirmedDeposits } from "./sweeper";
import { chainKicks, watchChainTick } from "./watch-chain";

export const watchChainTaskName = (slug: string) => `watch-chain-${slug}`;

/**
 * One exclusive task per chain with an RPC URL (an advisory lock per chain: only one instance
 * scans it), the sweeper, and housekeeping. Built when the driver starts, after the sandbox
 * devnet is up, so the catalog knows its URL.
 */
export function chainTasks(): AnyTask[] {
  const chains = listBlockchains().filter((chain) => chain.rpcUrl);
  return [
    ...chains.map((chain) =>
      defineTask({
        name: watchChainTaskName(chain.slug),
        intervalMs: chain.pollIntervalMs,
        concurrency: "exclusive",
        async run(db) {
          const current = findBlockchainById(chain.id)!;
          if (current.rpcUrl) await watchChainTick(db, current, chainClient(current));
        },
      }),
    ),
    defineTask({
      name: "sweep-deposits",
      intervalMs: 2_000,
      concurrency: "exclusive",
      async run(db) {
        for (const chain of listBlockchains().filter((c) => c.rpcUrl)) await sweepConfirmedDeposits(db, chain, chainClient(chain));
      },
    }),
    defineTask({
      name: "housekeeping",
      intervalMs: 10 * 60_000,
      concurrency: "exclusive",
      async run(db) {
        const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
        await deleteCountersBefore(db, twoHoursAgo);
        await deleteLoginFailuresBefore(db, twoHoursAgo);
      },
    }),
  ];
}

/** Runs a chain's task at once when a new head arrives over WebSocket or a sandbox tool moved the chain. Returns the unsubscribe. */
export function wireChainKicks(kick: (taskName: string) => void): () => void {
  const unsubscribers = listBlockchains()
    .filter((chain) => chain.rpcUrl)
    .map((chain) => subscribeNewHeads(chain, () => kick(watchChainTaskName(chain.slug))));
  const onKick = (blockchainId: number) => {
    const chain = findBlockchainById(blockchainId);
    if (chain) kick(watchChainTaskName(chain.slug));
  };
  chainKicks.on("kick", onKick);
  return () => {
    chainKicks.off("kick", onKick);
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
