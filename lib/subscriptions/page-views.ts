import "server-only";
import type { StoreLook } from "@/lib/branding/branding";
import { findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { formatAmount } from "@/lib/money/amounts";
import { getHostedSubscriptionView, getManagedSubscription } from "./hosted";
import { getPublicPlanView } from "./plan-link";

/** The plan's public page's view, or null for an id that names none, or a plan whose public link is off (the page's 404). */
export async function findPublicPlanView(db: DbOrTx, planId: string) {
  try {
    return await getPublicPlanView(db, planId);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/** The chain as the wallet code in the browser needs it (the payment page's PayChainInfo): the sandbox devnet's RPC URL only. */
export function walletChainInfo(slug: string) {
  const chain = findBlockchainBySlug(slug);
  if (!chain) return null;
  return {
    chain_id: chain.chainId,
    name: chain.name,
    native_currency: chain.nativeCurrency,
    rpc_url: chain.isDevnet ? chain.rpcUrl : null,
    explorer_url: chain.explorerUrl?.replace(/\/+$/, "") ?? null,
  };
}

/** The subscribe page's view, or null for an id that names none (the page's 404). */
export async function findHostedSubscriptionView(db: DbOrTx, subscriptionId: string) {
  try {
    return await getHostedSubscriptionView(db, subscriptionId);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/** The manage page's view, or null for a token this server did not sign (the page's 404). */
export async function findManagedSubscriptionView(db: DbOrTx, token: string) {
  try {
    return await getManagedSubscription(db, token);
  } catch (error) {
    if (error instanceof ApiError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

/** The whole allowance the customer grants, in token units ("539.4"). */
export function allowanceAmount(view: { blockchain: { slug: string }; currency: string; authorization: { value: string } }): string {
  const chain = findBlockchainBySlug(view.blockchain.slug);
  const decimals = (chain && findToken(chain, view.currency)?.decimals) ?? 0;
  return formatAmount(BigInt(view.authorization.value), decimals);
}

/** The store's look for StoreBrand, from a view's brand. */
export function lookOf(view: {
  shop_name: string;
  brand: { accent_color: string | null; logo_url: string | null; support_email: string | null; support_url: string | null };
}): StoreLook {
  return {
    name: view.shop_name,
    accentColor: view.brand.accent_color,
    logoUrl: view.brand.logo_url,
    supportEmail: view.brand.support_email,
    supportUrl: view.brand.support_url,
  };
}
