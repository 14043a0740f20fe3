import "server-only";
import {
  formatGwei,
  keccak256,
  parseTransaction,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { SentTransaction } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { observeSentTransaction } from "@/lib/metrics/record";
import { describeError, log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import {
  findInFlight,
  findUnreportedMined,
  highestRecordedSend,
  markRejected,
  markReported,
  recordSentTransaction,
  settleNonce,
} from "./sent-transaction-queries";
import { withNonceLock } from "./nonce-lock";
import { isViemError } from "./viem-errors";
import { isRpcUnreachable, withAccountLock } from "./serial-sender";

/** What to send: a call with an explicit gas limit (the caller estimated it). */
export interface TxRequest {
  to: Address;
  data: Hex;
  gas: bigint;
  value?: bigint;
}

/** Which record a transaction serves: at most one nonce in flight per purpose, resumed rather than sent again. */
export interface TxPurpose {
  purpose: string;
  purposeId: number;
}

export interface SendOptions {
  /** Replace (same nonce, higher fee) a transaction not mined after this long. */
  replaceAfterMs: number;
  /** Stop watching after this long (the transaction stays in flight, resumed by the next call). */
  waitMs: number;
  pollMs?: number;
}

/** The fee the chain asks for is above its ceiling: nothing was sent; try again later. */
export class FeeAboveCeilingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeeAboveCeilingError";
  }
}

/** The transaction was sent (or is the one in flight) but not mined within the wait; it stays in flight. */
export class TransactionStillPendingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransactionStillPendingError";
  }
}

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * EIP-1559 fees for the next block, within the chain's ceiling: max fee = 2 × base fee + tip (room
 * for six full blocks of base-fee rises), lowered to the ceiling when that still covers base fee +
 * tip. When even base fee + tip is above the ceiling, nothing is sent: overpaying a spike for a
 * sweep that can wait is the worse choice.
 */
export async function feesWithinCeiling(client: PublicClient, ceiling: bigint): Promise<Fees> {
  const [block, tip] = await Promise.all([client.getBlock({ blockTag: "latest" }), client.estimateMaxPriorityFeePerGas()]);
  const baseFee = block.baseFeePerGas ?? 0n;
  if (baseFee + tip > ceiling) {
    throw new FeeAboveCeilingError(
      `Waiting: base fee ${formatGwei(baseFee)} gwei + tip ${formatGwei(tip)} gwei is above the ceiling of ${formatGwei(ceiling)} gwei.`,
    );
  }
  const wanted = baseFee * 2n + tip;
  return { maxFeePerGas: wanted > ceiling ? ceiling : wanted, maxPriorityFeePerGas: tip };
}

/** Nodes take a replacement only at least 10% above the fees it replaces (geth, hardhat); 12.5% and one wei more. */
const bump = (fee: bigint) => (fee * 1125n) / 1000n + 1n;

/**
 * Fees that replace `previous`: the bumped fees or the market's, whichever is higher, within the
 * ceiling. Null when a replacement the node would accept does not fit under the ceiling: the
 * transaction waits as it is.
 */
export async function replacementFees(client: PublicClient, previous: Fees, ceiling: bigint): Promise<Fees | null> {
  const bumped = { maxFeePerGas: bump(previous.maxFeePerGas), maxPriorityFeePerGas: bump(previous.maxPriorityFeePerGas) };
  if (bumped.maxFeePerGas > ceiling) return null;
  const market = await feesWithinCeiling(client, ceiling).catch((error: unknown) => {
    if (error instanceof FeeAboveCeilingError) return bumped;
    throw error;
  });
  const maxFeePerGas = market.maxFeePerGas > bumped.maxFeePerGas ? market.maxFeePerGas : bumped.maxFeePerGas;
  const tip = market.maxPriorityFeePerGas > bumped.maxPriorityFeePerGas ? market.maxPriorityFeePerGas : bumped.maxPriorityFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas: tip > maxFeePerGas ? maxFeePerGas : tip };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  return client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (isViemError(error, TransactionReceiptNotFoundError, "TransactionReceiptNotFoundError")) return null;
    throw error;
  });
}

