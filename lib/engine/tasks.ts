import "server-only";
import { deleteLoginFailuresBefore } from "@/lib/auth/queries";
import { deleteCountersBefore } from "@/lib/rate-limit/queries";
import { recordChainHead } from "@/lib/metrics/record";
import { processSingleton } from "@/lib/process-singleton";
import { kick, quietChainBackstopMs, taskNames } from "@/lib/jobs/kick";
import { nextPendingDeadline } from "@/lib/orders/queries";
import { defineTask, taskLoopFunctionId, type AnyTask } from "@/lib/jobs/tasks";
import { findBlockchainById, listBlockchains } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { subscribeNewHeads } from "@/lib/chains/new-heads";
import { nextSweepDueAt } from "@/lib/chains/queries";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { configuredBackoff } from "@/lib/jobs/run-policy";
import { ChainTickFailed, StageRetries, watchChainTick, type ChainTickResult } from "./chain-tick";
import { settlePayoutsTask } from "./settle-payouts";

/**
 * A quiet chain with newHeads over WebSocket (new heads and sandbox tools kick its watcher at once)
 * has one thing left that no block announces: a pending order reaching its deadline. Its watcher
 * sleeps until the first such deadline, at most `quietChainBackstopMs` (a new order with a sooner
 * deadline wakes it). It polls every `quietChainPollMs` instead while an order is past its
 * deadline but not yet judged (the chain has not been seen past it). While its subscription has
 * not announced the head the watcher saw (the subscription is down, or this process has none) it
 * polls at the chain's own interval, as chains without WebSocket do.
 */
export { quietChainBackstopMs };
export const quietChainPollMs = 15_000;
/** The sweeper's longest pause when nothing was due: it sleeps until its next retry falls due, and new money to sweep kicks it at once. */
export const quietSweepMs = 60_000;

/** How long a quiet chain's watcher may sleep, given its first pending deadline. */
export function quietChainSleepMs(deadline: Date | null, now = Date.now()): number {
  if (!deadline) return quietChainBackstopMs;
  const untilDeadline = deadline.getTime() - now;
  // Just past the deadline, so the tick that wakes finds the order due.
  return untilDeadline > 0 ? Math.min(quietChainBackstopMs, Math.max(1_000, untilDeadline + 500)) : quietChainPollMs;
}

/** Whether a tick found anything to do: new blocks, a reset, money by internal call, a transition, a reorg. */
export function tickWasBusy(tick: Pick<ChainTickResult, "scan" | "attributed" | "internalDeposits" | "lifecycle" | "reorg">): boolean {
  return (
    tick.scan.toBlock !== null ||
    tick.scan.reset ||
    tick.attributed.transfers > 0 ||
    tick.internalDeposits > 0 ||
    tick.lifecycle.transitions.length > 0 ||
    tick.reorg.dropped > 0 ||
    tick.reorg.sweepsRequeued > 0
  );
}

/** An order that settles, or money reaching one already settled, may leave money in a deposit address: the sweeper looks at once. */
export function mayLeaveMoneyToSweep(tick: Partial<Pick<ChainTickResult, "attributed" | "internalDeposits" | "lifecycle" | "reorg">>): boolean {
  return (
    (tick.lifecycle?.transitions.length ?? 0) > 0 ||
    (tick.attributed?.transfers ?? 0) > 0 ||
    (tick.internalDeposits ?? 0) > 0 ||
    (tick.reorg?.sweepsRequeued ?? 0) > 0
  );
}

/**
 * How long a chain's watcher sleeps after a tick that succeeded (a failed one sleeps the runtime's
 * backoff, lib/jobs/run-policy.ts): the chain's poll interval, unless the chain is quiet (nothing to
 * do, and a newHeads subscription that has announced every head the watcher saw, so the next block
 * wakes it). A head newHeads never announced means the subscription is down (or this process, or
 * the provider, has none) and no block will wake the watcher: it polls at the chain's own interval,
 * as a chain without WebSocket does, so a payment or a reorg is seen as soon (issue 50). A quiet
 * watcher sleeps until its first pending deadline (`quietChainSleepMs`).
 */
export function chainWatchSleepMs(state: { pollIntervalMs: number; quiet: boolean; firstDeadline: Date | null }, now = Date.now()): number {
  if (!state.quiet) return state.pollIntervalMs;
  return Math.max(state.pollIntervalMs, quietChainSleepMs(state.firstDeadline, now));
}

/**
 * One exclusive task per chain with an RPC URL (an advisory lock per chain: only one instance
 * scans it), the sweeper, and housekeeping. Built when the driver starts, after the sandbox
 * devnet is up, so the catalog knows its URL.
 */
