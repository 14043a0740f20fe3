import type { PaymentOrder, Transaction } from "@/lib/db/schema";
import { formatAmount } from "@/lib/money/amounts";
import { notCountedReason } from "@/lib/transactions/serialize";
import type { NotCountedReason } from "@/lib/transactions/schemas";
import { findBlockchainById } from "@/lib/chains/catalog";

/** A transfer to the order that does not count toward it, and why. */
export interface UncountedTransfer {
  txHash: string;
  currency: string;
  /** Base units of its own token. */
  amount: bigint;
  decimals: number;
  reason: NotCountedReason;
}

/**
 * What happened to an order's money, one meaning everywhere it shows (order page, list, CSV, API,
 * webhooks, the customer's page): `arrived` is every transfer of the order's own asset that still
 * stands on chain, counted or not (a late payment arrived, and was swept to the merchant);
 * `counted` is what counts toward the order (its `amount_received`); `uncounted` lists each transfer
 * that does not count, with the reason (after_expiry, wrong_asset, reorged, reverted). `reversed`:
 * a reorg took back a payment that had counted, and nothing replaced it (a confirmed order flagged at
 * risk, or an order pending again).
 */
export interface OrderMoney {
  arrived: bigint;
  counted: bigint;
  uncounted: UncountedTransfer[];
  reversed: boolean;
}

const isLive = (t: Pick<Transaction, "status">) => t.status === "pending" || t.status === "confirmed";

function decimalsOf(transfer: Pick<Transaction, "blockchainId" | "tokenAddress">, fallback: number): number {
  const chain = findBlockchainById(transfer.blockchainId);
  const token = chain?.tokens.find((t) => (t.address ?? null)?.toLowerCase() === (transfer.tokenAddress ?? null)?.toLowerCase());
  return token?.decimals ?? fallback;
}

/** What the reckoning reads of a transfer. */
export type MoneyTransfer = Pick<Transaction, "txHash" | "currency" | "amount" | "status" | "counted" | "tokenAddress" | "blockchainId">;

export function orderMoney(
  order: Pick<PaymentOrder, "status" | "tokenAddress" | "expiresAt" | "decimals" | "atRiskReason">,
  transfers: MoneyTransfer[],
): OrderMoney {
  const ownAsset = (t: MoneyTransfer) => (t.tokenAddress ?? null)?.toLowerCase() === (order.tokenAddress ?? null)?.toLowerCase();
  let arrived = 0n;
  let counted = 0n;
  const uncounted: UncountedTransfer[] = [];
  for (const t of transfers) {
    const live = isLive(t);
    if (live && ownAsset(t)) arrived += BigInt(t.amount);
    if (live && t.counted) counted += BigInt(t.amount);
    const reason = notCountedReason(t as Transaction, order);
    if (reason)
      uncounted.push({
        txHash: t.txHash,
        currency: t.currency,
        amount: BigInt(t.amount),
        decimals: ownAsset(t) ? order.decimals : decimalsOf(t, order.decimals),
        reason,
      });
  }
  const reorgedPayment = transfers.some((t) => t.status === "dropped" && t.counted);
  const reversed = order.atRiskReason !== null || (order.status === "pending" && reorgedPayment && counted === 0n);
  return { arrived, counted, uncounted, reversed };
}

/** The API's and webhooks' fields for it (additive to the spec's order). */
export function serializeOrderMoney(order: Pick<PaymentOrder, "decimals">, money: OrderMoney) {
  return {
    amount_arrived: formatAmount(money.arrived, order.decimals),
    amount_counted: formatAmount(money.counted, order.decimals),
    not_counted: money.uncounted.map((u) => ({
      transaction_hash: u.txHash,
      amount: formatAmount(u.amount, u.decimals),
      currency: u.currency,
      reason: u.reason,
    })),
    payment_reversed: money.reversed,
  };
}
export type OrderMoneyJson = ReturnType<typeof serializeOrderMoney>;

/** Why money did not count, in the dashboard's and the exports' words. */
export const notCountedLabels: Record<NotCountedReason, string> = {
  after_expiry: "late",
  wrong_asset: "wrong asset",
  reorged: "reorged",
  reverted: "reverted",
};
