import "server-only";
import { getAddress, parseAbiItem, type Block, type Hex, type Log, type PublicClient } from "viem";
import type { NewTransaction, PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import { advanceCursor, armSweep, findCursor, saveCursor, touchCursor } from "./queries";
import { findOrdersByDepositAddresses } from "@/lib/orders/queries";
import { upsertTransfers } from "@/lib/transactions/queries";
import { matchRefunds } from "@/lib/refunds/match-refunds";
import { findRequestedRefundsTo, markRefundSeen } from "@/lib/refunds/queries";

const settledStatuses = new Set(["confirmed", "failed", "expired"]);

export const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

export interface ScanOptions {
  /** Most blocks one tick scans, so a scanner far behind still commits progress often. */
  maxBlocksPerTick?: number;
  /** Blocks per eth_getLogs request; halved when the provider refuses a range. */
  chunkSize?: number;
  /** Blocks re-scanned when the cursor's block was reorged away. */
  reorgRewind?: number;
  now?: () => Date;
  /**
   * The chain was replaced under the cursor (new genesis): forget what it held and drop the cursor,
   * in one transaction (the engine's rule, lib/engine/chain-reset.ts). The scan starts afresh after.
   */
  onChainReset: (db: Db, chain: Blockchain, now: Date) => Promise<void>;
}

export interface ScanResult {
  head: bigint;
  fromBlock: bigint | null;
  toBlock: bigint | null;
  transfers: number;
  reset: boolean;
}

type FullBlock = Block<bigint, true>;

/** Rejections from providers that mean "ask for fewer blocks" rather than "broken". */
function isRangeRefusal(error: unknown): boolean {
  const text = String((error as { details?: string; message?: string })?.details ?? (error as Error)?.message ?? error).toLowerCase();
  return /range|too many|limit|exceed|10000|response size|block range/.test(text);
}

/** eth_getLogs for the catalog's tokens over [from, to], splitting the range when the provider refuses it. */
export async function getTransferLogs(client: PublicClient, tokens: Hex[], from: bigint, to: bigint): Promise<Log[]> {
  if (tokens.length === 0) return [];
  try {
    return await client.getLogs({ address: tokens, event: transferEvent, fromBlock: from, toBlock: to });
  } catch (error) {
    if (from === to || !isRangeRefusal(error)) throw error;
    const mid = from + (to - from) / 2n;
    return [...(await getTransferLogs(client, tokens, from, mid)), ...(await getTransferLogs(client, tokens, mid + 1n, to))];
  }
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
 * database transaction; transfers that pay a requested refund (lib/refunds/) mark it pending. RPC
 * calls: a few per tick, one per block, one per chunk of logs, and one receipt per matched
 * transaction: never one per open order or refund.
 */
export async function scanChain(db: Db, chain: Blockchain, client: PublicClient, options: ScanOptions): Promise<ScanResult> {
  const now = options.now ?? (() => new Date());
  const maxBlocks = BigInt(options.maxBlocksPerTick ?? 500);
  const chunkSize = BigInt(options.chunkSize ?? 100);
  const rewind = BigInt(options.reorgRewind ?? 64);

  const head = await client.getBlockNumber({ cacheTime: 0 });
  const genesis = await client.getBlock({ blockNumber: 0n });
  let cursor = await findCursor(db, chain.id);
  let reset = false;

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
      const back = cursor.lastBlock > rewind ? cursor.lastBlock - rewind : 0n;
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
  const to = head - from + 1n > maxBlocks ? from + maxBlocks - 1n : head;

  const tokens = chain.tokens.filter((t) => t.address).map((t) => t.address!) as Hex[];
  const candidates: Candidate[] = [];
  const blocks = new Map<bigint, FullBlock>();
  for (let start = from; start <= to; start += chunkSize) {
    const end = start + chunkSize - 1n > to ? to : start + chunkSize - 1n;
    const [logs, chunkBlocks] = await Promise.all([getTransferLogs(client, tokens, start, end), getBlocks(client, start, end)]);
    for (const [n, b] of chunkBlocks) blocks.set(n, b);
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
  const ordersById = new Map(orders.map((o) => [o.id, o]));
  const matched = candidates.filter((c) => byAddress.has(c.to));
  // Refunds the merchants sent from their wallets: one indexed query by recipient, like the deposit match above.
  const refundPairs = matchRefunds(await findRequestedRefundsTo(db, chain.id, recipients), candidates);

  const receipts = new Map<Hex, Awaited<ReturnType<PublicClient["getTransactionReceipt"]>>>();
  for (const hash of new Set([...matched, ...refundPairs.map((p) => p.transfer as Candidate)].map((c) => c.txHash))) {
    receipts.set(hash, await client.getTransactionReceipt({ hash }));
  }

  const stamp = now();
  const rows: NewTransaction[] = matched.map((c) => {
    const order = byAddress.get(c.to)!;
    const block = blocks.get(c.blockNumber)!;
    const receipt = receipts.get(c.txHash)!;
    const blockTimestamp = new Date(Number(block.timestamp) * 1000);
    const reverted = receipt.status !== "success";
    return {
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
      counted: !reverted && countsToward(order, c.tokenAddress, blockTimestamp),
      createdAt: stamp,
      updatedAt: stamp,
    };
  });

  const last = blocks.get(to)!;
  // The cursor's time says "the chain was seen up to now", which expiry waits for: a scanner still
  // catching up has not seen the blocks mined before a deadline yet, so it keeps the old time.
  const caughtUp = to === head;
  const advanced = await db.transaction(async (tx) => {
    const moved = await advanceCursor(tx, chain.id, { lastBlock: cursor.lastBlock, genesisHash: cursor.genesisHash }, { lastBlock: to, lastBlockHash: last.hash!, updatedAt: caughtUp ? stamp : cursor.updatedAt });
    if (!moved) return false;
    await upsertTransfers(tx, rows);
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
    for (const orderId of new Set(rows.filter((r) => r.status !== "failed" && settledStatuses.has(ordersById.get(r.paymentOrderId!)!.status)).map((r) => r.paymentOrderId!))) {
      await armSweep(tx, orderId, chain.id, stamp);
    }
    return true;
  });
  return { head, fromBlock: from, toBlock: to, transfers: advanced ? rows.length : 0, reset };
}

/** The catalog symbol of a transfer's asset (tokens outside the catalog never reach here: logs are filtered by address). */
function currencyOf(chain: Blockchain, tokenAddress: string | null): string {
  if (!tokenAddress) return chain.nativeCurrency.symbol;
  return chain.tokens.find((t) => t.address === tokenAddress)?.symbol ?? "UNKNOWN";
}

/** A transfer counts toward its order when it is the order's asset and arrived by the order's expiry. */
export function countsToward(order: Pick<PaymentOrder, "tokenAddress" | "expiresAt">, tokenAddress: string | null, blockTimestamp: Date): boolean {
  const sameAsset = (order.tokenAddress ?? null)?.toLowerCase() === tokenAddress?.toLowerCase();
  return sameAsset && blockTimestamp.getTime() <= order.expiresAt.getTime();
}