export function chainTasks(): AnyTask[] {
  const chains = listBlockchains().filter((chain) => chain.rpcUrl);
  return [
    ...chains.map((chain) => {
      // The tick after new blocks always checks deposit balances (internal transfers), whatever
      // the watcher's own rate limit on that check says, so a quiet pause never skips a block's check.
      let checkBalancesNext = true;
      // A stage that fails (the scan, say, behind a provider refusing logs) waits out its own backoff
      // while the tick goes on at the chain's interval confirming what is recorded.
      const stageRetries = new StageRetries(configuredBackoff());
      return defineTask({
        name: taskNames.watchChain(chain.slug),
        intervalMs: chain.pollIntervalMs,
        concurrency: "exclusive",
        inngestFunction: taskLoopFunctionId,
        async run(db) {
          const current = findBlockchainById(chain.id)!;
          if (!current.rpcUrl) return;
          let tick: ChainTickResult;
          try {
            tick = await watchChainTick(db, current, chainClient(current), {
              ...(checkBalancesNext ? { checkInternalDeposits: true } : {}),
              waitingStages: stageRetries.waiting(Date.now()),
            });
          } catch (error) {
            if (error instanceof ChainTickFailed) {
              // Only while the chain answers (the confirmation stages ran) does a failed stage wait on its own;
              // a chain that does not answer backs the whole task off, and the next tick tries every stage.
              if (error.retryInMs !== undefined) stageRetries.note({ failures: error.failures, ran: error.done.stagesRan }, Date.now());
              else stageRetries.forget();
              // The stages that ran may have settled orders all the same: the sweeper need not wait for the retry.
              if (mayLeaveMoneyToSweep(error.done)) await kick(taskNames.sweepDeposits);
            }
            throw error;
          }
          stageRetries.note({ failures: [], ran: tick.stagesRan }, Date.now());
          recordChainHead(chain.slug, tick.scan.head);
          const busy = tickWasBusy(tick);
          checkBalancesNext = busy;
          if (mayLeaveMoneyToSweep(tick)) await kick(taskNames.sweepDeposits);
          const quiet = !busy && !!current.wsUrl && headsAnnouncedUpTo(chain.id, tick.scan.head);
          return {
            nextRunInMs: chainWatchSleepMs({
              pollIntervalMs: current.pollIntervalMs,
              quiet,
              firstDeadline: quiet ? await nextPendingDeadline(db, chain.id) : null,
            }),
          };
        },
      });
    }),
    defineTask({
      name: taskNames.sweepDeposits,
      intervalMs: 2_000,
      concurrency: "exclusive",
      async run(db) {
        let worked = false;
        const chains = listBlockchains().filter((c) => c.rpcUrl);
        for (const chain of chains) {
          const result = await sweepConfirmedDeposits(db, chain, chainClient(chain));
          if (result.swept.length > 0 || result.failed.length > 0) worked = true;
        }
        if (worked) return { nextRunInMs: 2_000 };
        // Until the next retry or deferred sweep falls due (a kick brings new ones at once).
        const due = await nextSweepDueAt(
          db,
          chains.map((c) => c.id),
        );
        return { nextRunInMs: due ? Math.min(quietSweepMs, Math.max(1_000, due.getTime() - Date.now())) : quietSweepMs };
      },
    }),
    settlePayoutsTask(),
    defineTask({
      name: taskNames.housekeeping,
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

// The newest head each chain's newHeads subscription announced in this process (process-wide:
// Next may load this module more than once). A quiet watcher sleeps long only while its
// subscription has announced every head it has seen.
const announcedHeads = processSingleton("announcedHeads", () => new Map<number, bigint>());

function headsAnnouncedUpTo(chainId: number, head: bigint): boolean {
  const announced = announcedHeads.get(chainId);
  return announced !== undefined && announced >= head;
}

/**
 * Runs a chain's task at once when a new head arrives over WebSocket (the local driver; sandbox
 * tools kick it themselves), and notes the head, starting with the one the subscription begins at.
 * Returns the unsubscribe.
 */
export function kickOnNewHeads(): () => void {
  const unsubscribers = listBlockchains()
    .filter((chain) => chain.rpcUrl)
    .map((chain) =>
      subscribeNewHeads(
        chain,
        (head) => {
          if (head > (announcedHeads.get(chain.id) ?? -1n)) announcedHeads.set(chain.id, head);
          void kick(taskNames.watchChain(chain.slug));
        },
        {
          emitOnBegin: true,
          // A watcher sleeping quietly on the subscription would sleep through blocks nobody
          // announces: it looks now, and polls at the chain's interval until a head is announced again.
          onDown: () => {
            announcedHeads.delete(chain.id);
            void kick(taskNames.watchChain(chain.slug));
          },
        },
      ),
    );
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
