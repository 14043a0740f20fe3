import "server-only";
import { getAddress, type Address, type Hex, type PublicClient } from "viem";
import type { NewTransaction, PaymentOrder } from "@/lib/db/schema";
import type { Db } from "@/lib/db/types";
import { log } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { findOpenNativeOrders } from "@/lib/orders/queries";
import { findRecordedNative, removeStaleInternalTransfers, upsertTransfers, type RecordedNative } from "@/lib/transactions/queries";
import { readBalances } from "@/lib/chains/balances";
import type { Blockchain } from "@/lib/chains/catalog";
import { armSweep, findUnsweptSettledNativeOrders, refreshPendingReceived } from "@/lib/chains/queries";
import { countsToward } from "./attribute-transfers";

/** logIndex of a native transfer made by a contract (an internal call), as opposed to -1 for a top-level one. */
export const internalTransferLogIndex = -2;

/** What one transaction's internal calls delivered to an address: value of successful calls, and whether a kept SELFDESTRUCT named it. */
export interface InternalDelivery {
  value: bigint;
  /** A SELFDESTRUCT paid the address; its value is not in the trace, only in the balance. */
  selfDestruct: boolean;
}

type CallFrame = { type?: string; to?: string; value?: string; error?: string; calls?: CallFrame[] };

/**
 * Value delivered by a callTracer frame tree. A frame with an `error` failed or reverted: its own
 * value and everything under it was rolled back, so it is skipped whole. The top frame's value is
 * the transaction's own (the scanner records it as a top-level transfer).
 */
export function deliveredByCallFrames(top: CallFrame, address: string): InternalDelivery {
  const target = address.toLowerCase();
  const result: InternalDelivery = { value: 0n, selfDestruct: false };
  if (top.error) return result;
  const visit = (frame: CallFrame) => {
    if (frame.error) return;
    const type = (frame.type ?? "CALL").toUpperCase();
    if (frame.to?.toLowerCase() === target && frame.value && (type === "CALL" || type === "SELFDESTRUCT")) result.value += BigInt(frame.value);
    for (const child of frame.calls ?? []) visit(child);
  };
  for (const child of top.calls ?? []) visit(child);
  return result;
}

type StructStep = { op: string; depth: number; stack?: string[] };

const word = (hex: string | undefined) => (hex ? BigInt("0x" + hex.replace(/^0x/, "")) : 0n);
const wordAddress = (hex: string | undefined) => "0x" + word(hex).toString(16).padStart(40, "0");
const framedOps = new Set(["CALL", "CALLCODE", "DELEGATECALL", "STATICCALL", "CREATE", "CREATE2"]);

/**
 * Value delivered to `address` by the internal calls of a transaction, from the VM's step trace
 * (hardhat offers no callTracer). Every call opens a frame; when execution is back at the
 * caller's depth the top of its stack is the call's success flag. A frame's transfers are kept
 * only if the frame and every frame around it succeeded, so value sent in a failed call, or in a
 * frame that later reverts, is never counted.
 */
export function deliveredBySteps(steps: StructStep[], address: string, transactionSucceeded: boolean): InternalDelivery {
  const target = address.toLowerCase();
  type Frame = { depth: number; value: bigint; selfDestruct: boolean };
  const root: Frame = { depth: 0, value: 0n, selfDestruct: false };
  const open: Frame[] = [];
  const current = () => open[open.length - 1] ?? root;
  for (const step of steps) {
    // Back at (or above) the depth a call was made from: that call has returned.
    while (open.length && step.depth <= open[open.length - 1]!.depth) {
      const call = open.pop()!;
      const succeeded = step.depth === call.depth && word(step.stack?.[step.stack.length - 1]) !== 0n;
      if (succeeded) {
        current().value += call.value;
        current().selfDestruct ||= call.selfDestruct;
      }
    }
    const stack = step.stack ?? [];
    if (framedOps.has(step.op)) {
      const sendsValue = step.op === "CALL" && stack.length >= 3 && wordAddress(stack[stack.length - 2]) === target;
      open.push({ depth: step.depth, value: sendsValue ? word(stack[stack.length - 3]) : 0n, selfDestruct: false });
    } else if (step.op === "SELFDESTRUCT" && wordAddress(stack[stack.length - 1]) === target) {
      current().selfDestruct = true;
    }
  }
  // Frames still open when the trace ends never returned: nothing in them is kept.
  return transactionSucceeded ? root : { value: 0n, selfDestruct: false };
}

