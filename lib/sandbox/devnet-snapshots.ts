import "server-only";
import { createTestClient, getAddress, http, keccak256, publicActions, serializeTransaction, toHex, type Address, type Hex, type Transaction } from "viem";
import type { Blockchain } from "@/lib/chains/catalog";
import { viemChain } from "@/lib/chains/clients";
import { ApiError } from "@/lib/http/errors";
import { describeError, log } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";

/**
 * A reorg on hardhat: evm_revert to a snapshot of an earlier block, then mining a longer branch
 * past the old head (transactions reverted out are gone from the mempool, so a payment in them
 * vanishes, unless the branch includes it again: the other merchants' are, reorgDevnet). The sandbox tools take a snapshot of the head before each change they make to the
 * chain (pay, faucet, mine), kept in a ring per devnet: the deepest reorg possible is to the oldest
 * snapshot still held. In-process, one ring per devnet for the whole process (lib/process-singleton.ts).
 */
interface Snapshot {
  id: Hex;
  block: bigint;
}

const ringSize = 128;
const rings = processSingleton("devnetSnapshots", () => new Map<string, Snapshot[]>());

function testClient(chain: Blockchain, rpcUrl: string) {
  return createTestClient({ mode: "hardhat", chain: viemChain(chain), transport: http(rpcUrl) }).extend(publicActions);
}

async function blockNumber(client: ReturnType<typeof testClient>): Promise<bigint> {
  return client.getBlockNumber({ cacheTime: 0 });
}

/** Takes a snapshot of the devnet's head, unless the ring already holds that block. */
export async function snapshotHead(chain: Blockchain, rpcUrl: string): Promise<void> {
  const client = testClient(chain, rpcUrl);
  const ring = rings.get(rpcUrl) ?? [];
  rings.set(rpcUrl, ring);
  const before = await blockNumber(client);
  if (ring.at(-1)?.block === before) return;
  const id = await client.snapshot();
  // A block mined between the two reads leaves the snapshot's height unknown: not kept.
  if ((await blockNumber(client)) !== before) return;
  ring.push({ id, block: before });
  if (ring.length > ringSize) ring.shift();
}

export interface DevnetReorg {
  /** Blocks replaced: the old head minus the block the chain went back to. */
  depth: number;
  /** The first height whose block was replaced. */
  fromBlock: bigint;
  /** The head of the new, longer branch. */
  head: bigint;
  /** The asking merchant's transactions of the replaced blocks: gone from the new branch. */
  removed: Hex[];
  /** The other transactions of the replaced blocks, mined again on the new branch (same hashes). */
  kept: number;
}

/** A transaction of a block about to be replaced, with the addresses it touched (its `to`, its logs' emitters and address topics). */
export interface ReplacedTransaction {
  transaction: Transaction;
  addresses: Address[];
  /** Its block's timestamp: the block that holds it again gets the same (payments keep their time, never turn late). */
  timestamp: bigint;
}

/** Which of the replaced transactions are the asking merchant's: those vanish, the others are mined again. */
export type OwnTransactions = (replaced: ReplacedTransaction[]) => Promise<Set<Hex>>;

/** A JSON-RPC call the test client's types do not list (wallet methods the devnet answers for its own accounts). */
const rpc = (client: ReturnType<typeof testClient>, method: string, params: unknown[]) =>
  (client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });

/** A 32-byte log topic that holds an address (12 zero bytes, then 20). */
const addressTopic = /^0x0{24}([0-9a-f]{40})$/i;

