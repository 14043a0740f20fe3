/**
 * What an order shows of sanctions screening (docs/design/screening.md): whether a payer of the
 * order matched the list, and what became of the payment, beside the date of the list it was read
 * against. Pure: the statuses come from the order's screening flags.
 */
export type OrderScreeningStatus = "clear" | "flagged" | "held" | "released";

export interface OrderScreening {
  /**
   * clear: no payer of the order matched (so far); flagged: a payer matched and the store's policy
   * only records it; held: a match holds the payment (no payment.confirmed: released by a member,
   * or refunded); released: a held payment a member released.
   */
  status: OrderScreeningStatus;
  /** The publish date (YYYY-MM-DD) of the sanctions list loaded now; null: no list loaded, nothing screened against one. */
  list_date: string | null;
}

/** From the order's flag statuses (held | recorded | released, any number): the one that matters most. */
export function orderScreeningOf(flagStatuses: readonly string[], listDate: string | null): OrderScreening {
  const has = (status: string) => flagStatuses.includes(status);
  const status: OrderScreeningStatus = has("held") ? "held" : has("recorded") ? "flagged" : has("released") ? "released" : "clear";
  return { status, list_date: listDate };
}
