import "server-only";
import type { PublicClient } from "viem";
import type { Db } from "@/lib/db/types";
import { advanceOrders, type LifecycleResult } from "@/lib/orders/lifecycle";
import { advanceRefunds } from "@/lib/refunds/advance-refunds";
import { processSingleton } from "@/lib/process-singleton";
import type { Blockchain } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { finalityHead } from "@/lib/chains/finality";
import { detectInternalDeposits } from "@/lib/chains/internal-deposits";
import { scanChain, type ScanOptions, type ScanResult } from "@/lib/chains/scanner";
import { handleChainReset } from "./chain-reset";
import { nativeWatch } from "./native-watch";
import { findForkPoint, recheckReorgs, type ReorgRecheckResult } from "./reorg-recheck";

export interface ChainTickResult {
  scan: ScanResult;
  internalDeposits: number;
  reorg: ReorgRecheckResult;
  lifecycle: LifecycleResult;
  refunds: { confirmed: number; reopened: number };
}

export interface ChainTickOptions extends Omit<ScanOptions, "onChainReset" | "findForkPoint" | "nativeWatch"> {
  /** Run the balance check for internal native deposits this tick (default: at most once per interval). */
  checkInternalDeposits?: boolean;
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
 * One pass for one chain: scan new blocks, catch internal deposits, re-check what a reorg may have
 * taken (lib/engine/reorg-recheck.ts), then move orders (detect, confirm, expire, fall back) and
 * refunds (confirm, reorg).
 */
export async function watchChainTick(db: Db, chain: Blockchain, client: PublicClient = chainClient(chain), options: ChainTickOptions = {}): Promise<ChainTickResult> {
  const now = options.now ?? (() => new Date());
  const scan = await scanChain(db, chain, client, { ...options, onChainReset: handleChainReset, findForkPoint, nativeWatch });
  const checkInternal = options.checkInternalDeposits ?? balanceCheckDue(chain, Date.now());
  // Only up to where the scan got: a block's top-level transfers must be recorded before its balance is attributed.
  const scannedTo = scan.toBlock ?? scan.head;
  const internalDeposits = checkInternal ? await detectInternalDeposits(db, chain, client, scannedTo, now()) : 0;
  // The head first: a transfer is confirmed only against blocks re-checked after it was read. (The
  // finalized block in the same round trip: it is only ever clamped to the head.)
  const [head, finalized] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), finalityHead(client, chain, "finalized", BigInt(Number.MAX_SAFE_INTEGER))]);
  const reorg = await recheckReorgs(db, chain, client, head, now(), finalized);
  const lifecycle = await advanceOrders(db, chain, client, now(), head);
  const refunds = await advanceRefunds(db, chain, client, scan.head, now());
  return { scan, internalDeposits, reorg, lifecycle, refunds };
}
