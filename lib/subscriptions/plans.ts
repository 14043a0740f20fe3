import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { findBlockchainById, findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import type { SubscriptionPlan } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { ApiError, notFound, validationError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import { formatAmount, parseAmount } from "@/lib/money/amounts";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";
import { subscriptionFactoryFor } from "./factory";
import { updateMerchantPlan } from "./plan-link-queries";
import { findMerchantPlan, insertPlan } from "./queries";
import type { CreatePlanBody, UpdatePlanBody } from "./schemas";

/** Public plan ids (newId("subscriptionPlan")): what the plan's public page and its API accept. */
export const planIdPattern = /^PLN-[0-9A-Za-z]{16}$/;

/** The plan's public subscribe page, where any customer starts their own subscription (while public_link is on). */
export function planSubscribeUrl(planId: string): string {
  return new URL(`/subscribe/plan/${planId}`, env.APP_URL).toString();
}

export function serializePlan(plan: SubscriptionPlan) {
  const chain = findBlockchainById(plan.blockchainId);
  const decimals = (chain && findToken(chain, plan.currency)?.decimals) ?? 0;
  return {
    id: plan.planId,
    name: plan.name,
    blockchain: chain?.slug ?? String(plan.blockchainId),
    currency: plan.currency,
    amount: plan.amount,
    price_amount: plan.priceAmount,
    price_currency: plan.priceCurrency,
    max_amount: formatAmount(BigInt(plan.maxAmountPerPeriod), decimals),
    interval_days: plan.intervalDays,
    trial_days: plan.trialDays,
    grace_days: plan.graceDays,
    past_due_days: plan.pastDueDays,
    periods: plan.periods,
    status: plan.status as "active" | "archived",
    public_link: plan.publicLink,
    public_url: plan.publicLink ? planSubscribeUrl(plan.planId) : null,
    created_at: plan.createdAt.toISOString(),
    updated_at: plan.updatedAt.toISOString(),
  };
}

/**
 * A plan charges one ERC-20 on one chain where the pull contract's factory is deployed; its cap per
 * period is the token amount, or for a fiat price the `max_amount` the merchant sets (each period's
 * conversion must stay under it). Retries end before the period does (the contract forfeits a
 * period it did not charge while it ran), so grace_days < interval_days.
 */
export async function createPlan(db: DbOrTx, merchantId: number, input: CreatePlanBody, now = new Date()): Promise<SubscriptionPlan> {
  const chain = findBlockchainBySlug(input.blockchain);
  if (!chain) throw new ApiError("INVALID_BLOCKCHAIN", `Blockchain '${input.blockchain}' is not supported; see GET /api/blockchains/.`);
  const token = findToken(chain, input.currency);
  if (!token || !token.address)
    throw new ApiError("UNSUPPORTED_CURRENCY", `Subscriptions charge an ERC-20 token; '${input.currency}' is not one on ${chain.slug}.`);
  if (!subscriptionFactoryFor(chain))
    throw new ApiError("INVALID_BLOCKCHAIN", `Subscriptions are not available on ${chain.slug}: no subscription factory is deployed or configured for it.`);
  const fiat = input.price_amount != null;
  if (fiat === (input.amount != null)) throw validationError({ amount: ["Give amount or price_amount (with price_currency and max_amount), exactly one."] });
  if (input.grace_days >= input.interval_days)
    throw validationError({ grace_days: ["Must be less than interval_days: a period is charged only while it runs."] });
  let cap: bigint;
  let priceCurrency: string | null = null;
  if (fiat) {
    priceCurrency = (input.price_currency ?? "").toUpperCase();
    if (!priceCurrency) throw validationError({ price_currency: ["Required with price_amount."] });
    if (!isFiatCurrency(priceCurrency))
      throw new ApiError(
        "UNSUPPORTED_PRICE_CURRENCY",
        `Plans cannot be priced in '${input.price_currency}'; supported: ${Object.keys(fiatCurrencies).join(", ")}.`,
      );
    parseAmount(input.price_amount, fiatCurrencies[priceCurrency]);
    if (input.max_amount == null) throw validationError({ max_amount: ["Required with price_amount: the most one period may take, in token units."] });
    cap = parseAmount(input.max_amount, token.decimals);
  } else {
    cap = parseAmount(input.amount, token.decimals);
    if (input.max_amount != null && parseAmount(input.max_amount, token.decimals) !== cap)
      throw validationError({ max_amount: ["A token-priced plan's cap is its amount; leave max_amount out."] });
  }
  return db.transaction(async (tx) => {
    const plan = await insertPlan(tx, {
      planId: newId("subscriptionPlan"),
      merchantId,
      name: input.name,
      blockchainId: chain.id,
      currency: token.symbol,
      amount: fiat ? null : input.amount!,
      priceAmount: fiat ? input.price_amount! : null,
      priceCurrency,
      maxAmountPerPeriod: cap.toString(),
      intervalDays: input.interval_days,
      trialDays: input.trial_days,
      graceDays: input.grace_days,
      pastDueDays: input.past_due_days,
      periods: input.periods ?? null,
      publicLink: input.public_link,
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit(tx, { merchantId, action: "subscription_plan.created", target: `subscription_plan:${plan.planId}`, after: serializePlan(plan), now });
    return plan;
  });
}

export async function getPlanOrThrow(db: DbOrTx, merchantId: number, planId: string): Promise<SubscriptionPlan> {
  const plan = await findMerchantPlan(db, merchantId, planId);
  if (!plan) throw notFound("Subscription plan");
  return plan;
}

/**
 * The merchant switches the plan's public subscribe page on or off, or archives the plan (it then takes
 * no new subscribers; its subscriptions go on) or makes it active again; with an audit entry.
 */
export async function updatePlan(db: DbOrTx, merchantId: number, planId: string, input: UpdatePlanBody, now = new Date()): Promise<SubscriptionPlan> {
  return db.transaction(async (tx) => {
    const before = await getPlanOrThrow(tx, merchantId, planId);
    const plan = await updateMerchantPlan(tx, merchantId, planId, {
      ...(input.public_link === undefined ? {} : { publicLink: input.public_link }),
      ...(input.status === undefined ? {} : { status: input.status }),
      updatedAt: now,
    });
    if (!plan) throw notFound("Subscription plan");
    await recordAudit(tx, {
      merchantId,
      action: "subscription_plan.updated",
      target: `subscription_plan:${plan.planId}`,
      before: { public_link: before.publicLink, status: before.status },
      after: { public_link: plan.publicLink, status: plan.status },
      now,
    });
    return plan;
  });
}
