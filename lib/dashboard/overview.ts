import "server-only";
import { findBlockchainById } from "@/lib/chains/catalog";
import type { DbOrTx } from "@/lib/db/types";
import { formatAmount } from "@/lib/orders/amounts";
import { countApiKeys } from "@/lib/auth/queries";
import { dailyOrderBuckets, hasPaidOrders, recentOrders } from "@/lib/orders/queries";
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

/** Everything the overview page shows, for one merchant. */
export async function loadOverview(db: DbOrTx, merchantId: number, now = new Date()) {
  const days = lastDays(now);
  const since = new Date(`${days[0]}T00:00:00Z`);
  const [buckets, recent, setup] = await Promise.all([dailyOrderBuckets(db, merchantId, since), recentOrders(db, merchantId, 8), setupFacts(db, merchantId)]);

  const series = new Map<string, TokenSeries & { decimals: number; perDay: Map<string, { orders: number; units: bigint }> }>();
  for (const b of buckets) {
    const slug = findBlockchainById(b.blockchainId)?.slug ?? String(b.blockchainId);
    const key = `${slug}:${b.currency}`;
    let s = series.get(key);
    if (!s) {
      s = {
        key,
        blockchain: slug,
        currency: b.currency,
        decimals: b.decimals,
        days: [],
        countsByStatus: Object.fromEntries(orderStatuses.map((st) => [st, 0])) as Record<OrderStatus, number>,
        confirmedVolume: "0",
        totalOrders: 0,
        perDay: new Map(),
      };
      series.set(key, s);
    }
    const day = s.perDay.get(b.day) ?? { orders: 0, units: 0n };
    day.orders += b.orders;
    if (b.status === "confirmed") day.units += BigInt(b.amount);
    s.perDay.set(b.day, day);
    if (b.status in s.countsByStatus) s.countsByStatus[b.status as OrderStatus] += b.orders;
    s.totalOrders += b.orders;
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

  return { days, tokens, recent, setup };
}
