import "server-only";
import { parseGwei } from "viem";
import { findToken, type Blockchain } from "@/lib/chains/catalog";
import { sweeperKey } from "@/lib/chains/sweeper";
import type { PaymentOrder } from "@/lib/db/schema";
import { env } from "@/lib/env";

/** An authorization must stay valid at least this long after it reaches us: time for the relay to be mined. */
export const minRelayWindowSeconds = 30;
/** Who pays the relay's gas: the sweeper's account (the sandbox's funded devnet account, SWEEPER_PRIVATE_KEY live). */
export const relayerKey = sweeperKey;

/** The relay's fee ceiling on a chain: GASLESS_MAX_FEE_GWEI, never above the chain's own ceiling. */
export function relayFeeCeiling(chain: Blockchain): bigint {
  const own = env.GASLESS_MAX_FEE_GWEI === undefined ? null : parseGwei(env.GASLESS_MAX_FEE_GWEI.toFixed(9));
  return own !== null && own < chain.maxFeePerGas ? own : chain.maxFeePerGas;
}

/**
 * Block timestamps trail the wall clock (a block is stamped when it is built; the devnet and quiet
 * chains mine rarely), and the token wants block.timestamp > validAfter: the window may open this
 * long before the order was created.
 */
const blockClockMarginSeconds = 600;

/** The earliest validAfter an order takes: its creation, less the block-clock margin. */
export const orderValidAfter = (order: Pick<PaymentOrder, "createdAt">) => BigInt(Math.floor(order.createdAt.getTime() / 1000) - blockClockMarginSeconds);
export const orderValidBefore = (order: Pick<PaymentOrder, "expiresAt">) => BigInt(Math.floor(order.expiresAt.getTime() / 1000));

/** What the payment page needs to offer "Pay without gas" for an order, or null when it cannot be offered. */
export function gaslessOffer(order: PaymentOrder, chain: Blockchain, now = new Date()): { name: string; version: string; valid_after: number; valid_before: number } | null {
  const token = findToken(chain, order.currency);
  if (!token?.address || !token.eip3009 || !relayerKey(chain) || !chain.rpcUrl || env.GASLESS_GAS_PER_MERCHANT_PER_HOUR === 0) return null;
  if (order.status !== "pending" || BigInt(order.amount) <= BigInt(order.amountReceived) || order.expiresAt.getTime() - now.getTime() <= minRelayWindowSeconds * 1000) return null;
  return { ...token.eip3009, valid_after: Number(orderValidAfter(order)), valid_before: Number(orderValidBefore(order)) };
}