/**
 * When the node holds none of a nonce's transactions (a node restart, an evicted mempool entry),
 * broadcasts the newest again (still validly signed); whether it had to.
 */
async function rebroadcastIfForgotten(chain: Blockchain, client: PublicClient, rows: SentTransaction[]): Promise<boolean> {
  if (await anyKnown(client, rows)) return false;
  const latest = rows[rows.length - 1]!;
  await client.request({ method: "eth_sendRawTransaction", params: [latest.raw as Hex] }).catch((error: unknown) => {
    log.warn("rebroadcast failed", { chain: chain.slug, hash: latest.hash, ...describeError(error) });
  });
  observeSentTransaction(chain.slug, "rebroadcast");
  log.warn("transaction rebroadcast", { chain: chain.slug, hash: latest.hash, nonce: String(latest.nonce) });
  return true;
}

/** Whether the node holds any of a nonce's transactions (in its mempool or a block). */
async function anyKnown(client: PublicClient, rows: Pick<SentTransaction, "hash">[]): Promise<boolean> {
  for (const row of [...rows].reverse()) {
    const known = await client.getTransaction({ hash: row.hash as Hex }).then(
      () => true,
      (error: unknown) => {
        if (isViemError(error, TransactionNotFoundError, "TransactionNotFoundError")) return false;
        throw error;
      },
    );
    if (known) return true;
  }
  return false;
}

/**
 * Sends the gateway's own transactions on a live network with a locally held key, nonces and fees
 * managed here (docs/design/chain-engine.md › The gateway's own transactions):
 *
 * - every signed transaction is recorded (`sent_transactions`) before it is broadcast, so a restart
 *   finds what is in flight: a purpose with a nonce in flight is watched again, never sent anew, and
 *   a new nonce is above both the node's pending count and every nonce on record;
 * - fees are EIP-1559 within the chain's ceiling (`feesWithinCeiling`); above it nothing is sent;
 * - a transaction not mined after `replaceAfterMs` is replaced with the same nonce and higher fees
 *   (within the ceiling), one the node forgot is broadcast again; whichever of a nonce's
 *   transactions is mined is the one recorded `mined`, the others `replaced`.
 *
 * Runs under the account's in-process lock; across instances a new nonce is picked, recorded and
 * broadcast under the key's nonce lock (lib/chains/nonce-lock.ts, docs/adr/0058-one-nonce-picker-per-key.md),
 * since one key sends from several tasks (sweeps, subscription charges and deploys, relays). Throws FeeAboveCeilingError (nothing sent) or
 * TransactionStillPendingError (in flight, resumed by the next call for the same purpose).
 */