/** Traces one transaction: callTracer where the node offers it, else the step trace. */
async function traceDelivery(client: PublicClient, txHash: Hex, address: Address, succeeded: boolean): Promise<InternalDelivery> {
  if (!succeeded) return { value: 0n, selfDestruct: false };
  try {
    const frame = (await client.request({ method: "debug_traceTransaction", params: [txHash, { tracer: "callTracer" }] } as never)) as CallFrame;
    return deliveredByCallFrames(frame, address);
  } catch {
    const trace = (await client.request({ method: "debug_traceTransaction", params: [txHash, { disableMemory: true, disableStorage: true }] } as never)) as {
      failed?: boolean;
      structLogs: StructStep[];
    };
    return deliveredBySteps(trace.structLogs, address, !trace.failed);
  }
}

const settledStatuses = new Set(["confirmed", "failed", "expired"]);

/** Most blocks one order's balance check attributes per pass (each costs a bisection). */
const blocksPerOrderPerPass = 8;

/**
 * How many deposit addresses one balance pass reads: the newest open native orders, the next ones
 * in id order (a rotating window), and settled ones whose sweep has not run. At most
 * `newest + next + settled` balances, `balancesPerCall` (all of them) per eth_call: one call per
 * pass whatever the number of open orders (with N open native orders, each is read at least once
 * every N / next passes).
 */
export const balanceWindow = { newest: 200, next: 400, settled: 100 };
/** Per order, the balance nobody could attribute (mining rewards, withdrawals…), so it is not bisected again every pass. */
const unattributed = processSingleton("unattributedBalance", () => new Map<number, string>());

/**
 * Native payments that arrive by internal transfer (a contract calling the deposit address with
 * value) leave no log and no top-level transaction: they show only as balance. One batched balance
 * read of the open native orders' deposit addresses per pass (a contract-creation eth_call, lib/chains/balances.ts); where a
 * balance exceeds what was recorded, the block is found by bisection, the transactions by tracing,
 * and what is credited in a block never exceeds the balance increase the block really shows.
 */
export async function detectInternalDeposits(db: Db, chain: Blockchain, client: PublicClient, head: bigint, now = new Date()): Promise<number> {
  // A bounded window per pass (issue 31): the newest open native orders (the ones most likely paid
  // now) and the next ones in id order, round and round; settled orders too while their sweep is
  // still to run: a contract payment arriving after settlement would otherwise be flushed to the
  // merchant unrecorded (not seen, not refundable).
  const cursors = processSingleton("balanceCheckCursor", () => new Map<number, number>());
  const [window, settled] = await Promise.all([
    findOpenNativeOrders(db, chain.id, { newest: balanceWindow.newest, afterId: cursors.get(chain.id) ?? 0, next: balanceWindow.next }),
    findUnsweptSettledNativeOrders(db, chain.id, balanceWindow.settled),
  ]);
  cursors.set(chain.id, window.lastId);
  const open = [...window.orders, ...settled.filter((o) => !window.orders.some((w) => w.id === o.id))];
  if (open.length === 0) return 0;

  const balances = await readBalances(
    client,
    chain,
    open.map((o) => o.receivingAddress as Address),
    head,
  );
  const recorded = await findRecordedNative(
    db,
    open.map((o) => o.id),
  );
  const recordedBy = new Map<number, RecordedNative[]>();
  for (const row of recorded) if (row.orderId !== null) recordedBy.set(row.orderId, [...(recordedBy.get(row.orderId) ?? []), row]);

  let found = 0;
  for (const [index, order] of open.entries()) {
    const mine = recordedBy.get(order.id) ?? [];
    const residual = balances[index]! - sumUpTo(mine, head);
    if (residual <= 0n || unattributed.get(order.id) === residual.toString()) continue;
    try {
      found += await attributeInternalDeposits(db, chain, client, order, head, mine, now);
    } catch (error) {
      log.warn("could not attribute an internal deposit", { order_id: order.orderId, error: String(error) });
    }
  }
  return found;
}

