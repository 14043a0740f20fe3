"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PublicOrder } from "@/lib/orders/public-order";
import { payQueryKeys } from "./query-keys";
import styles from "./pay.module.css";

type Kind = "full" | "partial" | "mine";

async function simulate(orderId: string, kind: Kind): Promise<{ transaction_hash: string | null; amount: string; blocks_to_mine: number }> {
  const response = await fetch(`/api/pay/${encodeURIComponent(orderId)}/simulate/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind }),
  });
  const body = (await response.json().catch(() => null)) as { data?: never; error?: { message?: string } } | null;
  if (!response.ok) throw new Error(body?.error?.message ?? `Request failed (${response.status})`);
  return body!.data!;
}

/** Sandbox only: real devnet transfers from the faucet, and mining, through POST /api/pay/{id}/simulate/. */
export function SandboxControls({ order }: { order: PublicOrder }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (kind: Kind) => simulate(order.order_id, kind),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payQueryKeys.order(order.order_id) }),
  });
  const payable = order.status === "pending";
  const mineable = order.status === "processing";
  const busy = mutation.isPending;

  let note = "";
  if (mutation.isPending) note = mutation.variables === "mine" ? "Mining…" : "Sending a devnet transaction…";
  else if (mutation.isSuccess) {
    const d = mutation.data;
    note =
      mutation.variables === "mine"
        ? `Mining ${d.blocks_to_mine} block(s), one every ~1.6 s.`
        : `Sent ${d.amount} ${order.currency}${d.blocks_to_mine ? `; mining ${d.blocks_to_mine} more block(s).` : "."}`;
  }

  return (
    <section className={`${styles.card} ${styles.sandbox}`} aria-labelledby="sandbox-title">
      <h2 id="sandbox-title" className={styles.sectionTitle}>
        Simulate payment (test mode)
      </h2>
      <div className={styles.row}>
        <button type="button" className={styles.button} disabled={!payable || busy} onClick={() => mutation.mutate("full")}>
          Pay in full
        </button>
        <button type="button" className={`${styles.button} ${styles.secondary}`} disabled={!payable || busy} onClick={() => mutation.mutate("partial")}>
          Pay half of what is missing
        </button>
        <button type="button" className={`${styles.button} ${styles.secondary}`} disabled={!mineable || busy} onClick={() => mutation.mutate("mine")}>
          Mine confirmations
        </button>
      </div>
      <p className={styles.hint} role="status">
        {note}
      </p>
      {mutation.isError && !busy && <p className={styles.error}>{mutation.error.message}</p>}
    </section>
  );
}
