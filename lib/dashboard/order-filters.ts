import { z } from "zod";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { orderStatuses } from "@/lib/orders/schemas";
import type { OrderSearch } from "@/lib/orders/queries";

/** 25 rows a page keeps the table readable on a phone. */
export const ordersPageSize = 25;
const dayMs = 24 * 60 * 60 * 1000;

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)));
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? undefined : v), schema.optional()).catch(undefined);

/** The orders page's search parameters; anything malformed is simply ignored. */
export const orderFiltersQuery = z.object({
  q: optional(z.string().trim().max(100)),
  status: optional(z.enum(orderStatuses)),
  blockchain: optional(z.string().max(32)),
  currency: optional(z.string().max(16)),
  from: optional(date),
  to: optional(date),
  money: optional(z.enum(["reversed", "not_counted"])),
  page: optional(z.coerce.number().int().min(1).max(100_000)),
});
export type OrderFilters = z.infer<typeof orderFiltersQuery>;

export function parseOrderFilters(params: Record<string, string | string[] | undefined>): OrderFilters {
  const flat = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  return orderFiltersQuery.parse(flat);
}

/** The orders page's money filter (lib/orders/order-money.ts). */
export const moneyFilterOptions = [
  { value: "reversed", label: "Reversed by a reorg" },
  { value: "not_counted", label: "Money that did not count" },
];

export function toOrderSearch(filters: OrderFilters): OrderSearch {
  return {
    q: filters.q,
    status: filters.status,
    blockchainId: filters.blockchain ? (findBlockchainBySlug(filters.blockchain)?.id ?? -1) : undefined,
    currency: filters.currency,
    from: filters.from ? new Date(`${filters.from}T00:00:00Z`) : undefined,
    to: filters.to ? new Date(Date.parse(`${filters.to}T00:00:00Z`) + dayMs) : undefined,
    money: filters.money,
  };
}
