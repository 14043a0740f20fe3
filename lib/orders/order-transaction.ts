import "server-only";
import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { findScannedHead } from "@/lib/chains/queries";
import { findLatestOrderTransfer } from "@/lib/transactions/queries";
import type { OrderView } from "./queries";
import { orderMoney } from "./order-money";
import { serializeOrder, type OrderSweepSummary, type OrderTransactionSummary } from "./serialize";

/** The `transaction` object of an order response, with live confirmations against `head`. */
export function summarizeTransfer(transfer: Transaction, head: bigint | null, status?: string): OrderTransactionSummary {
  const confirmations = head !== null && head >= transfer.blockNumber ? Number(head - transfer.blockNumber + 1n) : 0;
  return {
    transaction_hash: transfer.txHash,
    block_number: Number(transfer.blockNumber),
    confirmations,
    status: status ?? transfer.status,
  };
}

/** The transaction summary GET shows for an order (null until a transfer is detected); no RPC: the scanner's head. */
export async function findOrderTransactionSummary(db: DbOrTx, order: PaymentOrder): Promise<OrderTransactionSummary | null> {
  const transfer = await findLatestOrderTransfer(db, order.id);
  if (!transfer) return null;
  return summarizeTransfer(transfer, await findScannedHead(db, order.blockchainId));
}

/** An order view as GET /api/payment-orders/{order_id}/ answers it (and as refund webhooks carry it). */
export function serializeOrderView(view: OrderView) {
  const { order, transfer, head, sweep, refunds, transfers, screening } = view;
  const sweepSummary = sweep ? { status: sweep.status as OrderSweepSummary["status"], transaction_hash: sweep.txHash } : null;
  return serializeOrder(order, transfer ? summarizeTransfer(transfer, head) : null, sweepSummary, refunds, orderMoney(order, transfers), screening);
}
