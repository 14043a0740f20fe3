import "server-only";
import { getAddress } from "viem";
import { recordAudit } from "@/lib/audit/record";
import { findBlockchainById, findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import type { PayoutClaim } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { isTypedAddress } from "@/lib/http/schemas";
import { newId } from "@/lib/ids";
import { formatAmount, parseAmount } from "@/lib/money/amounts";
import { outsideDestinationProblem } from "@/lib/refunds/refund-destination";
import { disperserAddress } from "./disperser";
import { findPayoutClaim, insertPayoutClaim, listMerchantClaims, markClaimed } from "./queries";
import type { CreateClaimBody } from "./schemas";

const claimUrl = (id: string) => `${env.APP_URL.replace(/\/$/, "")}/api/payout-claims/${id}/claim/`;

/** A claim link as its recipient sees it (public, by id). */
export function serializePublicClaim(claim: PayoutClaim) {
  return {
    id: claim.id,
    blockchain: findBlockchainById(claim.blockchainId)?.slug ?? String(claim.blockchainId),
    currency: claim.currency,
    amount: formatAmount(BigInt(claim.amount), claim.decimals),
    expires_at: claim.expiresAt.toISOString(),
    status: claim.status as "open" | "claimed" | "paid" | "cancelled",
    claim_address: claim.claimAddress,
  };
}

/** A claim link as its merchant sees it. */
export function serializeClaim(claim: PayoutClaim) {
  return {
    ...serializePublicClaim(claim),
    url: claimUrl(claim.id),
    reference: claim.reference,
    claimed_at: claim.claimedAt?.toISOString() ?? null,
    batch_id: claim.batchId,
    paid_at: claim.paidAt?.toISOString() ?? null,
    created_at: claim.createdAt.toISOString(),
  };
}

/** A claim link for an amount of a token, open until its expiry. Audited. */
export async function createClaim(db: Db, merchantId: number, body: CreateClaimBody, now = new Date()) {
  const chain = findBlockchainBySlug(body.blockchain.toLowerCase());
  if (!chain || !disperserAddress(chain)) throw new ApiError("INVALID_BLOCKCHAIN", `Payouts on '${body.blockchain}' are not available.`);
  const token = findToken(chain, body.currency);
  if (!token) throw new ApiError("UNSUPPORTED_CURRENCY", `Currency '${body.currency}' is not supported on ${chain.slug}.`);
  const amount = parseAmount(body.amount, token.decimals);
  return db.transaction(async (tx) => {
    const claim = await insertPayoutClaim(tx, {
      id: newId("payoutClaim"),
      merchantId,
      blockchainId: chain.id,
      currency: token.symbol,
      decimals: token.decimals,
      amount: amount.toString(),
      reference: body.reference ?? null,
      expiresAt: new Date(now.getTime() + body.expires_in_hours * 3_600_000),
      status: "open",
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, {
      merchantId,
      action: "payout.claim_link_created",
      target: `claim:${claim.id}`,
      after: { amount: claim.amount, currency: claim.currency, expires_at: claim.expiresAt.toISOString() },
      now,
    });
    return serializeClaim(claim);
  });
}

export async function listClaims(db: DbOrTx, merchantId: number, window: { limit: number; offset: number }) {
  const { rows, count } = await listMerchantClaims(db, merchantId, window);
  return { count, results: rows.map(serializeClaim) };
}

export async function showPublicClaim(db: DbOrTx, id: string) {
  const claim = await findPayoutClaim(db, id);
  if (!claim) throw notFound("Claim link");
  return serializePublicClaim(claim);
}

/**
 * The recipient gives their address (public: the link's id is its credential). Once per link,
 * while open and unexpired (409 PAYOUT_CLAIM_CLOSED otherwise); the address is checked like a
 * batch leg's (checksum; never the gateway's deposit addresses or contracts, nor the merchant's own
 * wallets). The merchant's next batch with `include_claims` pays it.
 */
export async function claimPayout(db: Db, id: string, address: string, now = new Date()) {
  const claim = await findPayoutClaim(db, id);
  if (!claim) throw notFound("Claim link");
  if (!isTypedAddress(address))
    throw validationError({ address: ["Enter a valid EVM address (0x followed by 40 hex digits, with a correct checksum if mixed-case)."] });
  const destination = getAddress(address);
  const problem = await outsideDestinationProblem(db, claim.merchantId, destination);
  if (problem) throw validationError({ address: [`Must be your own address, not ${problem}.`] });
  const claimed = await markClaimed(db, claim.id, destination, now);
  if (!claimed) {
    throw new ApiError(
      "PAYOUT_CLAIM_CLOSED",
      claim.claimAddress ? "This link was already claimed." : claim.expiresAt <= now ? "This link has expired." : `This link is ${claim.status}.`,
    );
  }
  return serializePublicClaim(claimed);
}
