"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { PublicOrder } from "@/lib/orders/schemas";

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

/** The same answer as before (the order is small: comparing its JSON is cheap beside a render). */
function sameOrder(a: PublicOrder, b: PublicOrder): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The order's live status: polls while the tab is visible and at once when it becomes visible
 * again. Only an answer that differs renders the page again. A plain hook rather than react-query:
 * keeps the query client out of the page's first load (bench/pay-page.ts); the wallet part brings
 * its own.
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
      setData((current) => (sameOrder(current, order) ? current : order));
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
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      if (active && document.visibilityState === "visible") timer = setTimeout(() => void poll(), delay);
    };
    // Each answer schedules the next request; a new status or failure count starts this effect over.
    const poll = async () => {
      await refresh();
      schedule();
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") void poll();
      else clearTimeout(timer);
    };
    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      active = false;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [status, failures, refresh]);

  return { data, isError: failures >= 2, refresh };
}
