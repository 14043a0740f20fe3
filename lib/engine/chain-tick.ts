import "server-only";
import type { PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { finalityHead } from "@/lib/chains/finality";
import { scanChain, type ScanOptions, type ScanResult } from "@/lib/chains/scanner";
import type { Db } from "@/lib/db/types";
import { describeError, log } from "@/lib/log";
import { advanceOrders, type LifecycleResult } from "@/lib/orders/lifecycle";
import { backoffDelayMs, configuredBackoff, type BackoffPolicy } from "@/lib/jobs/run-policy";
import { processSingleton } from "@/lib/process-singleton";
import { advanceRefunds } from "@/lib/refunds/advance-refunds";
import { attributeScannedTransfers, transfersOfInterest, type AttributionResult } from "./attribute-transfers";
import { handleChainReset } from "./chain-reset";
import { detectInternalDeposits } from "./internal-deposits";
import { nativeWatch } from "./native-watch";
import { findForkPoint, recheckReorgs, type ReorgRecheckResult } from "./reorg-recheck";

export interface ChainTickResult {
  scan: ScanResult;
  attributed: AttributionResult;
  internalDeposits: number;
  reorg: ReorgRecheckResult;
  lifecycle: LifecycleResult;
  refunds: { confirmed: number; reopened: number };
  /** The stages that ran and succeeded, in order. */
  stagesRan: ChainTickStage[];
}

/** The stages of a tick, in order. */
export type ChainTickStage = "scan" | "attribute" | "internal-deposits" | "head" | "reorg-recheck" | "orders" | "refunds";

/** The stages that retry on their own clock: what is already recorded moves on without them. */
export const stagesWithOwnRetry = ["scan", "attribute", "internal-deposits"] as const satisfies readonly ChainTickStage[];
export type StageWithOwnRetry = (typeof stagesWithOwnRetry)[number];

export interface ChainTickOptions extends Omit<ScanOptions, "onChainReset" | "findForkPoint" | "nativeWatch" | "transfersOfInterest"> {
  /** Run the balance check for internal native deposits this tick (default: at most once per interval). */
  checkInternalDeposits?: boolean;
  /**
   * Stages still waiting out their own backoff (see `StageRetries`), with the error that started it:
   * not run this tick, and reported as failures so the tick still reads as failing.
   */
  waitingStages?: ReadonlyMap<StageWithOwnRetry, { error: unknown; retryAt: number }>;
}

/** A stage skipped because it waits out its own backoff after failing. */
export class StageWaitingToRetry extends Error {
  constructor(
    readonly stage: StageWithOwnRetry,
    readonly retryAt: number,
    cause: unknown,
  ) {
    super(`waiting to retry at ${new Date(retryAt).toISOString()} after: ${String(describeError(cause).error)}`, { cause });
    this.name = "StageWaitingToRetry";
  }
}

/** A tick in which a stage failed: the stages that could run did; `cause` is the first failure. */
export class ChainTickFailed extends Error {
  constructor(
    readonly chain: string,
    readonly failures: Array<{ stage: ChainTickStage; error: unknown }>,
    /** What the stages that ran did. */
    readonly done: Partial<ChainTickResult> & Pick<ChainTickResult, "stagesRan">,
    /**
     * When the confirmations still ran (head, reorg re-check, orders, refunds), the tick's task retries
     * at the chain's poll interval instead of its backoff (lib/jobs/run-policy.ts `retryInMsOf`): the
     * failed stage keeps its own backoff, and what is recorded keeps moving.
     */
    readonly retryInMs?: number,
  ) {
    const first = failures[0]!;
    super(`${chain}: the ${first.stage} stage failed: ${String(describeError(first.error).error)}`, { cause: first.error });
    this.name = "ChainTickFailed";
  }
}

/**
 * Per chain, the stages with their own retry that failed, and when each may run again: 1 s, 2 s, 4 s
 * … up to the runtime's cap, like a task's backoff (lib/jobs/run-policy.ts). A chain's task keeps one
 * across its ticks; a stage that succeeds is forgotten.
 */
export class StageRetries {
  private readonly failing = new Map<StageWithOwnRetry, { failures: number; error: unknown; retryAt: number }>();

  constructor(private readonly policy: BackoffPolicy = configuredBackoff()) {}

  /** The stages still waiting at `now`. */
  waiting(now: number): Map<StageWithOwnRetry, { error: unknown; retryAt: number }> {
    return new Map([...this.failing].filter(([, state]) => state.retryAt > now).map(([stage, { error, retryAt }]) => [stage, { error, retryAt }]));
  }

  /** A tick that failed as a whole (the chain did not answer its head): its task backs off, and every stage is tried again after it. */
  forget(): void {
    this.failing.clear();
  }

  /** After a tick: stages that failed (not merely waited) start or extend their backoff; stages that ran are forgotten. */
  note(outcome: { failures: Array<{ stage: ChainTickStage; error: unknown }>; ran: ChainTickStage[] }, now: number, random = Math.random): void {
    for (const stage of outcome.ran) if (isStageWithOwnRetry(stage)) this.failing.delete(stage);
    for (const { stage, error } of outcome.failures) {
      if (!isStageWithOwnRetry(stage) || error instanceof StageWaitingToRetry) continue;
      const failures = (this.failing.get(stage)?.failures ?? 0) + 1;
      this.failing.set(stage, { failures, error, retryAt: now + backoffDelayMs(failures, this.policy, random) });
    }
  }
}

const isStageWithOwnRetry = (stage: ChainTickStage): stage is StageWithOwnRetry => (stagesWithOwnRetry as readonly string[]).includes(stage);

/** The balance check reads every open native deposit address, so it runs on its own slower clock, not per block. */
function balanceCheckDue(chain: Blockchain, nowMs: number): boolean {
  const last = processSingleton("lastBalanceCheck", () => new Map<number, number>());
  const interval = chain.isDevnet ? 1_000 : 15_000;
  if (nowMs - (last.get(chain.id) ?? 0) < interval) return false;
  last.set(chain.id, nowMs);
  return true;
}

/**
 * One pass for one chain, as stages that each fail on their own (docs/design/chain-engine.md › The
 * tick as stages):
 *
 * 1. scan (lib/chains/scanner.ts): new blocks; the transfers the gateway awaits are recorded with
 *    the cursor (`scanned_transfers`);
 * 2. attribute (./attribute-transfers.ts): what was recorded becomes payments of orders (and
 *    switches methods) and refunds seen paid; then, on its own clock, internal deposits;
 * 3. head, reorg re-check (./reorg-recheck.ts), orders (detect, confirm, expire, fall back), refunds
 *    (confirm, reorg): what is recorded moves on.
 *
 * A failed scan does not stop the rest: what is already recorded is attributed and confirmed all the
 * same, and the next tick scans from the cursor (a retry never replays a scan: each chunk commits
 * with its cursor). A failed attribution leaves its rows for the next pass, and expiry waits for it
 * (lib/chains/queries.ts `findCursorUpdatedAt`). Orders move only after a reorg re-check against the
 * head read in this tick. When a stage failed, the tick throws `ChainTickFailed` after the others
 * ran, so its task retries under the runtime's backoff (lib/jobs/run-policy.ts) — or, when only a
 * stage with its own retry failed (scan, attribute, internal deposits), at the chain's poll interval
 * while that stage waits out its own backoff (`StageRetries`, `waitingStages`).
 */
export async function watchChainTick(
  db: Db,
  chain: Blockchain,
  client: PublicClient = chainClient(chain),
  options: ChainTickOptions = {},
): Promise<ChainTickResult> {
  const now = options.now ?? (() => new Date());
  const failures: Array<{ stage: ChainTickStage; error: unknown }> = [];
  const stagesRan: ChainTickStage[] = [];
  async function stage<T>(name: ChainTickStage, run: () => Promise<T>): Promise<T | undefined> {
    const waiting = isStageWithOwnRetry(name) ? options.waitingStages?.get(name) : undefined;
    if (waiting) {
      failures.push({ stage: name, error: new StageWaitingToRetry(name as StageWithOwnRetry, waiting.retryAt, waiting.error) });
      return undefined;
    }
    try {
      const result = await run();
      stagesRan.push(name);
      return result;
    } catch (error) {
      failures.push({ stage: name, error });
      // The task's supervisor logs the tick's failure (the first stage's); the others are here.
      log.debug("chain tick stage failed", { chain: chain.slug, stage: name, ...describeError(error) });
      return undefined;
    }
  }

  const scan = await stage("scan", () =>
    scanChain(db, chain, client, { ...options, onChainReset: handleChainReset, findForkPoint, nativeWatch, transfersOfInterest }),
  );
  const attributed = await stage("attribute", async () => {
    let total: AttributionResult = { transfers: 0, refunds: 0, remaining: true };
    while (total.remaining) {
      const pass = await attributeScannedTransfers(db, chain, now());
      total = { transfers: total.transfers + pass.transfers, refunds: total.refunds + pass.refunds, remaining: pass.remaining };
    }
    return total;
  });
  // Only up to where the scan got, and only once what it recorded is attributed: a block's top-level
  // transfers must be recorded before its balance is attributed.
  let internalDeposits = 0;
  if (scan && attributed && (options.checkInternalDeposits ?? balanceCheckDue(chain, Date.now()))) {
    internalDeposits = (await stage("internal-deposits", () => detectInternalDeposits(db, chain, client, scan.toBlock ?? scan.head, now()))) ?? 0;
  }
  // The head first: a transfer is confirmed only against blocks re-checked after it was read. (The
  // finalized block in the same round trip: it is only ever clamped to the head.)
  const heads = await stage("head", () =>
    Promise.all([client.getBlockNumber({ cacheTime: 0 }), finalityHead(client, chain, "finalized", BigInt(Number.MAX_SAFE_INTEGER))]),
  );
  let reorg: ReorgRecheckResult | undefined;
  let lifecycle: LifecycleResult | undefined;
  let refunds: { confirmed: number; reopened: number } | undefined;
  if (heads) {
    const [head, finalized] = heads;
    reorg = await stage("reorg-recheck", () => recheckReorgs(db, chain, client, head, now(), finalized));
    if (reorg) lifecycle = await stage("orders", () => advanceOrders(db, chain, client, now(), head));
    refunds = await stage("refunds", () => advanceRefunds(db, chain, client, head, now()));
  }
  if (failures.length > 0 || !scan || !attributed || !reorg || !lifecycle || !refunds) {
    const confirmationsRan = reorg !== undefined && lifecycle !== undefined && refunds !== undefined;
    throw new ChainTickFailed(
      chain.slug,
      failures,
      { scan, attributed, internalDeposits, reorg, lifecycle, refunds, stagesRan },
      confirmationsRan ? chain.pollIntervalMs : undefined,
    );
  }
  return { scan, attributed, internalDeposits, reorg, lifecycle, refunds, stagesRan };
}
