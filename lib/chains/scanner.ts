import "server-only";
import { getAddress, parseAbiItem, type Address, type Block, type Hex, type Log, type PublicClient } from "viem";
import type { NewScannedTransfer } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { log } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { logRangeAdvice } from "./log-range";
import { readBalances } from "./balances";
import { checkTransfers, TransferDisputedError, type TransferClaim } from "./transfer-check";
import type { Blockchain } from "./catalog";
import { advanceCursor, findCursor, forgetScannedTransfers, recordScannedTransfers, saveCursor, touchCursor } from "./queries";

export const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/**
 * Where native coin may arrive on a chain (the engine's rule, lib/engine/native-watch.ts): the
 * deposit addresses of open native-coin orders, and whether only whole blocks will do (a native
 * refund to a customer's address is awaited, or too many addresses to read their balances).
 */
export interface NativeWatch {
  addresses: string[];
  wholeBlocks: boolean;
}

export interface ScanOptions {
  /**
   * Of the transfers a chunk holds (every Transfer log of the catalog's tokens, every native
   * transfer in the blocks read), the ones the gateway awaits: to an order's deposit address, or
   * paying a requested refund (the engine's rule, lib/engine/attribute-transfers.ts). Only these
   * are checked against their receipts and recorded.
   */
  transfersOfInterest: (db: Db, chain: Blockchain, transfers: TransferClaim[]) => Promise<TransferClaim[]>;
  /** Most blocks one chunk scans (each chunk commits with its cursor), so a scanner far behind commits progress often. */
  maxBlocksPerTick?: number;
  /**
   * After this long a tick starts no new chunk (default 20 s): what it scanned is kept, and the
   * next tick goes on from there, so a slow provider delays the lifecycle by at most this.
   */
  tickBudgetMs?: number;
  /** Where native coin is awaited (default: everywhere, every block read whole). */
  nativeWatch?: (db: Db, chain: Blockchain) => Promise<NativeWatch>;
  /** Blocks re-scanned when the cursor's block was reorged away (at least; see `findForkPoint`). */
  reorgRewind?: number;
  now?: () => Date;
  /**
   * The chain was replaced under the cursor (new genesis): forget what it held and drop the cursor,
   * in one transaction (the engine's rule, lib/engine/chain-reset.ts). The scan starts afresh after.
   */
  onChainReset: (db: Db, chain: Blockchain, now: Date) => Promise<void>;
  /**
   * The cursor's block was replaced: when what the gateway recorded at or below `rewindTo` (the
   * default rewind) shows the fork deeper, the highest block known to be on both the old chain and
   * the new one (the engine's rule, lib/engine/reorg-recheck.ts); null when nothing does.
   */
  findForkPoint: (db: Db, chain: Blockchain, client: PublicClient, rewindTo: bigint, head: bigint) => Promise<bigint | null>;
}

export interface ScanResult {
  head: bigint;
  fromBlock: bigint | null;
  toBlock: bigint | null;
  /** Transfers recorded for the engine to attribute (`scanned_transfers`). */
  transfers: number;
  reset: boolean;
  /** Chunks committed this tick. */
  chunks: number;
  /** The tick stopped before the head (its budget spent, or a chunk failed after others were kept): the next goes on. */
  partial: boolean;
}

type FullBlock = Block<bigint, true>;

/** The block-range limit each client's provider stated (lib/chains/log-range.ts), so later scans ask within it at once. */
const learnedLogRange = new WeakMap<PublicClient, bigint>();

/** The eth_getLogs block range the client's provider is known to accept (null: none stated yet). */
export function learnedLogRangeOf(client: PublicClient): bigint | null {
  return learnedLogRange.get(client) ?? null;
}

/**
 * eth_getLogs for the catalog's tokens over [from, to], in as few requests as the provider allows:
 * a refused range is narrowed to the limit the refusal states (remembered for the client), to the
 * range it suggests, or else halved; later pieces of the range ask for the span that worked.
 */
export async function getTransferLogs(client: PublicClient, tokens: Hex[], from: bigint, to: bigint): Promise<Log[]> {
  if (tokens.length === 0) return [];
  const logs: Log[] = [];
  let span = to - from + 1n;
  let start = from;
  while (start <= to) {
    const limit = learnedLogRange.get(client);
    if (limit !== undefined && span > limit) span = limit;
    const end = start + span - 1n > to ? to : start + span - 1n;
    try {
      logs.push(...(await client.getLogs({ address: tokens, event: transferEvent, fromBlock: start, toBlock: end })));
      start = end + 1n;
    } catch (error) {
      const advice = logRangeAdvice(error);
      const asked = end - start + 1n;
      if (!advice || asked === 1n) throw error;
      let next = asked / 2n;
      if (advice.maxBlocks !== null && advice.maxBlocks < asked) next = advice.maxBlocks;
      else if (advice.suggestedTo !== null && advice.suggestedTo >= start && advice.suggestedTo < end) next = advice.suggestedTo - start + 1n;
      span = next < 1n ? 1n : next;
      // A block-range limit holds for every later scan; a result count depends on this range's traffic.
      if (advice.kind === "blockRange") learnedLogRange.set(client, span);
    }
  }
  return logs;
}

