import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { getAddress, type Address, type Hex, type PublicClient } from "viem";
import { paymentOrders, transactions, type PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import { upsertTransfers } from "./queries";
import { countsToward } from "./scanner";

/** logIndex of a native transfer made by a contract (an internal call), as opposed to -1 for a top-level one. */
export const internalTransferLogIndex = -2;

type CallFrame = { to?: string; value?: string; calls?: CallFrame[]; type?: string };

function valueSentTo(frame: CallFrame, address: string): bigint {
  let total = 0n;
  if (frame.to && frame.to.toLowerCase() === address.toLowerCase() && frame.value && frame.type !== "DELEGATECALL") total += BigInt(frame.value);
  for (const child of frame.calls ?? []) total += valueSentTo(child, address);
  return total;
}

/** Native value a transaction's internal calls sent to `address`: callTracer where offered, else hardhat's struct logs. */
async function internalValueTo(client: PublicClient, txHash: Hex, address: Address): Promise<bigint> {
  try {
    const frame = (await client.request({ method: "debug_traceTransaction", params: [txHash, { tracer: "callTracer" }] } as never)) as CallFrame;
    // the top-level value is a plain transfer the scanner already saw
    return (frame.calls ?? []).reduce((sum, child) => sum + valueSentTo(child, address), 0n);
  } catch {
    const trace = (await client.request({ method: "debug_traceTransaction", params: [txHash, { disableMemory: true, disableStorage: true }] } as never)) as {
      structLogs: { op: string; stack?: string[] }[];
    };
    let total = 0n;
    for (const step of trace.structLogs) {
      if ((step.op !== "CALL" && step.op !== "CALLCODE") || !step.stack || step.stack.length < 3) continue;
      const stack = step.stack;
      const to = "0x" + BigInt("0x" + stack[stack.length - 2]!.replace(/^0x/, "")).toString(16).padStart(40, "0");
      const value = BigInt("0x" + stack[stack.length - 3]!.replace(/^0x/, ""));
      if (value > 0n && to.toLowerCase() === address.toLowerCase()) total += value;
    }
    return total;
  }
}

/**
 * Native payments that arrive by internal transfer (a contract calling the deposit address with
 * value) leave no log and no top-level transaction: they show only as balance. One batched balance
 * read of the open native orders' deposit addresses per pass (Multicall3 where deployed); where a
 * balance exceeds what was recorded, the block is found by bisection and the transaction by tracing.
 */
export async function detectInternalDeposits(db: Db, chain: Blockchain, client: PublicClient, head: bigint, now = new Date()): Promise<number> {
  const open = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.blockchainId, chain.id), inArray(paymentOrders.status, ["pending", "processing"]), isNull(paymentOrders.tokenAddress)));
  if (open.length === 0) return 0;

  const balances = await readBalances(client, chain, open.map((o) => o.receivingAddress as Address), head);
  const recorded = await db
    .select({ orderId: transactions.paymentOrderId, amount: transactions.amount, blockNumber: transactions.blockNumber })
    .from(transactions)
    .where(and(inArray(transactions.paymentOrderId, open.map((o) => o.id)), isNull(transactions.tokenAddress), inArray(transactions.status, ["pending", "confirmed"])));

  let found = 0;
  for (const [index, order] of open.entries()) {
    const mine = recorded.filter((r) => r.orderId === order.id);
    const recordedUpTo = (block: bigint) => mine.filter((r) => r.blockNumber <= block).reduce((s, r) => s + BigInt(r.amount), 0n);
    if (balances[index]! <= recordedUpTo(head)) continue;
    try {
      if (await recordInternalDeposit(db, chain, client, order, head, recordedUpTo, now)) found += 1;
    } catch (error) {
      log.warn("could not attribute an internal deposit", { order_id: order.orderId, error: String(error) });
    }
  }
  return found;
}

async function readBalances(client: PublicClient, chain: Blockchain, addresses: Address[], blockNumber: bigint): Promise<bigint[]> {
  if (chain.multicall3) {
    const results = await client.multicall({
      contracts: addresses.map((address) => ({
        address: chain.multicall3!,
        abi: [{ type: "function", name: "getEthBalance", stateMutability: "view", inputs: [{ name: "addr", type: "address" }], outputs: [{ name: "balance", type: "uint256" }] }] as const,
        functionName: "getEthBalance" as const,
        args: [address] as const,
      })),
      blockNumber,
      batchSize: 100_000,
    });
    return results.map((r) => (r.status === "success" ? (r.result as bigint) : 0n));
  }
  return Promise.all(addresses.map((address) => client.getBalance({ address, blockNumber })));
}

async function recordInternalDeposit(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  order: PaymentOrder,
  head: bigint,
  recordedUpTo: (block: bigint) => bigint,
  now: Date,
): Promise<boolean> {
  const address = order.receivingAddress as Address;
  const unexplained = async (block: bigint) => (await client.getBalance({ address, blockNumber: block })) - recordedUpTo(block);
  // first block whose balance is more than the recorded transfers explain
  let lo = 0n;
  let hi = head;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((await unexplained(mid)) > 0n) hi = mid;
    else lo = mid + 1n;
  }
  const block = await client.getBlock({ blockNumber: lo, includeTransactions: true });
  for (const tx of block.transactions) {
    if (!tx.to || tx.input === "0x") continue;
    const amount = await internalValueTo(client, tx.hash, address);
    if (amount === 0n) continue;
    const receipt = await client.getTransactionReceipt({ hash: tx.hash });
    const blockTimestamp = new Date(Number(block.timestamp) * 1000);
    await upsertTransfers(db, [
      {
        blockchainId: chain.id,
        txHash: tx.hash,
        logIndex: internalTransferLogIndex,
        blockNumber: block.number!,
        blockHash: block.hash!,
        blockTimestamp,
        fromAddress: getAddress(tx.to),
        toAddress: address,
        tokenAddress: null,
        currency: chain.nativeCurrency.symbol,
        amount: amount.toString(),
        gasUsed: receipt.gasUsed,
        gasPrice: receipt.effectiveGasPrice.toString(),
        fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
        status: "pending",
        paymentOrderId: order.id,
        merchantId: order.merchantId,
        counted: countsToward(order, null, blockTimestamp),
        createdAt: now,
        updatedAt: now,
      },
    ]);
    return true;
  }
  return false;
}
