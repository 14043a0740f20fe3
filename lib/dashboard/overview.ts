import "server-only";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/money/amounts";
import { countApiKeys } from "@/lib/auth/queries";
import {
  confirmedFiatTotals,
  confirmedUsdValue,
  foldOrderDayTotals,
  hasPaidOrders,
  overviewSeries,
  recentOrders,
  reversedOrderTotals,
} from "@/lib/orders/queries";
import { fiatCurrencies, isFiatCurrency } from "@/lib/pricing/convert";
import { orderStatuses, type OrderStatus } from "@/lib/orders/schemas";
import { countWallets } from "@/lib/wallets/queries";
import { countEndpoints, hasEndpointWithSuccessfulDelivery } from "@/lib/webhooks/queries";

export const overviewDays = 30;
const dayMs = 24 * 60 * 60 * 1000;

export interface TokenSeries {
  key: string;
  blockchain: string;
  currency: string;
  /** One entry per UTC day, oldest first. */
  days: Array<{ day: string; orders: number; confirmedVolume: string; confirmedUnits: bigint }>;
  countsByStatus: Record<OrderStatus, number>;
  confirmedVolume: string;
  totalOrders: number;
}

/** The last 30 UTC days (today included) as YYYY-MM-DD, oldest first. */
export function lastDays(now: Date, days = overviewDays): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * dayMs).toISOString().slice(0, 10));
}

/**
 * What the setup checklist needs to know, in one round trip each. An endpoint counts as set up only
 * once it has answered a delivery with a 2xx: an endpoint that cannot be reached is not a done step.
 */
export async function setupFacts(db: DbOrTx, merchantId: number) {
  const [wallets, keys, endpoints, workingEndpoints, paid] = await Promise.all([
    countWallets(db, merchantId),
    countApiKeys(db, merchantId),
    countEndpoints(db, merchantId),
    hasEndpointWithSuccessfulDelivery(db, merchantId),
    hasPaidOrders(db, merchantId),
  ]);
  return {
    walletConfigured: wallets > 0,
    apiKeyCreated: keys > 0,
    webhookEndpointAdded: endpoints > 0,
    webhookEndpointDelivered: workingEndpoints,
    firstTestPayment: paid,
  };
}

export interface FiatTotal {
  currency: string;
  /** Sum of the fiat prices of confirmed orders created in the last 30 days, with the currency's minor units ("129.90"). */
  total: string;
  previousTotal: string;
  orders: number;
  /** Change against the 30 days before, in percent rounded to one decimal; null when there was nothing before. */
  changePercent: number | null;
}

/** A numeric sum as text ("29.9", null) in the currency's minor units ("29.90", "0.00"). */
function fiatText(sum: string | null, currency: string): string {
  const minor = isFiatCurrency(currency) ? fiatCurrencies[currency] : 2;
  return Number(sum ?? "0").toFixed(minor);
}

/**
 * Fiat totals of the last 30 days and their trend against the 30 days before: confirmed orders
 * priced in fiat, summed per price currency at their price. Token-priced orders have no fiat value
 * the gateway knows: they are counted apart (`tokenPricedOrders`) rather than converted at a rate
 * the merchant never saw.
 */
export async function fiatOverview(db: DbOrTx, merchantId: number, now: Date, days = overviewDays) {
  const day = lastDays(now, days);
  const from = new Date(`${day[0]}T00:00:00Z`);
  const to = new Date(Date.parse(`${day[day.length - 1]}T00:00:00Z`) + dayMs);
  const previousFrom = new Date(from.getTime() - days * dayMs);
  const rows = await confirmedFiatTotals(db, merchantId, { previousFrom, from, to });
  const totals: FiatTotal[] = rows
    .filter((r): r is typeof r & { currency: string } => r.currency !== null)
    .map((r) => {
      const current = Number(r.current ?? "0");
      const previous = Number(r.previous ?? "0");
      return {
        currency: r.currency,
        total: fiatText(r.current, r.currency),
        previousTotal: fiatText(r.previous, r.currency),
        orders: r.currentOrders,
        changePercent: previous > 0 ? Math.round(((current - previous) / previous) * 1000) / 10 : null,
      };
    })
    .sort((a, b) => a.currency.localeCompare(b.currency));
  const tokenPricedOrders = rows.find((r) => r.currency === null)?.currentOrders ?? 0;
  return { totals, tokenPricedOrders };
}

/** The currency the overview totals every token in: the one the gateway records transfer prices in. */
export const overviewDisplayCurrency = "USD";

