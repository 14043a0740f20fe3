import "server-only";
import { listBlockchains } from "@/lib/chains/catalog";
import { providerHealth } from "@/lib/chains/clients";
import { inFlightByChain } from "@/lib/chains/sent-transaction-queries";
import { env } from "@/lib/env";
import { relayGasSince } from "@/lib/gasless/queries";
import type { DbOrTx } from "@/lib/db/types";
import { withDeadline } from "@/lib/deadline";
import { taskClock, taskStates } from "@/lib/jobs/task-state";
import { taskNames } from "@/lib/jobs/kick";
import { describeError, log } from "@/lib/log";
import { chainHeads, metrics } from "@/lib/metrics/registry";
import { dueDeliveries, scannedBlocks, sweepCountsByStatus } from "./queries";

/** How long the scrape may wait for the database before reporting it down. */
const scrapeDatabaseDeadlineMs = 3_000;

/**
 * Refreshes the gauges, then renders the registry in the Prometheus text format.
 * The database-backed gauges (cursors, due deliveries, sweeps, the gasless budget's use) are read now, so every instance
 * reports the same numbers; a database that does not answer sets gateway_database_up to 0.
 */
export async function renderMetrics(db: DbOrTx): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const now = taskClock.now();
  const chains = listBlockchains().filter((chain) => chain.rpcUrl);
  const tasks = new Map(taskStates().map((state) => [state.task, state]));

  for (const state of tasks.values()) {
    const labels = { task: state.task };
    m.taskErrors.set(labels, state.consecutiveErrors);
    m.taskSuccessAge.set(labels, (now - (state.lastSuccessAt ?? state.startedAt)) / 1000);
    m.taskOverdue.set(labels, now > state.dueBy && !(state.runningSince !== null && now - state.runningSince < state.runDeadlineMs) ? 1 : 0);
    if (state.lastTickDurationMs !== null) m.taskTickDuration.set(labels, state.lastTickDurationMs / 1000);
    m.taskRestarts.set(labels, state.restarts);
  }
  for (const chain of chains) {
    const head = chainHeads.get(chain.slug);
    if (head !== undefined) m.chainHead.set({ chain: chain.slug }, Number(head));
    const watcher = tasks.get(taskNames.watchChain(chain.slug));
    if (watcher?.lastSuccessAt != null) m.chainTickAge.set({ chain: chain.slug }, (now - watcher.lastSuccessAt) / 1000);
  }

  for (const { chain, providers } of providerHealth()) {
    for (const p of providers) {
      const labels = { chain, provider: p.label };
      m.providerRequests.set(labels, p.calls);
      m.providerRateLimited.set(labels, p.rateLimited);
      m.providerErrorRate.set(labels, p.errorRate);
      if (p.latencyMs !== null) m.providerLatency.set(labels, p.latencyMs / 1000);
      if (p.headLag !== null) m.providerHeadLag.set(labels, p.headLag);
      m.providerSetAside.set(labels, p.asideUntil === null ? 0 : 1);
    }
  }

  try {
    const [cursors, deliveries, sweepCounts, inFlight, relayGas] = await withDeadline(
      Promise.all([
        scannedBlocks(db),
        dueDeliveries(db, new Date(now)),
        sweepCountsByStatus(db),
        inFlightByChain(db),
        relayGasSince(db, new Date(now - 60 * 60 * 1000)),
      ]),
      scrapeDatabaseDeadlineMs,
    );
    m.databaseUp.set(1);
    for (const cursor of cursors) {
      const chain = chains.find((c) => c.id === cursor.blockchainId);
      if (!chain) continue;
      m.chainScanned.set({ chain: chain.slug }, Number(cursor.lastBlock));
      const head = chainHeads.get(chain.slug);
      if (head !== undefined) m.chainLag.set({ chain: chain.slug }, Math.max(0, Number(head - cursor.lastBlock)));
    }
    m.deliveriesDue.set(deliveries.due);
    m.oldestDueAge.set(deliveries.oldestDueAt ? Math.max(0, (now - deliveries.oldestDueAt.getTime()) / 1000) : 0);
    for (const [status, n] of Object.entries(sweepCounts)) m.sweeps.set({ status }, n);
    m.gaslessGasLastHour.set(Number(relayGas));
    m.gaslessBudgetUsed.set(env.GASLESS_GAS_PER_HOUR > 0 ? Number(relayGas) / env.GASLESS_GAS_PER_HOUR : 0);
    m.sentInFlight.reset();
    m.sentOldestInFlightAge.reset();
    for (const row of inFlight) {
      m.sentInFlight.set({ chain_id: String(row.chainId) }, row.inFlight);
      m.sentOldestInFlightAge.set({ chain_id: String(row.chainId) }, Math.max(0, (now - row.oldestSentAt.getTime()) / 1000));
    }
  } catch (error) {
    // The scrape still answers (the process metrics and task states are what tells why).
    m.databaseUp.set(0);
    log.debug("metrics: database gauges not refreshed", describeError(error));
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