async function replacedTransactions(client: ReturnType<typeof testClient>, from: bigint, to: bigint): Promise<ReplacedTransaction[]> {
  const heights = Array.from({ length: Number(to - from + 1n) }, (_, i) => from + BigInt(i));
  const blocks = await Promise.all(heights.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
  const transactions = blocks.flatMap((block) => block.transactions.map((transaction) => ({ transaction, timestamp: block.timestamp })));
  return Promise.all(
    transactions.map(async ({ transaction, timestamp }) => {
      const receipt = await client.getTransactionReceipt({ hash: transaction.hash });
      const addresses = new Set<Address>();
      if (transaction.to) addresses.add(getAddress(transaction.to));
      for (const log of receipt.logs) {
        addresses.add(getAddress(log.address));
        for (const topic of log.topics.slice(1)) {
          const match = addressTopic.exec(topic ?? "");
          if (match) addresses.add(getAddress(`0x${match[1]}`));
        }
      }
      return { transaction, addresses: [...addresses], timestamp };
    }),
  );
}

/** The transaction exactly as it was signed, or null when it cannot be rebuilt to the same hash. */
function signedRaw(tx: Transaction): Hex | null {
  const base = { chainId: tx.chainId, nonce: tx.nonce, gas: tx.gas, to: tx.to ?? undefined, value: tx.value, data: tx.input };
  let raw: Hex;
  if (tx.type === "legacy") raw = serializeTransaction({ ...base, type: "legacy", gasPrice: tx.gasPrice }, { r: tx.r, s: tx.s, v: tx.v });
  else if (tx.type === "eip2930")
    raw = serializeTransaction(
      { ...base, chainId: tx.chainId!, type: "eip2930", gasPrice: tx.gasPrice, accessList: tx.accessList },
      { r: tx.r, s: tx.s, yParity: tx.yParity },
    );
  else if (tx.type === "eip1559") {
    raw = serializeTransaction(
      {
        ...base,
        chainId: tx.chainId!,
        type: "eip1559",
        maxFeePerGas: tx.maxFeePerGas,
        maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
        accessList: tx.accessList,
      },
      { r: tx.r, s: tx.s, yParity: tx.yParity },
    );
  } else return null;
  return keccak256(raw) === tx.hash ? raw : null;
}

/**
 * Takes the sender's nonce of a transaction that vanishes with a 0-value transfer to itself, so its
 * later transactions that stay (the faucet's, the relayer's: shared by every merchant) still fit.
 * The devnet's own accounts sign it; any other sender is impersonated for it.
 */
async function fillNonce(client: ReturnType<typeof testClient>, tx: Transaction, nodeAccounts: Set<string>): Promise<void> {
  const from = tx.from.toLowerCase() as Address;
  const impersonate = !nodeAccounts.has(from);
  if (impersonate) await client.impersonateAccount({ address: from });
  try {
    const baseFee = (await client.getBlock({ blockTag: "pending" })).baseFeePerGas ?? 0n;
    await rpc(client, "eth_sendTransaction", [
      { from, to: from, value: "0x0", gas: toHex(21_000), nonce: toHex(tx.nonce), maxFeePerGas: toHex(baseFee * 2n), maxPriorityFeePerGas: "0x0" },
    ]);
  } finally {
    if (impersonate) await client.stopImpersonatingAccount({ address: from });
  }
}

/**
 * Replaces at least the newest `depth` blocks: reverts to the newest snapshot at or below
 * head − depth, mines again every transaction of the replaced blocks that is not the asking
 * merchant's (`own`: the same signed transactions, so the same hashes, in the same order, each in a
 * new block with the old block's time), filling the nonce of a vanished one where a later one of its sender stays, then mines
 * until the new branch is one block longer than the old. So the devnet every merchant shares
 * reorganises only the asking merchant's payments away; the others' are re-included, as in a real
 * reorg their transactions survive. 409 CONFLICT when no snapshot goes back that far.
 */
export async function reorgDevnet(chain: Blockchain, rpcUrl: string, depth: number, own: OwnTransactions): Promise<DevnetReorg> {
  const client = testClient(chain, rpcUrl);
  const ring = rings.get(rpcUrl) ?? [];
  const head = await blockNumber(client);
  const candidates = ring.filter((s) => s.block + BigInt(depth) <= head).reverse();
  for (const snapshot of candidates) {
    const replaced = await replacedTransactions(client, snapshot.block + 1n, head);
    const removed = await own(replaced);
    // hardhat answers true, or false for an id it no longer holds (viem types the answer as void).
    const reverted = (await client.request({ method: "evm_revert", params: [snapshot.id] })) as unknown as boolean;
    // A revert drops the snapshot itself and every one taken after it; a failed one (the devnet
    // restarted, or something else reverted past it) is no use either.
    rings.set(
      rpcUrl,
      ring.filter((s) => BigInt(s.id) < BigInt(snapshot.id)),
    );
    if (!reverted) continue;
    const kept = await mineAgain(client, replaced, removed);
    const afterReplay = await blockNumber(client);
    if (afterReplay <= head) await client.mine({ blocks: Number(head - afterReplay) + 1, interval: 0 });
    await snapshotHead(chain, rpcUrl);
    return { depth: Number(head - snapshot.block), fromBlock: snapshot.block + 1n, head: await blockNumber(client), removed: [...removed], kept };
  }
  throw new ApiError(
    "CONFLICT",
    `The devnet holds no state ${depth} block(s) back to return to: the sandbox keeps one from each of its own pay, faucet and mine calls. Make one (e.g. mine a block), then pay and reorg.`,
  );
}

/** Mines the replaced transactions again but `removed`, in their order (automine: one block each, stamped with the time of the block they left); how many went in. */
async function mineAgain(client: ReturnType<typeof testClient>, replaced: ReplacedTransaction[], removed: Set<Hex>): Promise<number> {
  const lastKeptNonce = new Map<string, number>();
  for (const { transaction } of replaced) {
    if (!removed.has(transaction.hash))
      lastKeptNonce.set(transaction.from.toLowerCase(), Math.max(transaction.nonce, lastKeptNonce.get(transaction.from.toLowerCase()) ?? -1));
  }
  const nodeAccounts = new Set(((await rpc(client, "eth_accounts", [])) as string[]).map((a) => a.toLowerCase()));
  let kept = 0;
  for (const { transaction, timestamp } of replaced) {
    const isRemoved = removed.has(transaction.hash);
    if (isRemoved && (lastKeptNonce.get(transaction.from.toLowerCase()) ?? -1) <= transaction.nonce) continue;
    try {
      // A clock moved back by hand (a test) refuses it: the block then takes the next time, as before.
      await client.setNextBlockTimestamp({ timestamp }).catch(() => undefined);
      if (isRemoved) {
        await fillNonce(client, transaction, nodeAccounts);
        continue;
      }
      const raw = signedRaw(transaction);
      if (!raw) throw new Error("its signed form could not be rebuilt");
      await rpc(client, "eth_sendRawTransaction", [raw]);
      kept += 1;
    } catch (error) {
      // It depended on a removed one (funds, a nonce that could not be filled): it is gone too, as in a real reorg.
      log.warn("sandbox reorg: a transaction of the replaced blocks could not be mined again", { hash: transaction.hash, ...describeError(error) });
    }
  }
  return kept;
}
