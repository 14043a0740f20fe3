import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { findBlockchainBySlug, findToken, listBlockchains, type Blockchain, type TokenInfo } from "@/lib/chains/catalog";
import type { Db, DbOrTx } from "@/lib/db/types";
import { ApiError } from "@/lib/http/errors";
import { findDisabledTokens, isTokenDisabled, setTokenDisabled } from "./queries";

/**
 * Refuses a currency the store switched off on that chain: 400 UNSUPPORTED_CURRENCY, as for one the
 * chain does not offer. Every surface that takes a currency for a store checks it: accepted methods
 * and payment links here; an order's own currency in the statement that inserts it
 * (lib/orders/queries.ts `insertOrderIfWalletMatches`), so creating an order costs no statement more.
 */
export async function assertTokenEnabled(db: DbOrTx, merchantId: number, chain: Blockchain, token: TokenInfo, what = "Currency"): Promise<void> {
  if (await isTokenDisabled(db, merchantId, chain.id, token.symbol)) throw disabledTokenError(chain, token, what);
}

/** The answer for a currency the store switched off (order creation learns it from its insert statement). */
export function disabledTokenError(chain: Blockchain, token: TokenInfo, what = "Currency"): ApiError {
  return new ApiError("UNSUPPORTED_CURRENCY", `${what} '${token.symbol}' is switched off on ${chain.slug} for this store (dashboard › Currencies).`);
}

/** Every chain's currencies with whether the store takes them. */
export async function listMerchantTokens(db: DbOrTx, merchantId: number) {
  const disabled = new Set((await findDisabledTokens(db, merchantId)).map((d) => `${d.blockchainId}:${d.symbol}`));
  return listBlockchains().map((chain) => ({
    blockchain: chain.slug,
    name: chain.name,
    tokens: chain.tokens.map((t) => ({
      symbol: t.symbol,
      address: t.address,
      decimals: t.decimals,
      gasless: t.eip3009 !== null,
      enabled: !disabled.has(`${chain.id}:${t.symbol}`),
    })),
  }));
}

/** Switches a currency on or off for the store on one chain, with an audit entry when it changes. */
export async function setMerchantToken(db: Db, merchantId: number, input: { blockchain: string; currency: string; enabled: boolean }, now = new Date()) {
  const chain = findBlockchainBySlug(input.blockchain);
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Blockchain '${input.blockchain}' is not supported; see GET /api/blockchains/.`);
  const token = findToken(chain, input.currency);
  if (!token) throw new ApiError("UNSUPPORTED_CURRENCY", `Currency '${input.currency}' is not offered on ${chain.slug}.`);
  return db.transaction(async (tx) => {
    const changed = await setTokenDisabled(tx, merchantId, chain.id, token.symbol, !input.enabled, now);
    if (changed) {
      await recordAudit(tx, {
        merchantId,
        action: "currency.switched",
        target: `${chain.slug}:${token.symbol}`,
        before: { enabled: !input.enabled },
        after: { enabled: input.enabled },
        now,
      });
    }
    return { blockchain: chain.slug, currency: token.symbol, enabled: input.enabled };
  });
}
