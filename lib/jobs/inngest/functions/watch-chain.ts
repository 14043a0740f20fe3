import "server-only";
import { eventType } from "inngest";
import { z } from "zod";
import { findBlockchainBySlug, listBlockchains } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { getDb } from "@/lib/db/client";
import { inngest } from "../client";

/** Scan one chain now; the run schedules the next one itself. */
export const chainWatchRequested = eventType("gateway/chain.watch-requested", {
  schema: z.object({ slug: z.string() }),
});

/**
 * The Inngest counterpart of the local driver's per-chain loop: one tick in a step, a durable
 * sleep of the chain's poll interval, then it sends its own next event. `singleton` (skip) keeps
 * exactly one loop per chain however often it is (re)started.
 */
export const watchChain = inngest.createFunction(
  {
    id: "watch-chain",
    retries: 3,
    singleton: { key: "event.data.slug", mode: "skip" },
    triggers: [chainWatchRequested],
  },
  async ({ event, step }) => {
    const slug = event.data.slug;
    const tick = await step.run("tick", async () => {
      const chain = findBlockchainBySlug(slug);
      if (!chain?.rpcUrl) return { skipped: true as const, reason: "no RPC URL" };
      const result = await watchChainTick(await getDb(), chain, chainClient(chain));
      return {
        skipped: false as const,
        head: result.scan.head.toString(),
        transfers: result.scan.transfers,
        transitions: result.lifecycle.transitions.length,
        pollIntervalMs: chain.pollIntervalMs,
      };
    });
    if (tick.skipped) return tick;
    await step.sleep("wait", `${tick.pollIntervalMs}ms`);
    await step.sendEvent("schedule-next", chainWatchRequested.create({ slug }));
    return tick;
  },
);

/** Every minute, (re)start each chain's loop; `singleton` skips chains whose loop is alive. */
export const startChainWatches = inngest.createFunction(
  { id: "start-chain-watches", retries: 0, triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => {
    const slugs = listBlockchains()
      .filter((chain) => chain.rpcUrl)
      .map((chain) => chain.slug);
    if (slugs.length) await step.sendEvent("start", slugs.map((slug) => chainWatchRequested.create({ slug })));
    return { started: slugs };
  },
);
