import "server-only";
import type { PublicClient } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { finalityHead } from "@/lib/chains/finality";
import { scanChain, type ScanOptions, type ScanResult } from "@/lib/chains/scanner";
import type { Db } from "@/lib/db/types";
import { describeError, log } from "@/lib/log";
import { advanceOrders, type LifecycleResult } from "@/lib/orders/lifecycle";
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
}

export interface ChainTickOptions extends Omit<ScanOptions, "onChainReset" | "findForkPoint" | "nativeWatch" | "transfersOfInterest"> {
  /** Run the balance check for internal native deposits this tick (default: at most once per interval). */
  checkInternalDeposits?: boolean;
}

/** The stages of a tick, in order. */
export type ChainTickStage = "scan" | "attribute" | "internal-deposits" | "head" | "reorg-recheck" | "orders" | "refunds";

/** A tick in which a stage failed: the stages that could run did; `cause` is the first failure. */
export class ChainTickFailed extends Error {
  constructor(
    readonly chain: string,
    readonly failures: Array<{ stage: ChainTickStage; error: unknown }>,
    /** What the stages that ran did. */
    readonly done: Partial<ChainTickResult>,
  ) {
    const first = failures[0]!;
    super(`${chain}: the ${first.stage} stage failed: ${String(describeError(first.error).error)}`, { cause: first.error });
    this.name = "ChainTickFailed";
  }
}

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
 * ran, so its task retries under the runtime's backoff (lib/jobs/run-policy.ts).
 */
export async function watchChainTick(db: Db, chain: Blockchain, client: PublicClient = chainClient(chain), options: ChainTickOptions = {}): Promise<ChainTickResult> {
  const now = options.now ?? (() => new Date());
  const failures: Array<{ stage: ChainTickStage; error: unknown }> = [];
  async function stage<T>(name: ChainTickStage, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      failures.push({ stage: name, error });
      // The task's supervisor logs the tick's failure (the first stage's); the others are here.
      log.debug("chain tick stage failed", { chain: chain.slug, stage: name, ...describeError(error) });
      return undefined;
    }
  }

  const scan = await stage("scan", () => scanChain(db, chain, client, { ...options, onChainReset: handleChainReset, findForkPoint, nativeWatch, transfersOfInterest }));
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
  const heads = await stage("head", () => Promise.all([client.getBlockNumber({ cacheTime: 0 }), finalityHead(client, chain, "finalized", BigInt(Number.MAX_SAFE_INTEGER))]));
  let reorg: ReorgRecheckResult | undefined;
  let lifecycle: LifecycleResult | undefined;
  let refunds: { confirmed: number; reopened: number } | undefined;
  if (heads) {
    const [head, finalized] = heads;
    reorg = await stage("reorg-recheck", () => recheckReorgs(db, chain, client, head, now(), finalized));
    if (reorg) lifecycle = await stage("orders", () => advanceOrders(db, chain, client, now(), head));
    refunds = await stage("refunds", () => advanceRefunds(db, chain, client, head, now()));
  }
  if (failures.length > 0 || !scan || !attributed || !reorg || !lifecycle || !refunds) throw new ChainTickFailed(chain.slug, failures, { scan, attributed, internalDeposits, reorg, lifecycle, refunds });
  return { scan, attributed, internalDeposits, reorg, lifecycle, refunds };
}