export async function sendManaged(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  privateKey: Hex,
  target: TxPurpose,
  build: () => Promise<TxRequest>,
  options: SendOptions,
): Promise<{ hash: Hex; receipt: TransactionReceipt }> {
  if (!chain.rpcUrl) throw new Error(`No RPC URL configured for ${chain.slug}`);
  const account = privateKeyToAccount(privateKey);
  const sender = account.address.toLowerCase();
  return withAccountLock(chain.rpcUrl, account.address, async () => {
    const open = await settleInFlight(db, chain, client, sender);
    const isMine = (row: SentTransaction) => row.purpose === target.purpose && row.purposeId === target.purposeId;
    // Mined while nobody watched it for this purpose (its sender died or stopped watching, or another
    // call settled it): that is the answer, not a new send, unless a reorg has taken it away since.
    const unreported = await findUnreportedMined(db, target.purpose, target.purposeId);
    if (unreported) {
      await markReported(db, unreported.id, new Date());
      const receipt = await receiptOf(client, unreported.hash as Hex);
      if (receipt) return { hash: unreported.hash as Hex, receipt };
    }
    let mine = open.filter(isMine);
    // Another purpose's nonce the node forgot would hold back every later one: broadcast it again first.
    for (const nonce of new Set(open.filter((row) => !isMine(row)).map((row) => row.nonce))) {
      await rebroadcastIfForgotten(
        chain,
        client,
        open.filter((row) => row.nonce === nonce),
      );
    }
    if (mine.length === 0) {
      const request = await build();
      const fees = await feesWithinCeiling(client, chain.maxFeePerGas).catch((error: unknown) => {
        if (error instanceof FeeAboveCeilingError) {
          observeSentTransaction(chain.slug, "fee_waiting");
          log.warn("transaction waits: fee above ceiling", { chain: chain.slug, purpose: target.purpose, purpose_id: target.purposeId, reason: error.message });
        }
        throw error;
      });
      // Picked, recorded and broadcast while no other instance does the same for this key (the
      // account lock above covers this process): two senders never take one nonce.
      const sent = await withNonceLock(db, chain, account.address, async () => {
        const pendingCount = BigInt(await client.getTransactionCount({ address: account.address, blockTag: "pending" }));
        const recorded = await highestRecordedSend(db, chain.chainId, sender);
        // Above every nonce on record (a provider behind the one that took it may count fewer), unless
        // that transaction is gone from the chain altogether (a reorg that did not take it back, a
        // devnet reverted): a nonce above the chain's then would leave a gap nothing fills.
        const aboveRecord =
          recorded !== null && recorded.nonce + 1n > pendingCount && (recorded.status === "in_flight" || (await anyKnown(client, [recorded])));
        const nonce = aboveRecord ? recorded.nonce + 1n : pendingCount;
        return signRecordBroadcast(db, chain, client, account, target, { ...request, nonce, ...fees }, "sent");
      });
      mine = [sent];
    } else {
      log.info("resuming transaction in flight", { chain: chain.slug, purpose: target.purpose, purpose_id: target.purposeId, nonce: String(mine[0]!.nonce) });
    }
    return watch(db, chain, client, account, target, mine, options);
  });
}

type LocalAccount = ReturnType<typeof privateKeyToAccount>;
type SignedRequest = TxRequest & Fees & { nonce: bigint };

async function signRecordBroadcast(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  account: LocalAccount,
  target: TxPurpose,
  tx: SignedRequest,
  event: "sent" | "replaced",
): Promise<SentTransaction> {
  const raw = await account.signTransaction({
    type: "eip1559",
    chainId: chain.chainId,
    nonce: Number(tx.nonce),
    to: tx.to,
    data: tx.data,
    value: tx.value ?? 0n,
    gas: tx.gas,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
  });
  const now = new Date();
  const row = await recordSentTransaction(
    db,
    {
      chainId: chain.chainId,
      sender: account.address.toLowerCase(),
      nonce: tx.nonce,
      hash: keccak256(raw),
      purpose: target.purpose,
      purposeId: target.purposeId,
      maxFeePerGas: tx.maxFeePerGas.toString(),
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString(),
      raw,
      sentAt: now,
    },
    now,
  );
  try {
    await client.request({ method: "eth_sendRawTransaction", params: [raw] });
  } catch (error) {
    // The node answered no (underpriced, out of funds): this one never flies. Unanswered: it may
    // have arrived, so it stays in flight and is watched (and broadcast again) like any other. So
    // does one a provider already holds or has mined: the provider pool may retry a send that
    // timed out on another provider ("already known", "nonce too low"); settling finds its receipt.
    if (!isRpcUnreachable(error) && !mayBeOurs(error)) {
      await markRejected(db, row.id, new Date());
      throw error;
    }
  }
  observeSentTransaction(chain.slug, event);
  log.info(event === "sent" ? "transaction sent" : "transaction replaced", {
    chain: chain.slug,
    purpose: target.purpose,
    purpose_id: target.purposeId,
    nonce: String(tx.nonce),
    hash: row.hash,
    max_fee_gwei: formatGwei(tx.maxFeePerGas),
  });
  return row;
}

