import "server-only";
import { formatTransactionReceipt, pad, type Hex, type PublicClient, type RpcTransactionReceipt, type TransactionReceipt } from "viem";
import { log } from "@/lib/log";
import { poolOf } from "./provider-pool";

/** A transfer the scanner read (a Transfer log, or a top-level native transaction: logIndex -1) before it counts. */
export interface TransferClaim {
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hex;
  from: string;
  to: string;
  /** null: the chain's native coin. */
  tokenAddress: string | null;
  amount: bigint;
}

export type ClaimVerdict = "confirmed" | "refuted" | "disputed";

export interface ClaimCheck {
  /** The receipt of each transaction whose claims were confirmed. */
  receipts: Map<Hex, TransactionReceipt>;
  verdicts: Map<TransferClaim, ClaimVerdict>;
}

/** Thrown when providers disagree about a transfer: the range is scanned again later. */
export class TransferDisputedError extends Error {
  constructor(
    readonly blockNumber: bigint,
    reason: string,
  ) {
    super(`providers disagree about a transfer at block ${blockNumber}: ${reason}`);
    this.name = "TransferDisputedError";
  }
}

const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

type RpcTransaction = { hash: Hex; blockHash: Hex | null; from: string; to: string | null; value: Hex } | null;

/** Whether a receipt (and, for native coin, the transaction) as one provider answered it shows the claimed transfer. */
function supports(claim: TransferClaim, receipt: RpcTransactionReceipt | null, transaction: RpcTransaction | undefined): boolean {
  if (!receipt || !same(receipt.blockHash, claim.blockHash) || BigInt(receipt.blockNumber) !== claim.blockNumber) return false;
  if (claim.tokenAddress === null) {
    // A top-level native transfer: the receipt names the same sender and recipient; the value is the transaction's.
    if (!same(receipt.from, claim.from) || !same(receipt.to, claim.to)) return false;
    return (
      transaction === undefined ||
      (transaction !== null && same(transaction.blockHash, claim.blockHash) && same(transaction.to, claim.to) && BigInt(transaction.value) === claim.amount)
    );
  }
  // A Transfer log: the receipt's own logs hold it, at the same index, with the same token, parties and amount.
  return receipt.logs.some(
    (entry) =>
      Number(entry.logIndex) === claim.logIndex &&
      same(entry.address, claim.tokenAddress) &&
      same(entry.topics[0], transferTopic) &&
      same(entry.topics[1], pad(claim.from as Hex)) &&
      same(entry.topics[2], pad(claim.to as Hex)) &&
      BigInt(entry.data === "0x" ? 0 : entry.data) === claim.amount,
  );
}

/**
 * Checks transfers before they count (docs/design/chain-engine.md › Providers and trust): each
 * claim must be in its transaction's receipt (a log at its index with the same token, parties and
 * amount; a native one's receipt names the same parties), in the block the scan read. Where the
 * client's pool has two or more providers, a provider other than the one that gave the receipt
 * confirms it too (and a native transfer's value). Both agree: confirmed. Neither shows it (a log
 * the receipts do not hold): refuted, never recorded. One does and the other does not: disputed,
 * and the caller scans the range again later. With one provider, or when no other answers within
 * `secondOpinionWaitMs` (all of them down: payments go on being confirmed, logged), its receipt
 * decides: a provider consistent in its lies is trusted then (there is nothing to compare with).
 * One receipt call per transaction, two with a second provider (and one transaction read per
 * native transfer there), 16 transactions at once.
 */
export async function checkTransfers(client: PublicClient, claims: TransferClaim[], secondOpinionWaitMs = 2_000): Promise<ClaimCheck> {
  const pool = poolOf(client);
  const byTx = new Map<Hex, TransferClaim[]>();
  for (const claim of claims) byTx.set(claim.txHash, [...(byTx.get(claim.txHash) ?? []), claim]);
  const receipts = new Map<Hex, TransactionReceipt>();
  const verdicts = new Map<TransferClaim, ClaimVerdict>();

  const checkOne = async (hash: Hex, own: TransferClaim[]) => {
    const receiptCall = { method: "eth_getTransactionReceipt", params: [hash] };
    const transactionCall = { method: "eth_getTransactionByHash", params: [hash] };
    const native = own.some((c) => c.tokenAddress === null);
    let provider: string | null = null;
    let receipt: RpcTransactionReceipt | null;
    if (pool) {
      const answer = await pool.requestWithProvider(receiptCall);
      receipt = answer.result as RpcTransactionReceipt | null;
      provider = answer.provider;
    } else {
      receipt = (await client.request(receiptCall as never)) as RpcTransactionReceipt | null;
    }
    const first = own.map((claim) => supports(claim, receipt, undefined));

    let second: boolean[] | null = null;
    if (pool && pool.size >= 2 && provider !== null) {
      try {
        const other = (await pool.requestElsewhere(receiptCall, provider, secondOpinionWaitMs)).result as RpcTransactionReceipt | null;
        const transaction = native ? ((await pool.requestElsewhere(transactionCall, provider, secondOpinionWaitMs)).result as RpcTransaction) : undefined;
        second = own.map((claim) => supports(claim, other, claim.tokenAddress === null ? transaction : undefined));
      } catch (error) {
        // Every other provider is down: one provider's word, as with a single one (availability over a second opinion).
        if ((error as { providerVerdict?: string }).providerVerdict === "answer") throw error;
        log.warn("no second provider answered: the transfer is taken on one provider's receipt", {
          tx_hash: hash,
          provider,
          error: String((error as Error)?.message ?? error),
        });
      }
    }
    own.forEach((claim, i) => {
      const verdict: ClaimVerdict =
        second === null ? (first[i] ? "confirmed" : "refuted") : first[i] && second[i] ? "confirmed" : !first[i] && !second[i] ? "refuted" : "disputed";
      verdicts.set(claim, verdict);
    });
    if (receipt && own.some((c) => verdicts.get(c) === "confirmed")) receipts.set(hash, formatTransactionReceipt(receipt));
    for (const claim of own.filter((c) => verdicts.get(c) === "refuted")) {
      log.warn("transfer not in its receipt: not recorded (a provider answered a log or transaction the chain does not hold)", {
        tx_hash: hash,
        log_index: claim.logIndex,
        block: String(claim.blockNumber),
        provider,
      });
    }
  };
  // Transactions 16 at a time (a batch with a pooled client): a rescan finding many costs a few round trips.
  const entries = [...byTx];
  for (let i = 0; i < entries.length; i += 16) await Promise.all(entries.slice(i, i + 16).map(([hash, own]) => checkOne(hash, own)));
  return { receipts, verdicts };
}