const sumUpTo = (rows: RecordedNative[], block: bigint) => rows.filter((r) => r.blockNumber <= block).reduce((s, r) => s + BigInt(r.amount), 0n);

/**
 * Finds, block by block, where the order's balance first exceeds what its recorded transfers
 * explain, and records that block's internal payments. `offset` is balance already known to be
 * unattributable, so the search moves on past it.
 */
async function attributeInternalDeposits(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  order: PaymentOrder,
  head: bigint,
  recorded: RecordedNative[],
  now: Date,
): Promise<number> {
  const address = order.receivingAddress as Address;
  const balanceAt = (block: bigint) => client.getBalance({ address, blockNumber: block });
  let rows = recorded;
  let offset = 0n;
  let from = 0n;
  let found = 0;
  for (let pass = 0; pass < blocksPerOrderPerPass; pass++) {
    const unexplained = async (block: bigint) => (await balanceAt(block)) - sumUpTo(rows, block) - offset;
    if (from > head || (await unexplained(head)) <= 0n) break;
    let lo = from;
    let hi = head;
    while (lo < hi) {
      const mid = (lo + hi) / 2n;
      if ((await unexplained(mid)) > 0n) hi = mid;
      else lo = mid + 1n;
    }
    const written = await recordBlockDeposits(db, chain, client, order, lo, rows, now);
    found += written.length;
    rows = [...rows.filter((r) => !(r.blockNumber === lo && r.logIndex === internalTransferLogIndex)), ...written];
    // Whatever the block's increase still leaves unexplained came from no transaction we can name.
    offset += await unexplained(lo);
    from = lo + 1n;
  }
  if (offset > 0n) {
    log.warn("native balance no transaction explains", { order_id: order.orderId, amount: offset.toString() });
    unattributed.set(order.id, offset.toString());
  } else {
    unattributed.delete(order.id);
  }
  return found;
}

/**
 * Records the internal payments of one block to an order's deposit address. The block's budget is
 * its real balance increase less the top-level transfers already recorded in it; traced values are
 * credited in transaction order up to that budget, and what remains goes to a transaction that
 * self-destructed into the address (the step trace cannot tell that value). So a block is never
 * credited more than actually arrived in it, however the calls inside it were arranged.
 */
