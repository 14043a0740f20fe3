import "server-only";
import { findBlockchainById, findToken, type Blockchain } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { formatAmount } from "@/lib/money/amounts";
import { parseOrderKey } from "./get-order-or-throw";
import { findPublicOrderView } from "./queries";

/**
 * A confirmed order's receipt (the public page /pay/{order_id}/receipt): who was paid, for what, how
 * much, how and when. Public like the pay page (the order id is unguessable), so only what a
 * receipt shows: never order_info, nonce, addresses of the merchant or its settings.
 */
export interface Receipt {
  order_id: string;
  shop_name: string;
  /** Orders from a payment link: the link's title and the quantity; null otherwise. */
  item: { name: string; quantity: number } | null;
  /** The order's amount, exact, in token units (what was due: an overpayment is not the price). */
  amount: string;
  currency: string;
  /** Fiat-priced orders: the price and the locked rate (price currency per whole token); null otherwise. */
  price: { amount: string; currency: string; rate: string } | null;
  /** How it was paid: the network's name and the token's symbol. */
  method: { blockchain: string; token: string };
  transaction_hash: string | null;
  /** Block-explorer link of the payment: only where the chain has an explorer (live networks and public testnets, not the devnet). */
  transaction_url: string | null;
  paid_at: string;
  sandbox: boolean;
}

/** A transaction's page on the chain's block explorer (etherscan, basescan, …); null on the devnet, which has none. */
export function explorerTransactionUrl(chain: Pick<Blockchain, "isDevnet" | "explorerUrl">, hash: string): string | null {
  if (chain.isDevnet || !chain.explorerUrl) return null;
  return `${chain.explorerUrl.replace(/\/+$/, "")}/tx/${hash}`;
}

/** The receipt of a confirmed order by its public id; null for an unknown id or an order not (yet) confirmed. */
export async function getReceipt(db: DbOrTx, orderId: string): Promise<Receipt | null> {
  const key = parseOrderKey(orderId);
  if (!key || !("orderId" in key)) return null;
  const view = await findPublicOrderView(db, key.orderId);
  if (!view || view.order.status !== "confirmed") return null;
  const { order, transfer } = view;
  const chain = findBlockchainById(order.blockchainId);
  if (!chain) return null;
  const hash = transfer?.txHash ?? null;
  return {
    order_id: order.orderId,
    shop_name: view.shopName,
    item: order.itemName != null ? { name: order.itemName, quantity: order.itemQuantity ?? 1 } : null,
    amount: formatAmount(BigInt(order.amount), order.decimals),
    currency: order.currency,
    price: order.priceAmount && order.priceCurrency && order.rate ? { amount: order.priceAmount, currency: order.priceCurrency, rate: order.rate } : null,
    method: { blockchain: chain.name, token: findToken(chain, order.currency)?.symbol ?? order.currency },
    transaction_hash: hash,
    transaction_url: hash ? explorerTransactionUrl(chain, hash) : null,
    paid_at: (order.confirmedAt ?? order.updatedAt).toISOString(),
    sandbox: env.GATEWAY_MODE === "sandbox",
  };
}
