import "server-only";
import { findBlockchainBySlug, findBlockchainById, findToken } from "@/lib/chains/catalog";
import { recordAudit } from "@/lib/audit/record";
import { chainClient } from "@/lib/chains/clients";
import type { PayoutBatch } from "@/lib/db/schema";
import type { Db, DbOrTx } from "@/lib/db/types";
import { ApiError, validationError } from "@/lib/http/errors";
import { formatAmount } from "@/lib/money/amounts";
import { actorLabel, type PayoutActor } from "./actor";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { disperserAddress, ensureDisperser } from "./disperser";
import { recordPayoutEvent } from "./payout-events";
import { serializePayout } from "./serialize";
import { getPayoutOrThrow, showPayout } from "./get-payout-or-throw";
import { checkPayoutLegs, enteredFromJson, readPayoutCsv } from "./payout-legs";
import { amountDecimalsFor, needsApproval, priceLegs } from "./price-legs";
import {
  attachClaims,
  deletePayoutLegs,
  findPayoutThreshold,
  insertPayoutBatch,
  insertPayoutLegs,
  lockDueClaims,
  releaseClaims,
  updatePayoutBatch,
} from "./queries";
import type { CreatePayoutBody, UpdatePayoutBody } from "./schemas";

function chainAndToken(blockchain: string, currency: string) {
  const chain = findBlockchainBySlug(blockchain.toLowerCase());
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Blockchain '${blockchain}' is not supported; see GET /api/blockchains/.`);
  if (!disperserAddress(chain)) throw new ApiError("INVALID_BLOCKCHAIN", `Payouts on ${chain.slug} are not available: no payout contract is deployed there.`);
  const token = findToken(chain, currency);
  if (!token)
    throw new ApiError(
      "UNSUPPORTED_CURRENCY",
      `Currency '${currency}' is not supported on ${chain.slug}; supported: ${chain.tokens.map((t) => t.symbol).join(", ")}.`,
    );
  return { chain, token };
}

/** The legs of a create or edit, checked row by row and priced at a rate locked now. */
async function preparedLegs(
  db: Db,
  merchantId: number,
  blockchain: string,
  currency: string,
  body: Pick<CreatePayoutBody, "legs" | "csv" | "amount_currency" | "include_claims">,
  now: Date,
) {
  const { chain, token } = chainAndToken(blockchain, currency);
  await ensureDisperser(chain, chainClient(chain));
  const entered = body.csv !== undefined ? readPayoutCsv(body.csv) : enteredFromJson(body.legs ?? []);
  if (body.include_claims) {
    if (body.amount_currency)
      throw validationError({ include_claims: ["Claim links are in the token: include them in a batch whose amounts are in the token too."] });
    const due = await lockDueClaims(db, merchantId, chain.id, token.symbol);
    entered.push(
      ...due.map((claim) => ({
        key: `claims.${claim.id}`,
        address: claim.claimAddress!,
        amount: formatAmount(BigInt(claim.amount), claim.decimals),
        reference: claim.reference ?? claim.id,
        claimId: claim.id,
      })),
    );
  }
  const checked = await checkPayoutLegs(db, merchantId, chain, token, amountDecimalsFor(token, body.amount_currency, chain), entered);
  const priced = await priceLegs(chain, token, body.amount_currency, checked, now);
  const threshold = await findPayoutThreshold(db, merchantId);
  return { chain, token, priced, approvalRequired: needsApproval(priced.usdValue, threshold) };
}

const legRows = (batch: PayoutBatch, priced: Awaited<ReturnType<typeof preparedLegs>>["priced"], now: Date) =>
  priced.legs.map((leg, position) => ({
    batchId: batch.id,
    merchantId: batch.merchantId,
    position,
    toAddress: leg.toAddress,
    amount: leg.amount.toString(),
    fiatAmount: leg.fiatAmount,
    claimId: leg.claimId ?? null,
    reference: leg.reference,
    status: "pending",
    createdAt: now,
    updatedAt: now,
  }));

/**
 * A new draft batch: its legs checked row by row (lib/payouts/payout-legs.ts), amounts in fiat
 * converted at a rate locked now, and whether it needs a second member's approval (its USD worth
 * above the merchant's threshold). Audited as payout.created.
 */
export async function createPayout(db: Db, actor: PayoutActor, body: CreatePayoutBody, now = new Date()) {
  const { chain, token, priced, approvalRequired } = await preparedLegs(db, actor.merchantId, body.blockchain, body.currency, body, now);
  const created = await db.transaction(async (tx) => {
    const batch = await insertPayoutBatch(tx, {
      merchantId: actor.merchantId,
      blockchainId: chain.id,
      currency: token.symbol,
      tokenAddress: token.address,
      decimals: token.decimals,
      amountCurrency: priced.amountCurrency,
      rate: priced.rate,
      usdValue: priced.usdValue,
      rateSource: priced.rateSource,
      rateLockedAt: priced.rateSource.length ? now : null,
      totalAmount: priced.total.toString(),
      legCount: priced.legs.length,
      note: body.note ?? null,
      status: "draft",
      approvalRequired,
      createdBy: actorLabel(actor),
      createdByUserId: actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    await attachDueClaims(tx, actor.merchantId, batch, priced.legs, now);
    const legs = await insertPayoutLegs(tx, legRows(batch, priced, now));
    await recordAudit(tx, {
      merchantId: actor.merchantId,
      action: "payout.created",
      target: `payout:${batch.id}`,
      after: { legs: batch.legCount, total: batch.totalAmount, currency: batch.currency, usd_value: batch.usdValue },
      now,
    });
    await recordPayoutEvent(tx, "payout.created", batch, legs, now);
    return serializePayout(batch, legs);
  });
  await notifyDeliveriesDue();
  return created;
}

/**
 * Edits a draft: new legs (re-checked, and re-priced at a rate locked now), a new note. Only a
 * draft: an approved batch is what its approver saw, and a sent one is on chain
 * (PAYOUT_NOT_EDITABLE). The edit re-decides whether approval is needed.
 */
export async function updatePayout(db: Db, actor: PayoutActor, id: number, body: UpdatePayoutBody, now = new Date()) {
  const current = await getPayoutOrThrow(db, actor.merchantId, id);
  assertDraft(current);
  const chain = findBlockchainById(current.blockchainId)!;
  const relegged = body.legs !== undefined || body.csv !== undefined;
  const prepared = relegged
    ? await preparedLegs(
        db,
        actor.merchantId,
        chain.slug,
        current.currency,
        { ...body, amount_currency: body.amount_currency === undefined ? current.amountCurrency : body.amount_currency },
        now,
      )
    : null;
  return db.transaction(async (tx) => {
    const batch = await getPayoutOrThrow(tx, actor.merchantId, id, true);
    assertDraft(batch);
    let updated = batch;
    if (prepared) {
      await deletePayoutLegs(tx, batch.id);
      await releaseClaims(tx, batch.id, now);
      await attachDueClaims(tx, actor.merchantId, updated, prepared.priced.legs, now);
      updated = await updatePayoutBatch(tx, batch.id, {
        amountCurrency: prepared.priced.amountCurrency,
        rate: prepared.priced.rate,
        usdValue: prepared.priced.usdValue,
        rateSource: prepared.priced.rateSource,
        rateLockedAt: prepared.priced.rateSource.length ? now : null,
        totalAmount: prepared.priced.total.toString(),
        legCount: prepared.priced.legs.length,
        approvalRequired: prepared.approvalRequired,
        updatedAt: now,
      });
      await insertPayoutLegs(tx, legRows(updated, prepared.priced, now));
    }
    if (body.note !== undefined) updated = await updatePayoutBatch(tx, batch.id, { note: body.note, updatedAt: now });
    await recordAudit(tx, {
      merchantId: actor.merchantId,
      action: "payout.updated",
      target: `payout:${batch.id}`,
      before: { legs: batch.legCount, total: batch.totalAmount },
      after: { legs: updated.legCount, total: updated.totalAmount, usd_value: updated.usdValue },
      now,
    });
    return showPayout(tx, updated);
  });
}

/**
 * Attaches the claim links a batch's legs pay, after locking them: one still due when the legs were
 * read but taken by another batch since is a CONFLICT (the batch would pay it twice).
 */
async function attachDueClaims(tx: DbOrTx, merchantId: number, batch: PayoutBatch, legs: { claimId?: string }[], now: Date): Promise<void> {
  const ids = legs.flatMap((leg) => (leg.claimId ? [leg.claimId] : []));
  if (ids.length === 0) return;
  const due = new Set((await lockDueClaims(tx, merchantId, batch.blockchainId, batch.currency)).map((claim) => claim.id));
  if (ids.some((id) => !due.has(id))) throw new ApiError("CONFLICT", "A claim link was taken by another batch meanwhile; save the batch again.");
  await attachClaims(tx, ids, batch.id, now);
}

export function assertDraft(batch: PayoutBatch): void {
  if (batch.status !== "draft") throw new ApiError("PAYOUT_NOT_EDITABLE", `Only a draft batch can be changed; this one is ${batch.status}.`);
}