async function recordBlockDeposits(
  db: Db,
  chain: Blockchain,
  client: PublicClient,
  order: PaymentOrder,
  blockNumber: bigint,
  recorded: RecordedNative[],
  now: Date,
): Promise<RecordedNative[]> {
  const address = order.receivingAddress as Address;
  const [after, before, block] = await Promise.all([
    client.getBalance({ address, blockNumber }),
    blockNumber > 0n ? client.getBalance({ address, blockNumber: blockNumber - 1n }) : Promise.resolve(0n),
    client.getBlock({ blockNumber, includeTransactions: true }),
  ]);
  const topLevel = recorded.filter((r) => r.blockNumber === blockNumber && r.logIndex !== internalTransferLogIndex).reduce((s, r) => s + BigInt(r.amount), 0n);
  let budget = after - before - topLevel;
  if (budget <= 0n) {
    await removeStaleInternalTransfers(db, order.id, blockNumber, internalTransferLogIndex, []);
    return [];
  }

  const deliveries: {
    tx: (typeof block.transactions)[number];
    delivery: InternalDelivery;
    receipt: Awaited<ReturnType<PublicClient["getTransactionReceipt"]>>;
  }[] = [];
  // A plain transfer to the address the scanner did not record (it reads balances only for open
  // orders: this one settled meanwhile) is recorded here, as the top-level transfer it is.
  const unrecorded = block.transactions.filter(
    (tx) => tx.to?.toLowerCase() === address.toLowerCase() && tx.value > 0n && !recorded.some((r) => r.txHash === tx.hash && r.logIndex === -1),
  );
  const topLevelRows: NewTransaction[] = [];
  for (const tx of unrecorded) {
    const receipt = await client.getTransactionReceipt({ hash: tx.hash });
    if (receipt.status !== "success" || budget <= 0n) continue;
    const amount = tx.value < budget ? tx.value : budget;
    budget -= amount;
    const blockTimestamp = new Date(Number(block.timestamp) * 1000);
    topLevelRows.push({
      blockchainId: chain.id,
      txHash: tx.hash,
      logIndex: -1,
      blockNumber: block.number!,
      blockHash: block.hash!,
      blockTimestamp,
      fromAddress: getAddress(tx.from),
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
      counted: countsToward(order, chain.id, null, blockTimestamp),
      createdAt: now,
      updatedAt: now,
    });
  }
  for (const tx of block.transactions) {
    // Plain value transfers make no internal calls worth tracing (a top-level one is recorded above);
    // contract creations are traced, since a constructor can call or self-destruct into the address.
    if (tx.to && tx.input === "0x") continue;
    const receipt = await client.getTransactionReceipt({ hash: tx.hash });
    const delivery = await traceDelivery(client, tx.hash, address, receipt.status === "success");
    if (delivery.value > 0n || delivery.selfDestruct) deliveries.push({ tx, delivery, receipt });
  }
  const credited = new Map<Hex, bigint>();
  for (const { tx, delivery } of deliveries) {
    const amount = delivery.value < budget ? delivery.value : budget;
    credited.set(tx.hash, amount);
    budget -= amount;
  }
  const selfDestructing = deliveries.find((d) => d.delivery.selfDestruct);
  if (selfDestructing && budget > 0n) credited.set(selfDestructing.tx.hash, (credited.get(selfDestructing.tx.hash) ?? 0n) + budget);

  const blockTimestamp = new Date(Number(block.timestamp) * 1000);
  const rows: NewTransaction[] = deliveries
    .filter(({ tx }) => (credited.get(tx.hash) ?? 0n) > 0n)
    .map(({ tx, receipt }) => ({
      blockchainId: chain.id,
      txHash: tx.hash,
      logIndex: internalTransferLogIndex,
      blockNumber: block.number!,
      blockHash: block.hash!,
      blockTimestamp,
      fromAddress: getAddress(tx.to ?? receipt.contractAddress ?? tx.from),
      toAddress: address,
      tokenAddress: null,
      currency: chain.nativeCurrency.symbol,
      amount: credited.get(tx.hash)!.toString(),
      gasUsed: receipt.gasUsed,
      gasPrice: receipt.effectiveGasPrice.toString(),
      fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
      status: "pending",
      paymentOrderId: order.id,
      merchantId: order.merchantId,
      counted: countsToward(order, chain.id, null, blockTimestamp),
      createdAt: now,
      updatedAt: now,
    }));
  await db.transaction(async (tx) => {
    await upsertTransfers(tx, [...topLevelRows, ...rows]);
    await removeStaleInternalTransfers(
      tx,
      order.id,
      blockNumber,
      internalTransferLogIndex,
      rows.map((r) => r.txHash),
    );
    await refreshPendingReceived(tx, [order.id], now);
    // Money reaching a settled order is flushed to the merchant too (as the scanner does for top-level transfers).
    if (rows.length + topLevelRows.length && settledStatuses.has(order.status)) await armSweep(tx, order.id, chain.id, now);
  });
  return [...topLevelRows, ...rows].map((r) => ({ orderId: order.id, amount: r.amount, blockNumber: r.blockNumber, logIndex: r.logIndex, txHash: r.txHash }));
}
