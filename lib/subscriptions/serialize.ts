import { findBlockchainById } from "@/lib/chains/catalog";
import type { Subscription, SubscriptionCharge, SubscriptionEvent } from "@/lib/db/schema";
import { isCustomerLocale } from "@/lib/i18n/locales";
import { formatAmount } from "@/lib/money/amounts";

const daySeconds = 86_400;
/** An open-ended plan's allowance covers this many periods; the contract still takes one per period at most. */
const openEndedAllowancePeriods = 120n;

export function serializeSubscription(subscription: Subscription, planId: string, history?: SubscriptionEvent[], charges?: SubscriptionCharge[]) {
  const chain = findBlockchainById(subscription.blockchainId);
  const token = chain?.tokens.find((t) => t.address?.toLowerCase() === subscription.tokenAddress.toLowerCase());
  const cap = BigInt(subscription.maxAmountPerPeriod);
  const periods = subscription.endsAt
    ? BigInt(Math.round((subscription.endsAt.getTime() - subscription.startsAt.getTime()) / 1000 / subscription.periodSeconds))
    : openEndedAllowancePeriods;
  return {
    id: subscription.subscriptionId,
    plan: planId,
    status: subscription.status,
    blockchain: chain?.slug ?? String(subscription.blockchainId),
    currency: token?.symbol ?? subscription.tokenAddress,
    customer_address: subscription.subscriberAddress,
    merchant_address: subscription.merchantAddress,
    max_amount: formatAmount(cap, token?.decimals ?? 0),
    interval_days: Math.round(subscription.periodSeconds / daySeconds),
    starts_at: subscription.startsAt.toISOString(),
    ends_at: subscription.endsAt?.toISOString() ?? null,
    pull_address: subscription.pullAddress,
    // USDC's FiatTokenV2 (and the devnet's test tokens) carry EIP-2612 permit beside EIP-3009.
    authorization: {
      method: token?.eip3009 ? ("permit" as const) : ("approve" as const),
      spender: subscription.pullAddress,
      token: subscription.tokenAddress,
      value: (cap * periods).toString(),
    },
    customer_email: subscription.customerEmail,
    customer_locale: isCustomerLocale(subscription.customerLocale) ? subscription.customerLocale : null,
    periods_charged: subscription.periodsCharged,
    canceled_at: subscription.canceledAt?.toISOString() ?? null,
    created_at: subscription.createdAt.toISOString(),
    updated_at: subscription.updatedAt.toISOString(),
    ...(history
      ? {
          history: history.map((event) => ({
            kind: event.kind,
            status: event.status,
            detail: (event.detail as Record<string, unknown> | null) ?? null,
            created_at: event.createdAt.toISOString(),
          })),
        }
      : {}),
    ...(charges ? { charges: charges.map((charge) => serializeCharge(charge, token?.decimals ?? 0, token?.symbol ?? subscription.tokenAddress)) } : {}),
  };
}

/** One charge as a subscription's GET lists it: the transfer like any payment's, and for a fiat plan the rate it was converted at. */
export function serializeCharge(charge: SubscriptionCharge, decimals: number, currency: string) {
  return {
    period: charge.period,
    status: charge.status,
    amount: formatAmount(BigInt(charge.amount), decimals),
    currency,
    price_amount: charge.priceAmount,
    price_currency: charge.priceCurrency,
    rate: charge.rate,
    rate_source: (charge.rateSource as Record<string, unknown>[] | null) ?? null,
    rated_at: charge.ratedAt?.toISOString() ?? null,
    transaction_hash: charge.txHash,
    block_number: charge.blockNumber === null ? null : Number(charge.blockNumber),
    confirmations: charge.confirmations,
    confirmation_threshold: charge.confirmationThreshold,
    gas_used: charge.gasUsed === null ? null : charge.gasUsed.toString(),
    confirmed_at: charge.confirmedAt?.toISOString() ?? null,
    reorged_at: charge.reorgedAt?.toISOString() ?? null,
    created_at: charge.createdAt.toISOString(),
  };
}
