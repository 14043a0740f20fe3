import "server-only";
import { getAddress, parseAbiItem, type Block, type Hex, type Log, type PublicClient } from "viem";
import type { NewTransaction, PaymentOrder } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import { log } from "@/lib/log";
import { logRangeAdvice } from "./log-range";
import type { Blockchain } from "./catalog";
import { advanceCursor, armSweep, findCursor, refreshPendingReceived, saveCursor, touchCursor } from "./queries";
import { findOrdersByDepositAddresses, findOrdersByMethodAddresses, switchOrderMethod } from "@/lib/orders/queries";
import { acceptedMethodsOf, findAcceptedMethod, hasPaymentArrived, isCurrentMethod } from "@/lib/orders/payment-methods";
import { upsertTransfers } from "@/lib/transactions/queries";
import { matchRefunds } from "@/lib/refunds/match-refunds";
import { findRequestedRefundsTo, markRefundSeen } from "@/lib/refunds/queries";

const settledStatuses = new Set(["confirmed", "failed", "expired"]);

export const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

export interface ScanOptions {
  /** Most blocks one tick scans, so a scanner far behind still commits progress often. */
  maxBlocksPerTick?: number;
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
  transfers: number;
  reset: boolean;
}

type FullBlock = Block<bigint, true>;

/** The block-range limit each client's provider stated (lib/chains/log-range.ts), so later scans ask within it at once. */
const learnedLogRange = new WeakMap<PublicClient, bigint>();

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
  const blocks = new Map<bigint, FullBlock>();
  // bounded parallelism: one request per block, never per order
  for (let i = 0; i < numbers.length; i += 16) {
    const batch = await Promise.all(numbers.slice(i, i + 16).map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
    for (const block of batch) blocks.set(block.number!, block);
  }
  return blocks;
}

interface Candidate {
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  from: string;
  to: string;
  tokenAddress: string | null;
  amount: bigint;
}

/**
 * One scanner tick for one chain: checks genesis and the cursor block (devnet restart, reorg),
 * then reads ERC-20 Transfer logs of the catalog's tokens and native transfers for the blocks
 * since the cursor, records those to deposit addresses, and advances the cursor in the same
 * database transaction; transfers that pay a requested refund (lib/refunds/) mark it pending. A
 * reorg under the cursor moves it back to the fork point (`findForkPoint`) and scans, in chunks of
 * `maxBlocksPerTick`, up to where the cursor stood before the tick ends. RPC
 * calls: a few per tick, one per block, one per chunk of logs, and one receipt per matched
 * transaction: never one per open order or refund.
 */
export async function scanChain(db: Db, chain: Blockchain, client: PublicClient, options: ScanOptions): Promise<ScanResult> {
  const now = options.now ?? (() => new Date());
  const maxBlocks = BigInt(options.maxBlocksPerTick ?? 500);
  const rewind = BigInt(options.reorgRewind ?? 64);

  const head = await client.getBlockNumber({ cacheTime: 0 });
  const genesis = await client.getBlock({ blockNumber: 0n });
  let cursor = await findCursor(db, chain.id);
  let reset = false;
  /** Where the cursor stood before a reorg moved it back this tick (-1: it did not). */
  let rescanUntil = -1n;

  // A head below the cursor on the same chain is a provider behind what it already showed, not a new
  // chain: a live network is never replaced; a devnet is when the cursor's block is gone too.
  if (cursor && cursor.genesisHash === genesis.hash && cursor.lastBlock > head && (!chain.isDevnet || (await isBehindCursor(client, cursor)))) {
    return { head, fromBlock: null, toBlock: null, transfers: 0, reset: false };
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
    const atCursor = await client.getBlock({ blockNumber: cursor.lastBlock });
    if (atCursor.hash !== cursor.lastBlockHash) {
      rescanUntil = cursor.lastBlock;
      let back = cursor.lastBlock > rewind ? cursor.lastBlock - rewind : 0n;
      // Every block after the common ancestor is scanned again, so a transfer re-included deeper than the rewind is recorded at its new block.
      const fork = await options.findForkPoint(db, chain, client, back, head);
      if (fork !== null && fork < back) back = fork < 0n ? 0n : fork;
      const backBlock = await client.getBlock({ blockNumber: back });
      log.warn("reorg at the cursor; rescanning", { chain: chain.slug, from: String(back) });
      await saveCursor(db, { blockchainId: chain.id, genesisHash: cursor.genesisHash, lastBlock: back, lastBlockHash: backBlock.hash!, updatedAt: now() });
      cursor = { ...cursor, lastBlock: back, lastBlockHash: backBlock.hash! };
    }
  }

  const from = cursor.lastBlock + 1n;
  if (from > head) {
    // Nothing new, but the scan is current as of now: expiry waits for this (lib/orders/lifecycle.ts).
    await touchCursor(db, chain.id, now());
    return { head, fromBlock: null, toBlock: null, transfers: 0, reset };
  }
  let to = head - from + 1n > maxBlocks ? from + maxBlocks - 1n : head;
  let transfers = 0;
  let scanned: ScanCursor = cursor;
  for (;;) {
    const range = await scanRange(db, chain, client, scanned, to, head, now);
    transfers += range.transfers;
    // After a rewind every block up to where the cursor stood is scanned again in this tick (in
    // chunks), so the re-check that follows sees each transfer re-included anywhere after the fork.
    if (!range.cursor || to >= head || to >= rescanUntil) break;
    scanned = range.cursor;
    const next = scanned.lastBlock + 1n;
    to = head - next + 1n > maxBlocks ? next + maxBlocks - 1n : head;
  }
  return { head, fromBlock: from, toBlock: to, transfers, reset };
}