/** Whether the cursor's block is still there, unchanged: the chain was not replaced, the head reported is merely behind. */
async function isBehindCursor(client: PublicClient, cursor: { lastBlock: bigint; lastBlockHash: string }): Promise<boolean> {
  const block = await client.getBlock({ blockNumber: cursor.lastBlock }).catch(() => null);
  return block?.hash === cursor.lastBlockHash;
}

async function getBlocks(client: PublicClient, from: bigint, to: bigint): Promise<Map<bigint, FullBlock>> {
  const numbers: bigint[] = [];
  for (let n = from; n <= to; n++) numbers.push(n);
  return getBlocksAt(client, numbers);
}

/** Blocks with their transactions, 16 requests at a time (a batch per round with a pooled client). */
async function getBlocksAt(client: PublicClient, numbers: bigint[]): Promise<Map<bigint, FullBlock>> {
  const blocks = new Map<bigint, FullBlock>();
  // bounded parallelism: one request per block, never per order
  for (let i = 0; i < numbers.length; i += 16) {
    const batch = await Promise.all(numbers.slice(i, i + 16).map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
    for (const block of batch) blocks.set(block.number!, block);
  }
  return blocks;
}

type Candidate = TransferClaim;

/** A chain's deposit-address balances at one block, kept between chunks: the next chunk starts where this one ended. */
interface BalanceSnapshot {
  blockNumber: bigint;
  blockHash: string;
  balances: Map<string, bigint>;
}

const balanceSnapshots = processSingleton("nativeBalances", () => new Map<number, BalanceSnapshot>());

/** Errors meaning the provider keeps no state that old (a pruned node): whole blocks instead. */
const noHistoricalState =
  /missing trie node|state (?:is )?not available|historical state|state.*pruned|required historical state|header not found|unknown block/i;

/**
 * The blocks in (lo, hi] where a balance of `addresses` changed, given each one's balance at both
 * ends: halves the range, reading at the middle only the addresses whose balance moved in it (one
 * eth_call for up to 700). About 2 × log2(range) calls per block with a change, whatever the
 * blocks hold. A deposit address of an open order only receives (sweeps come after settlement),
 * so a change is never an increase and a decrease that cancel out.
 */
async function blocksWithBalanceChanges(
  client: PublicClient,
  chain: Blockchain,
  addresses: string[],
  lo: bigint,
  hi: bigint,
  atLo: bigint[],
  atHi: bigint[],
): Promise<bigint[]> {
  const moved = addresses.map((_, i) => i).filter((i) => atLo[i] !== atHi[i]);
  if (moved.length === 0) return [];
  if (hi - lo === 1n) return [hi];
  const mid = (lo + hi) / 2n;
  const subset = moved.map((i) => addresses[i]!);
  const atMid = await readBalances(client, chain, subset as Address[], mid);
  const [left, right] = await Promise.all([
    blocksWithBalanceChanges(
      client,
      chain,
      subset,
      lo,
      mid,
      moved.map((i) => atLo[i]!),
      atMid,
    ),
    blocksWithBalanceChanges(
      client,
      chain,
      subset,
      mid,
      hi,
      atMid,
      moved.map((i) => atHi[i]!),
    ),
  ]);
  return [...left, ...right];
}

/**
 * The blocks of (cursor, to] whose transactions must be read to see native coin arrive, and the
 * balances at `to` to keep for the next chunk. None while no native-coin order is open; the
 * blocks where a watched deposit address's balance changed while few are (balance reads, a
 * bisection); every block when only whole blocks will do, or the provider keeps no state at the
 * cursor's block (null: read them all).
 */
async function nativeBlocks(
  client: PublicClient,
  chain: Blockchain,
  watch: NativeWatch,
  cursor: ScanCursor,
  to: bigint,
  toHash: string,
): Promise<{ blocks: bigint[] | null; snapshot: BalanceSnapshot | null }> {
  if (watch.wholeBlocks) return { blocks: null, snapshot: null };
  if (watch.addresses.length === 0) return { blocks: [], snapshot: null };
  const addresses = watch.addresses;
  try {
    const kept = balanceSnapshots.get(chain.id);
    const usable = kept && kept.blockNumber === cursor.lastBlock && kept.blockHash === cursor.lastBlockHash ? kept : null;
    const unknown = addresses.filter((a) => !usable?.balances.has(a));
    const [readAtCursor, atTo] = await Promise.all([
      unknown.length ? readBalances(client, chain, unknown as Address[], cursor.lastBlock) : Promise.resolve([] as bigint[]),
      readBalances(client, chain, addresses as Address[], to),
    ]);
    const fresh = new Map(unknown.map((a, i) => [a, readAtCursor[i]!]));
    const atCursor = addresses.map((a) => usable?.balances.get(a) ?? fresh.get(a)!);
    const blocks = await blocksWithBalanceChanges(client, chain, addresses, cursor.lastBlock, to, atCursor, atTo);
    return { blocks, snapshot: { blockNumber: to, blockHash: toHash, balances: new Map(addresses.map((a, i) => [a, atTo[i]!])) } };
  } catch (error) {
    if (!noHistoricalState.test(String((error as Error)?.message ?? error))) throw error;
    log.warn("the provider keeps no state that old: reading whole blocks", { chain: chain.slug, from: String(cursor.lastBlock) });
    return { blocks: null, snapshot: null };
  }
}

/**
 * One scanner tick for one chain: checks genesis and the cursor block (devnet restart, reorg),
 * then scans the blocks since the cursor in chunks (at most `maxBlocksPerTick`, and no more than
 * the provider's eth_getLogs range), each committed with its cursor in one database transaction,
 * until the head or the tick's budget: ERC-20 Transfer logs of the catalog's tokens, native
 * transfers where they may be (`nativeWatch`, see `nativeBlocks`), each checked against its
 * receipt (lib/chains/transfer-check.ts) before it is recorded (`scanned_transfers`, for the engine
 * to attribute: lib/engine/attribute-transfers.ts); only the ones `transfersOfInterest` names. A chunk that fails after others were committed ends the
 * tick with what they did (`partial`). A reorg under the cursor moves it back to the fork point
 * (`findForkPoint`) and scans up to where the cursor stood before the tick ends. RPC calls: a few
 * per tick; per chunk one header, one eth_getLogs and, while native-coin orders are open, one or
 * two balance reads; per block with a matched transfer a header and a receipt (two with a second
 * provider); never one per block without one, nor per open order or refund.
 */
export async function scanChain(db: Db, chain: Blockchain, client: PublicClient, options: ScanOptions): Promise<ScanResult> {
  const now = options.now ?? (() => new Date());
  const maxBlocks = BigInt(options.maxBlocksPerTick ?? 500);
  const rewind = BigInt(options.reorgRewind ?? 64);

  let cursor = await findCursor(db, chain.id);
  // One round trip for the three (a batch with a pooled client): head, genesis, the cursor's block.
  const [head, genesis, cursorBlock] = await Promise.all([
    client.getBlockNumber({ cacheTime: 0 }),
    client.getBlock({ blockNumber: 0n }),
    cursor ? client.getBlock({ blockNumber: cursor.lastBlock }).catch(() => null) : Promise.resolve(null),
  ]);
  let reset = false;
  /** Where the cursor stood before a reorg moved it back this tick (-1: it did not). */
  let rescanUntil = -1n;

  // A head below the cursor on the same chain is a provider behind what it already showed, not a new
  // chain: a live network is never replaced; a devnet is when the cursor's block is gone too.
  if (cursor && cursor.genesisHash === genesis.hash && cursor.lastBlock > head && (!chain.isDevnet || (await isBehindCursor(client, cursor)))) {
    return { head, fromBlock: null, toBlock: null, transfers: 0, reset: false, chunks: 0, partial: false };
  }
  if (cursor && (cursor.genesisHash !== genesis.hash || cursor.lastBlock > head)) {
    log.warn("chain was reset under us (new genesis); recovering", { chain: chain.slug });
    await options.onChainReset(db, chain, now());
    cursor = null;
    reset = true;
  }

  if (!cursor) {
    // A new cursor starts a little behind the head (from genesis on a devnet) so nothing sent just before is missed.
    const start = chain.isDevnet ? 0n : head > 20n ? head - 20n : 0n;
    const startBlock = start === 0n ? genesis : await client.getBlock({ blockNumber: start });
    const fresh = { blockchainId: chain.id, genesisHash: genesis.hash!, lastBlock: start, lastBlockHash: startBlock.hash!, updatedAt: now() };
    await saveCursor(db, fresh);
    cursor = { ...fresh };
    // Block 0 holds no transfers worth scanning; start==0 means "scan from block 1".
  } else {
    const atCursor = cursorBlock ?? (await client.getBlock({ blockNumber: cursor.lastBlock }));
    if (atCursor.hash !== cursor.lastBlockHash) {
      rescanUntil = cursor.lastBlock;
      let back = cursor.lastBlock > rewind ? cursor.lastBlock - rewind : 0n;
      // Every block after the common ancestor is scanned again, so a transfer re-included deeper than the rewind is recorded at its new block.
      // (The default rewind's block is read meanwhile: most forks are shallower.)
      const [fork, rewound] = await Promise.all([options.findForkPoint(db, chain, client, back, head), client.getBlock({ blockNumber: back })]);
      if (fork !== null && fork < back) back = fork < 0n ? 0n : fork;
      const backBlock = rewound.number === back ? rewound : await client.getBlock({ blockNumber: back });
      log.warn("reorg at the cursor; rescanning", { chain: chain.slug, from: String(back) });
      const moved = { blockchainId: chain.id, genesisHash: cursor.genesisHash, lastBlock: back, lastBlockHash: backBlock.hash!, updatedAt: now() };
      // What was recorded above the fork and not yet attributed may be gone: the rescan records what the chain holds now.
      await db.transaction(async (tx) => {
        await forgetScannedTransfers(tx, chain.id, back);
        await saveCursor(tx, moved);
      });
      cursor = { ...cursor, lastBlock: back, lastBlockHash: backBlock.hash! };
    }
  }

  const from = cursor.lastBlock + 1n;
  if (from > head) {
    // Nothing new, but the scan is current as of now: expiry waits for this (lib/orders/lifecycle.ts).
    await touchCursor(db, chain.id, now());
    return { head, fromBlock: null, toBlock: null, transfers: 0, reset, chunks: 0, partial: false };
  }
  const budgetEnds = Date.now() + (options.tickBudgetMs ?? 20_000);
  const watch = options.nativeWatch ? await options.nativeWatch(db, chain) : { addresses: [], wholeBlocks: true };
  const chunkEnd = (next: bigint) => {
    const learned = learnedLogRangeOf(client);
    const span = learned !== null && learned < maxBlocks ? learned : maxBlocks;
    return head - next + 1n > span ? next + span - 1n : head;
  };
  let to = chunkEnd(from);
  let scannedTo: bigint | null = null;
  let transfers = 0;
  let chunks = 0;
  let partial = false;
  let scanned: ScanCursor = cursor;
  for (;;) {
    let range: Awaited<ReturnType<typeof scanRange>>;
    try {
      range = await scanRange(db, chain, client, scanned, to, head, now, watch, options.transfersOfInterest);
    } catch (error) {
      // What the chunks before did is kept: the tick ends with it, the next one goes on from there.
      if (chunks === 0) throw error;
      log.warn("chain scan stopped mid-way; the next tick goes on", {
        chain: chain.slug,
        at: String(scanned.lastBlock),
        error: String((error as Error)?.message ?? error),
      });
      partial = true;
      break;
    }
    if (!range.cursor) break;
    chunks += 1;
    transfers += range.transfers;
    scannedTo = to;
    scanned = range.cursor;
    if (to >= head) break;
    // After a rewind every block up to where the cursor stood is scanned again in this tick, so the
    // re-check that follows sees each transfer re-included anywhere after the fork.
    if (Date.now() >= budgetEnds && to >= rescanUntil) {
      partial = true;
      break;
    }
    to = chunkEnd(scanned.lastBlock + 1n);
  }
  return { head, fromBlock: scannedTo === null ? null : from, toBlock: scannedTo, transfers, reset, chunks, partial };
}

interface ScanCursor {
  lastBlock: bigint;
  lastBlockHash: string;
  genesisHash: string;
  updatedAt: Date;
}

/**
 * Records the transfers of interest in blocks (cursor, to] and advances the cursor to `to`, in one
 * database transaction; null cursor when another scanner moved it meanwhile (this work is discarded).
 */
async function scanRange(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  cursor: ScanCursor,
  to: bigint,
  head: bigint,
  now: () => Date,
  watch: NativeWatch,
  transfersOfInterest: ScanOptions["transfersOfInterest"],
): Promise<{ transfers: number; cursor: ScanCursor | null }> {
  const from = cursor.lastBlock + 1n;

  // The chunk's last block first: whatever changes on the chain after this read, either the logs
  // below show it or the cursor keeps this block's hash, which the next tick finds replaced.
  const last = await client.getBlock({ blockNumber: to });
  const tokens = chain.tokens.filter((t) => t.address).map((t) => t.address!) as Hex[];
  const [logs, native] = await Promise.all([getTransferLogs(client, tokens, from, to), nativeBlocks(client, chain, watch, cursor, to, last.hash!)]);
  const bodies = native.blocks === null ? await getBlocks(client, from, to) : await getBlocksAt(client, native.blocks);

  const candidates: Candidate[] = [];
  for (const entry of logs as Log<bigint, number, false, typeof transferEvent>[]) {
    candidates.push({
      txHash: entry.transactionHash!,
      logIndex: entry.logIndex!,
      blockNumber: entry.blockNumber!,
      blockHash: entry.blockHash!,
      from: getAddress(entry.args.from!),
      to: getAddress(entry.args.to!),
      tokenAddress: getAddress(entry.address),
      amount: entry.args.value!,
    });
  }
  for (const block of bodies.values()) {
    for (const tx of block.transactions) {
      if (tx.to && tx.value > 0n) {
        candidates.push({
          txHash: tx.hash,
          logIndex: -1,
          blockNumber: block.number!,
          blockHash: block.hash!,
          from: getAddress(tx.from),
          to: getAddress(tx.to),
          tokenAddress: null,
          amount: tx.value,
        });
      }
    }
  }

  const relevant = await transfersOfInterest(db, chain, candidates);

  // Each relevant transfer's block, as this scan sees it (a header; the bodies read above serve too).
  const blocks = new Map<bigint, { hash: Hex; timestamp: bigint }>();
  blocks.set(to, { hash: last.hash!, timestamp: last.timestamp });
  for (const body of bodies.values()) if (!blocks.has(body.number!)) blocks.set(body.number!, { hash: body.hash!, timestamp: body.timestamp });
  const missing = [...new Set(relevant.map((c) => c.blockNumber))].filter((n) => !blocks.has(n));
  for (const header of await Promise.all(missing.map((blockNumber) => client.getBlock({ blockNumber }))))
    blocks.set(header.number!, { hash: header.hash!, timestamp: header.timestamp });
  // The chain moved between the reads: leave this range for the next tick.
  for (const c of relevant)
    if (blocks.get(c.blockNumber)!.hash !== c.blockHash) throw new Error(`reorg while scanning ${chain.slug} at block ${c.blockNumber}`);

  // Nothing counts before its receipt shows it (and a second provider confirms it, where there is one).
  const checked = await checkTransfers(client, relevant);
  const disputed = relevant.find((c) => checked.verdicts.get(c) === "disputed");
  if (disputed) throw new TransferDisputedError(disputed.blockNumber, `${disputed.txHash} (log ${disputed.logIndex})`);

  const stamp = now();
  const rows: NewScannedTransfer[] = relevant
    .filter((c) => checked.verdicts.get(c) === "confirmed")
    .map((c) => {
      const receipt = checked.receipts.get(c.txHash)!;
      return {
        blockchainId: chain.id,
        txHash: c.txHash,
        logIndex: c.logIndex,
        toAddress: c.to,
        blockNumber: c.blockNumber,
        blockHash: blocks.get(c.blockNumber)!.hash,
        blockTimestamp: new Date(Number(blocks.get(c.blockNumber)!.timestamp) * 1000),
        fromAddress: c.from,
        tokenAddress: c.tokenAddress,
        amount: c.amount.toString(),
        gasUsed: receipt.gasUsed,
        gasPrice: receipt.effectiveGasPrice.toString(),
        reverted: receipt.status !== "success",
        scannedAt: stamp,
      };
    });

  // The cursor's time says "the chain was seen up to now", which expiry waits for: a scanner still
  // catching up has not seen the blocks mined before a deadline yet, so it keeps the old time.
  const caughtUp = to === head;
  const advanced = await db.transaction(async (tx) => {
    const moved = await advanceCursor(
      tx,
      chain.id,
      { lastBlock: cursor.lastBlock, genesisHash: cursor.genesisHash },
      { lastBlock: to, lastBlockHash: last.hash!, updatedAt: caughtUp ? stamp : cursor.updatedAt },
    );
    if (!moved) return null;
    await recordScannedTransfers(tx, rows);
    return rows.length;
  });
  if (advanced !== null && native.snapshot) balanceSnapshots.set(chain.id, native.snapshot);
  return {
    transfers: advanced ?? 0,
    cursor:
      advanced !== null ? { lastBlock: to, lastBlockHash: last.hash!, genesisHash: cursor.genesisHash, updatedAt: caughtUp ? stamp : cursor.updatedAt } : null,
  };
}
