import "server-only";
import { getAddress } from "viem";
import { findBlockchainById, findToken, type Blockchain } from "@/lib/chains/catalog";
import type { Db } from "@/lib/db/types";
import { ApiError, notFound } from "@/lib/http/errors";
import { kick, taskNames } from "@/lib/jobs/kick";
import { describeError, log } from "@/lib/log";
import { formatAmount } from "@/lib/money/amounts";
import { processSingleton } from "@/lib/process-singleton";
import { findOrderTransactionSummary } from "@/lib/orders/order-transaction";
import { findPublicOrderRow } from "@/lib/orders/public-order";
import { mineBlocks, sendFromFaucet } from "./devnet-tools";
import type { SimulateKind } from "./schemas";
import { maxSimulatedBlocks, spendFaucetSend, spendMinedBlocks } from "./usage-limits";

/** Gap between simulated blocks: longer than the page's 1.5 s poll, so each "n of m" step is seen. */
export const simulatedBlockIntervalMs = 1_600;

/** The orders this process is mining simulated confirmations for. */
const simulatedMining = () => processSingleton("simulatedMining", () => new Set<string>());

/** Whether this process is still mining an order's simulated confirmations. */
export function isMining(orderId: string): boolean {
  return simulatedMining().has(orderId);
}

/**
 * Mines `blocks` blocks one at a time, `intervalMs` apart, waking the chain watcher after each,
 * in the background: the request returns at once and the page watches confirmations arrive.
 * One run per order at a time.
 */
function mineInBackground(chain: Blockchain, orderId: string, blocks: number, intervalMs: number): boolean {
  const running = simulatedMining();
  if (running.has(orderId) || blocks <= 0) return false;
  running.add(orderId);
  void (async () => {
    try {
      for (let i = 0; i < blocks; i++) {
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
        await mineBlocks(chain, 1);
        await kick(taskNames.watchChain(chain.slug));
      }
    } catch (error) {
      log.warn("simulated mining stopped", { order_id: orderId, ...describeError(error) });
    } finally {
      running.delete(orderId);
    }
  })();
  return true;
}

/**
 * POST /api/pay/{order_id}/simulate/ (sandbox only, no credential): what the payment page's test
 * controls do. `full` sends the missing amount from the devnet faucet and then mines the
 * remaining confirmations one block at a time; `partial` sends half of what is missing (the
 * underpaid path); `mine` mines the confirmations a payment made by other means (a browser
 * wallet) still needs. Transfers are real devnet transactions the scanner detects like any other.
 */
export async function simulatePayment(db: Db, orderId: string, kind: SimulateKind, intervalMs = simulatedBlockIntervalMs) {
  const order = await findPublicOrderRow(db, orderId);
  if (!order) throw notFound("Payment order");
  const chain = findBlockchainById(order.blockchainId);
  const token = chain ? findToken(chain, order.currency) : null;
  if (!chain || !token) throw notFound("Payment order");

  const missing = BigInt(order.amount) - BigInt(order.amountReceived);
  if (kind === "mine") {
    if (order.status !== "processing" && order.status !== "pending") {
      throw new ApiError("CONFLICT", `The order is ${order.status}; there is nothing left to confirm.`);
    }
    const transaction = await findOrderTransactionSummary(db, order);
    // At most maxSimulatedBlocks per call (a threshold can be 10,000), charged to the order's merchant's public budget.
    const blocks = Math.min(maxSimulatedBlocks, Math.max(1, order.confirmationThreshold - (transaction?.confirmations ?? 0)));
    if (isMining(order.orderId)) return { kind, transaction_hash: null, amount: "0", currency: token.symbol, blocks_to_mine: 0 };
    await spendMinedBlocks(db, order.merchantId, blocks, undefined, "public");
    const started = mineInBackground(chain, order.orderId, blocks, intervalMs);
    return { kind, transaction_hash: null, amount: "0", currency: token.symbol, blocks_to_mine: started ? blocks : 0 };
  }

  if (order.status !== "pending" || missing <= 0n) {
    throw new ApiError("CONFLICT", `The order is ${order.status}; it does not accept a payment now.`);
  }
  const amount = kind === "full" ? missing : missing / 2n > 0n ? missing / 2n : 1n;
  await spendFaucetSend(db, order.merchantId, undefined, "public");
  // The transfer's own block is its first confirmation; at most maxSimulatedBlocks more per call.
  const blocks = kind === "full" && !isMining(order.orderId) ? Math.min(maxSimulatedBlocks, Math.max(0, order.confirmationThreshold - 1)) : 0;
  if (blocks > 0) await spendMinedBlocks(db, order.merchantId, blocks, undefined, "public");
  const hash = await sendFromFaucet(chain, token, getAddress(order.receivingAddress), amount);
  await kick(taskNames.watchChain(chain.slug));
  const started = mineInBackground(chain, order.orderId, blocks, intervalMs);
  return {
    kind,
    transaction_hash: hash,
    amount: formatAmount(amount, token.decimals),
    currency: token.symbol,
    blocks_to_mine: started ? blocks : 0,
  };
}