interface ScanCursor {
  lastBlock: bigint;
  genesisHash: string;
  updatedAt: Date;
}

/**
 * Records the transfers of blocks (cursor, to] and advances the cursor to `to`, in one database
 * transaction; null cursor when another scanner moved it meanwhile (this work is discarded).
 */
async function scanRange(db: Db, chain: Blockchain, client: PublicClient, cursor: ScanCursor, to: bigint, head: bigint, now: () => Date): Promise<{ transfers: number; cursor: ScanCursor | null }> {
  const from = cursor.lastBlock + 1n;

  const tokens = chain.tokens.filter((t) => t.address).map((t) => t.address!) as Hex[];
  const candidates: Candidate[] = [];
  // Logs over the whole range (split only where the provider refuses it), blocks alongside.
  const [logs, blocks] = await Promise.all([getTransferLogs(client, tokens, from, to), getBlocks(client, from, to)]);
  for (const entry of logs as Log<bigint, number, false, typeof transferEvent>[]) {
    const block = blocks.get(entry.blockNumber!);
    // The chain moved between the two reads: leave this range for the next tick.
    if (!block || block.hash !== entry.blockHash) throw new Error(`reorg while scanning ${chain.slug} at block ${entry.blockNumber}`);
    candidates.push({
      txHash: entry.transactionHash!,
      logIndex: entry.logIndex!,
      blockNumber: entry.blockNumber!,
      from: getAddress(entry.args.from!),
      to: getAddress(entry.args.to!),
      tokenAddress: getAddress(entry.address),
      amount: entry.args.value!,
    });
  }
  for (const block of blocks.values()) {
    for (const tx of block.transactions) {
      if (tx.to && tx.value > 0n) {
        candidates.push({ txHash: tx.hash, logIndex: -1, blockNumber: block.number!, from: getAddress(tx.from), to: getAddress(tx.to), tokenAddress: null, amount: tx.value });
      }
    }
  }

  const recipients = [...new Set(candidates.map((c) => c.to))];
  const orders = await findOrdersByDepositAddresses(db, chain.id, recipients);
  const byAddress = new Map(orders.map((o) => [o.receivingAddress, o]));
  // Orders with several methods whose deposit address on this chain is not the chosen method's (issue 27).
  const byMethodAddress = new Map<string, PaymentOrder>();
  for (const order of await findOrdersByMethodAddresses(db, chain.id, recipients.filter((a) => !byAddress.has(a)))) {
    const address = acceptedMethodsOf(order).find((m) => m.blockchainId === chain.id)?.receivingAddress;
    if (address) byMethodAddress.set(getAddress(address), order);
  }
  const ownerOf = (c: Candidate) => byAddress.get(c.to) ?? byMethodAddress.get(c.to);
  const matched = candidates.filter((c) => ownerOf(c) !== undefined).sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex);
  // Refunds the merchants sent from their wallets: one indexed query by recipient, like the deposit match above.
  const refundPairs = matchRefunds(await findRequestedRefundsTo(db, chain.id, recipients), candidates);

  const receipts = new Map<Hex, Awaited<ReturnType<PublicClient["getTransactionReceipt"]>>>();
  for (const hash of new Set([...matched, ...refundPairs.map((p) => p.transfer as Candidate)].map((c) => c.txHash))) {
    receipts.set(hash, await client.getTransactionReceipt({ hash }));
  }

  const stamp = now();
  /**
   * The transfers as rows, in block order, inside the scan's transaction: money by an accepted
   * method the order has not chosen, while no money has arrived, first makes that method the
   * order's (then it is fixed: lib/orders/queries.ts `switchOrderMethod`).
   */
  const buildRows = async (tx: DbOrTx) => {
    const current = new Map<number, PaymentOrder>();
    const rows: NewTransaction[] = [];
    for (const c of matched) {
      const found = ownerOf(c)!;
      let order = current.get(found.id) ?? found;
      const block = blocks.get(c.blockNumber)!;
      const receipt = receipts.get(c.txHash)!;
      const blockTimestamp = new Date(Number(block.timestamp) * 1000);
      const reverted = receipt.status !== "success";
      if (!reverted && order.acceptedMethods && !isCurrentMethod(order, { blockchainId: chain.id, tokenAddress: c.tokenAddress }) && !hasPaymentArrived(order)) {
        const method = findAcceptedMethod(order, chain.id, c.to, c.tokenAddress);
        const switched = method && countsToward({ ...order, blockchainId: chain.id, tokenAddress: c.tokenAddress }, chain.id, c.tokenAddress, blockTimestamp) ? await switchOrderMethod(tx, order.id, method, stamp) : null;
        if (switched) order = switched;
      }
      const counted = !reverted && countsToward(order, chain.id, c.tokenAddress, blockTimestamp);
      // A counted transfer fixes the method for the rest of this batch too (the database learns of it with these rows).
      current.set(order.id, counted ? { ...order, amountReceived: (BigInt(order.amountReceived) + c.amount).toString() } : order);
      rows.push({
        blockchainId: chain.id,
        txHash: c.txHash,
        logIndex: c.logIndex,
        blockNumber: c.blockNumber,
        blockHash: block.hash!,
        blockTimestamp,
        fromAddress: c.from,
        toAddress: c.to,
        tokenAddress: c.tokenAddress,
        currency: currencyOf(chain, c.tokenAddress),
        amount: c.amount.toString(),
        gasUsed: receipt.gasUsed,
        gasPrice: receipt.effectiveGasPrice.toString(),
        fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
        status: reverted ? "failed" : "pending",
        paymentOrderId: order.id,
        merchantId: order.merchantId,
        counted,
        createdAt: stamp,
        updatedAt: stamp,
      });
    }
    return { rows, orders: current };
  };

  const last = blocks.get(to)!;
  // The cursor's time says "the chain was seen up to now", which expiry waits for: a scanner still
  // catching up has not seen the blocks mined before a deadline yet, so it keeps the old time.
  const caughtUp = to === head;
  const advanced = await db.transaction(async (tx) => {
    const moved = await advanceCursor(tx, chain.id, { lastBlock: cursor.lastBlock, genesisHash: cursor.genesisHash }, { lastBlock: to, lastBlockHash: last.hash!, updatedAt: caughtUp ? stamp : cursor.updatedAt });
    if (!moved) return null;
    const { rows, orders: seen } = await buildRows(tx);
    await upsertTransfers(tx, rows);
    // A pending order's amount_received follows its counted transfers at once: the lifecycle finds the orders to judge by it.
    await refreshPendingReceived(tx, [...new Set(rows.filter((r) => r.counted).map((r) => r.paymentOrderId!))], stamp);
    for (const { refund, transfer } of refundPairs) {
      const block = blocks.get(transfer.blockNumber)!;
      const reverted = receipts.get(transfer.txHash as Hex)!.status !== "success";
      await markRefundSeen(tx, refund.id, {
        status: reverted ? "failed" : "pending",
        txHash: transfer.txHash,
        logIndex: transfer.logIndex,
        blockNumber: transfer.blockNumber,
        blockHash: block.hash!,
        updatedAt: stamp,
      });
    }
    // Money reaching an order that is already settled (late, another asset, more after a sweep) is flushed to the merchant too.
    // (Only money at the order's own deposit address: the sweeper flushes that one.)
    const settledHere = rows.filter((r) => {
      const order = seen.get(r.paymentOrderId!)!;
      return r.status !== "failed" && settledStatuses.has(order.status) && order.blockchainId === chain.id && order.receivingAddress === r.toAddress;
    });
    for (const orderId of new Set(settledHere.map((r) => r.paymentOrderId!))) {
      await armSweep(tx, orderId, chain.id, stamp);
    }
    return rows.length;
  });
  return { transfers: advanced ?? 0, cursor: advanced !== null ? { lastBlock: to, genesisHash: cursor.genesisHash, updatedAt: caughtUp ? stamp : cursor.updatedAt } : null };
}

/** The catalog symbol of a transfer's asset (tokens outside the catalog never reach here: logs are filtered by address). */
function currencyOf(chain: Blockchain, tokenAddress: string | null): string {
  if (!tokenAddress) return chain.nativeCurrency.symbol;
  return chain.tokens.find((t) => t.address === tokenAddress)?.symbol ?? "UNKNOWN";
}

/** A transfer counts toward its order when it is the order's asset on the order's chain and arrived by the order's expiry. */
export function countsToward(order: Pick<PaymentOrder, "blockchainId" | "tokenAddress" | "expiresAt" | "status">, blockchainId: number, tokenAddress: string | null, blockTimestamp: Date): boolean {
  // (On a sandbox every chain is the one devnet, where a token has the same address on all of them.)
  const sameAsset = order.blockchainId === blockchainId && (order.tokenAddress ?? null)?.toLowerCase() === tokenAddress?.toLowerCase();
  // Once the expiry is announced, money is late whatever its block says: block times are whole
  // seconds (a transfer a moment after the deadline can carry its second) and a block can be seen
  // after the scan that judged the deadline. Counting it would leave it on an expired order for ever.
  if (order.status === "expired") return false;
  return sameAsset && blockTimestamp.getTime() <= order.expiresAt.getTime();
}
