"use client";

import { useState } from "react";
import type { PublicOrder } from "@/lib/orders/schemas";
import styles from "./pay.module.css";

type Kind = "full" | "partial" | "mine";

interface Simulated {
  transaction_hash: string | null;
  amount: string;
  blocks_to_mine: number;
}

type Run = { kind: Kind; status: "pending" } | { kind: Kind; status: "done"; data: Simulated } | { kind: Kind; status: "error"; message: string };

async function simulate(orderId: string, kind: Kind): Promise<Simulated> {
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
export function SandboxControls({ order, onDone }: { order: PublicOrder; onDone: () => Promise<void> }) {
  const [run, setRun] = useState<Run | null>(null);
  const start = async (kind: Kind) => {
    setRun({ kind, status: "pending" });
    try {
      setRun({ kind, status: "done", data: await simulate(order.order_id, kind) });
    } catch (error) {
      setRun({ kind, status: "error", message: error instanceof Error ? error.message : String(error) });
    }
    await onDone();
  };
  const payable = order.status === "pending";
  const mineable = order.status === "processing";
  const busy = run?.status === "pending";

  let note = "";
  if (run?.status === "pending") note = run.kind === "mine" ? "Mining…" : "Sending a devnet transaction…";
  else if (run?.status === "done") {
    const d = run.data;
    note =
      run.kind === "mine"
        ? `Mining ${d.blocks_to_mine} block(s), one every ~1.6 s.`
        : `Sent ${d.amount} ${order.currency}${d.blocks_to_mine ? `; mining ${d.blocks_to_mine} more block(s).` : "."}`;
  }

  return (
    <section className={`${styles.card} ${styles.sandbox}`} aria-labelledby="sandbox-title">
      <h2 id="sandbox-title" className={styles.sectionTitle}>
        Simulate payment (test mode)
      </h2>
      <div className={styles.row}>
        <button type="button" className={styles.button} disabled={!payable || busy} onClick={() => start("full")}>
          Pay in full
        </button>
        <button type="button" className={`${styles.button} ${styles.secondary}`} disabled={!payable || busy} onClick={() => start("partial")}>
          Pay half of what is missing
        </button>
        <button type="button" className={`${styles.button} ${styles.secondary}`} disabled={!mineable || busy} onClick={() => start("mine")}>
          Mine confirmations
        </button>
      </div>
      <p className={styles.hint} role="status">
        {note}
      </p>
      {run?.status === "error" && <p className={styles.error}>{run.message}</p>}
    </section>
  );
}
