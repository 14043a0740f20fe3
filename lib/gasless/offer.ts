import "server-only";
import { findToken, type Blockchain } from "@/lib/chains/catalog";
import type { PaymentOrder } from "@/lib/db/schema";
import { eip3009DomainMatches } from "./domain-check";
import { gaslessConfigured, offerRelayGas, recentRelayConditions, relayRefusal } from "./policy";

/** An authorization must stay valid at least this long after it reaches us: time for the relay to be mined. */
export const minRelayWindowSeconds = 30;

/**
 * Block timestamps trail the wall clock (a block is stamped when it is built; the devnet and quiet
 * chains mine rarely), and the token wants block.timestamp > validAfter: the window may open this
 * long before the order was created.
 */
const blockClockMarginSeconds = 600;

/** The earliest validAfter an order takes: its creation, less the block-clock margin. */
export const orderValidAfter = (order: Pick<PaymentOrder, "createdAt">) => BigInt(Math.floor(order.createdAt.getTime() / 1000) - blockClockMarginSeconds);
export const orderValidBefore = (order: Pick<PaymentOrder, "expiresAt">) => BigInt(Math.floor(order.expiresAt.getTime() / 1000));

export type GaslessOffer = { name: string; version: string; valid_after: number; valid_before: number };

/**
 * What the payment page needs to offer "Pay without gas" for an order, or null when the relay
 * would refuse it now: the token has no EIP-3009 or there is no relayer, the order takes no payment,
 * the token's DOMAIN_SEPARATOR() is not the domain the wallet would sign in (./domain-check.ts),
 * or the relay rule says no (not worth it, the relayer at its floor: lib/gasless/policy.ts, on
 * conditions read at most every few seconds). The budgets are the relay's to answer (429).
 */
export async function gaslessOffer(order: PaymentOrder, chain: Blockchain, now = new Date()): Promise<GaslessOffer | null> {
  const token = findToken(chain, order.currency);
  if (!gaslessConfigured(chain, token)) return null;
  const due = BigInt(order.amount) - BigInt(order.amountReceived);
  if (order.status !== "pending" || due <= 0n || order.expiresAt.getTime() - now.getTime() <= minRelayWindowSeconds * 1000) return null;
  if (!(await eip3009DomainMatches(chain, token))) return null;
  const conditions = await recentRelayConditions(chain, now);
  if (!conditions || relayRefusal(chain, token, due, offerRelayGas, conditions)) return null;
  return { ...token.eip3009, valid_after: Number(orderValidAfter(order)), valid_before: Number(orderValidBefore(order)) };
}
