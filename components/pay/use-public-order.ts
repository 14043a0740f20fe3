"use client";

import { useQuery } from "@tanstack/react-query";
import type { PublicOrder } from "@/lib/orders/public-order";
import { payQueryKeys } from "./query-keys";

/** How often the page asks for the order's status while something can still happen. */
export const statusPollMs = 1_500;

async function fetchPublicOrder(orderId: string): Promise<PublicOrder> {
  const response = await fetch(`/api/pay/${encodeURIComponent(orderId)}/`, { cache: "no-store", headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`Status request failed (${response.status})`);
  const body = (await response.json()) as { data: PublicOrder };
  return body.data;
}

/** The order's live status: polls every 1.5 s until it is confirmed or failed; an expired order is still watched slowly (a late payment turns it into failed). */
export function usePublicOrder(initial: PublicOrder) {
  return useQuery({
    queryKey: payQueryKeys.order(initial.order_id),
    queryFn: () => fetchPublicOrder(initial.order_id),
    initialData: initial,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      if (status === "confirmed" || status === "failed") return false;
      if (status === "expired") return 10_000;
      return statusPollMs;
    },
    refetchIntervalInBackground: false,
  });
}