/**
 * One fiat total across tokens for the last 30 days (issue 52 item 5): what confirmed orders
 * received, in US dollars, valued as the exports value it (`confirmedUsdValue`), with its trend
 * against the 30 days before. No price is made up: orders whose payments have no recorded price
 * are counted apart (`unvaluedOrders`).
 */
export async function fiatAcrossTokens(db: DbOrTx, merchantId: number, now: Date, days = overviewDays) {
  const day = lastDays(now, days);
  const from = new Date(`${day[0]}T00:00:00Z`);
  const to = new Date(Date.parse(`${day[day.length - 1]}T00:00:00Z`) + dayMs);
  const previousFrom = new Date(from.getTime() - days * dayMs);
  const [current, previous] = await Promise.all([
    confirmedUsdValue(db, merchantId, { from, to }),
    confirmedUsdValue(db, merchantId, { from: previousFrom, to: from }),
  ]);
  const total = Number(current.total);
  const before = Number(previous.total);
  return {
    currency: overviewDisplayCurrency,
    total: fiatText(current.total, overviewDisplayCurrency),
    previousTotal: fiatText(previous.total, overviewDisplayCurrency),
    orders: current.valuedOrders,
    unvaluedOrders: current.unvaluedOrders,
    changePercent: before > 0 ? Math.round(((total - before) / before) * 1000) / 10 : null,
  };
}

/** Everything the overview page shows, for one merchant. */
export async function loadOverview(db: DbOrTx, merchantId: number, now = new Date()) {
  const days = lastDays(now);
  const since = new Date(`${days[0]}T00:00:00Z`);
  // The changes since the last load into the per-day totals first (bounded), so the reads below sum few rows.
  await foldOrderDayTotals(db, merchantId);
  const [{ days: tokenDays, statuses }, recent, setup, fiat, reversedRows, acrossTokens] = await Promise.all([
    overviewSeries(db, merchantId, since),
    recentOrders(db, merchantId, 8),
    setupFacts(db, merchantId),
    fiatOverview(db, merchantId, now),
    reversedOrderTotals(db, merchantId),
    fiatAcrossTokens(db, merchantId, now),
  ]);
  // Payments a reorg took back (at risk, or pending again): whenever they were made, until they return or the order settles.
  const reversed = reversedRows.map((r) => ({
    blockchain: findBlockchainById(r.blockchainId)?.slug ?? String(r.blockchainId),
    currency: r.currency,
    orders: r.orders,
    amount: formatAmount(BigInt(r.amount), r.decimals),
  }));

  const series = new Map<string, TokenSeries & { decimals: number; perDay: Map<string, { orders: number; units: bigint }> }>();
  const seriesOf = (token: { blockchainId: number; currency: string; decimals: number }) => {
    const slug = findBlockchainById(token.blockchainId)?.slug ?? String(token.blockchainId);
    const key = `${slug}:${token.currency}`;
    let s = series.get(key);
    if (!s) {
      s = {
        key,
        blockchain: slug,
        currency: token.currency,
        decimals: token.decimals,
        days: [],
        countsByStatus: Object.fromEntries(orderStatuses.map((st) => [st, 0])) as Record<OrderStatus, number>,
        confirmedVolume: "0",
        totalOrders: 0,
        perDay: new Map(),
      };
      series.set(key, s);
    }
    return s;
  };
  for (const d of tokenDays) {
    const s = seriesOf(d);
    const day = s.perDay.get(d.day) ?? { orders: 0, units: 0n };
    day.orders += d.orders;
    day.units += BigInt(d.confirmedAmount);
    s.perDay.set(d.day, day);
  }
  for (const c of statuses) {
    const s = seriesOf(c);
    if (c.status in s.countsByStatus) s.countsByStatus[c.status as OrderStatus] += c.orders;
    s.totalOrders += c.orders;
  }

  const tokens: TokenSeries[] = [...series.values()]
    .map(({ perDay, decimals, ...s }) => {
      let total = 0n;
      const dayList = days.map((day) => {
        const d = perDay.get(day) ?? { orders: 0, units: 0n };
        total += d.units;
        return { day, orders: d.orders, confirmedUnits: d.units, confirmedVolume: formatAmount(d.units, decimals) };
      });
      return { ...s, days: dayList, confirmedVolume: formatAmount(total, decimals) };
    })
    .sort((a, b) => b.totalOrders - a.totalOrders || a.key.localeCompare(b.key));

  return { days, tokens, recent, setup, fiat, reversed, acrossTokens };
}
