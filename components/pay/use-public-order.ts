"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { PublicOrder } from "@/lib/orders/public-order";

/** How often the page asks for the order's status while something can still happen. */
export const statusPollMs = 1_500;

async function fetchPublicOrder(orderId: string): Promise<PublicOrder> {
  const response = await fetch(`/api/pay/${encodeURIComponent(orderId)}/`, { cache: "no-store", headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`Status request failed (${response.status})`);
  const body = (await response.json()) as { data: PublicOrder };
  return body.data;
}

/** Until the next poll: every 1.5 s while something can happen, slowly for an expired order (a late payment turns it failed), never once settled. */
function pollDelay(status: PublicOrder["status"]): number | null {
  if (status === "confirmed" || status === "failed") return null;
  if (status === "expired") return 10_000;
  return statusPollMs;
}

export interface PublicOrderQuery {
  data: PublicOrder;
  /** The last two status requests failed (the page says it is retrying). */
  isError: boolean;
  /** Asks for the status now (after a sandbox payment or a saved refund address). */
  refresh: () => Promise<void>;
}

/**
 * The order's live status: polls while the tab is visible and at once when it becomes visible
 * again. A plain hook rather than react-query: keeps the query client out of the page's first load
 * (bench/pay-page.ts); the wallet part brings its own.
 */
export function usePublicOrder(initial: PublicOrder): PublicOrderQuery {
  const [data, setData] = useState(initial);
  const [failures, setFailures] = useState(0);
  const latest = useRef(0);
  const orderId = initial.order_id;

  const refresh = useCallback(async () => {
    const request = ++latest.current;
    try {
      const order = await fetchPublicOrder(orderId);
      if (request !== latest.current) return; // a newer request answers instead
      setData(order);
      setFailures(0);
    } catch {
      if (request === latest.current) setFailures((n) => n + 1);
    }
  }, [orderId]);

  const status = data.status;
  useEffect(() => {
    // A failed request is retried once after a second, then at the usual pace.
    const delay = failures === 1 ? 1_000 : pollDelay(status);
    if (delay === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      if (document.visibilityState === "visible") timer = setTimeout(() => void refresh(), delay);
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") void refresh();
      else clearTimeout(timer);
    };
    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
    // `data` changes on every answer: each answer schedules the next request.
  }, [data, status, failures, refresh]);

  return { data, isError: failures >= 2, refresh };
}