/** A refusal that a copy of this very transaction, sent earlier, may have caused. */
function mayBeOurs(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ""}` : String(error);
  return /already known|known transaction|nonce too low|nonce has already been used/i.test(text);
}

/**
 * Settles the sender's in-flight nonces the chain has moved past (one of ours mined: that one
 * `mined`, the rest `replaced`; none of ours: `superseded`). Returns what is still in flight.
 */
async function settleInFlight(db: Db, chain: Blockchain, client: PublicClient, sender: string): Promise<SentTransaction[]> {
  const open: SentTransaction[] = [];
  const inFlight = await findInFlight(db, chain.chainId, sender);
  if (inFlight.length === 0) return open;
  const minedCount = BigInt(await client.getTransactionCount({ address: sender as Address, blockTag: "latest" }));
  for (const nonce of new Set(inFlight.map((row) => row.nonce))) {
    const rows = inFlight.filter((row) => row.nonce === nonce);
    if (nonce >= minedCount) {
      open.push(...rows);
      continue;
    }
    const found = await firstReceipt(client, rows);
    await settleNonce(db, rows, found?.hash ?? null, found?.receipt.blockNumber ?? null, new Date());
  }
  return open;
}

async function firstReceipt(client: PublicClient, rows: SentTransaction[]): Promise<{ hash: string; receipt: TransactionReceipt } | null> {
  for (const row of rows) {
    const receipt = await receiptOf(client, row.hash as Hex);
    if (receipt) return { hash: row.hash, receipt };
  }
  return null;
}

async function watch(db: Db, chain: Blockchain, client: PublicClient, account: LocalAccount, target: TxPurpose, rows: SentTransaction[], options: SendOptions) {
  const started = Date.now();
  const pollMs = options.pollMs ?? Math.min(chain.pollIntervalMs, 1000);
  let feeWaitLogged = false;
  for (;;) {
    const found = await firstReceipt(client, rows);
    if (found) {
      await settleNonce(db, rows, found.hash, found.receipt.blockNumber, new Date());
      await markReported(db, rows.find((row) => row.hash === found.hash)!.id, new Date());
      return { hash: found.hash as Hex, receipt: found.receipt };
    }
    const minedCount = BigInt(await client.getTransactionCount({ address: account.address, blockTag: "latest" }));
    const latest = rows[rows.length - 1]!;
    if (latest.nonce < minedCount) {
      // The nonce moved on without any of ours: a receipt may trail the count by a poll; look once more.
      const late = await firstReceipt(client, rows);
      if (late) continue;
      await settleNonce(db, rows, null, null, new Date());
      throw new Error(`Nonce ${latest.nonce} was used by a transaction not on record; ${target.purpose} ${target.purposeId} must be sent again.`);
    }
    const rebroadcast = await rebroadcastIfForgotten(chain, client, rows);
    if (!rebroadcast && Date.now() - latest.sentAt.getTime() >= options.replaceAfterMs) {
      const previous = { maxFeePerGas: BigInt(latest.maxFeePerGas), maxPriorityFeePerGas: BigInt(latest.maxPriorityFeePerGas) };
      const fees = await replacementFees(client, previous, chain.maxFeePerGas);
      if (fees) {
        const tx = parseTransaction(latest.raw as Hex);
        const request = { to: tx.to!, data: tx.data ?? "0x", gas: tx.gas!, value: tx.value ?? 0n, nonce: latest.nonce, ...fees };
        const replacement = await signRecordBroadcast(db, chain, client, account, target, request, "replaced").catch((error: unknown) => {
          // Refused (the original was mined meanwhile, or the node wants more): the next poll sees which.
          log.warn("replacement refused", { chain: chain.slug, hash: latest.hash, ...describeError(error) });
          return null;
        });
        if (replacement) rows = [...rows, replacement];
        feeWaitLogged = false;
      } else if (!feeWaitLogged) {
        feeWaitLogged = true;
        observeSentTransaction(chain.slug, "fee_waiting");
        log.warn("stuck transaction waits: a replacement would exceed the fee ceiling", {
          chain: chain.slug,
          hash: latest.hash,
          max_fee_gwei: formatGwei(previous.maxFeePerGas),
          ceiling_gwei: formatGwei(chain.maxFeePerGas),
        });
      }
    }
    if (Date.now() - started >= options.waitMs) {
      observeSentTransaction(chain.slug, "still_pending");
      throw new TransactionStillPendingError(`Transaction ${latest.hash} (nonce ${latest.nonce}) not mined yet; it stays in flight and is watched again.`);
    }
    await sleep(pollMs);
  }
}
