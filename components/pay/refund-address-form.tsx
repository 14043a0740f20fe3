"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { PublicOrder } from "@/lib/orders/public-order";
import { payQueryKeys } from "./query-keys";
import styles from "./pay.module.css";

async function saveRefundAddress(orderId: string, address: string): Promise<{ refund_address: string }> {
  const response = await fetch(`/api/pay/${encodeURIComponent(orderId)}/refund-address/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refund_address: address }),
  });
  const body = (await response.json().catch(() => null)) as { data?: { refund_address: string }; error?: { message?: string; details?: Record<string, string[]> } } | null;
  if (!response.ok) throw new Error(body?.error?.details?.refund_address?.join(" ") ?? body?.error?.message ?? `Request failed (${response.status})`);
  return body!.data!;
}

/**
 * Over-, under- or late payments: the customer leaves the address the merchant should refund to
 * (POST /api/pay/{id}/refund-address/, once). The merchant sees it on the order and refunds from
 * their own wallet; the gateway never holds the money.
 */
export function RefundAddressForm({ order }: { order: PublicOrder }) {
  const queryClient = useQueryClient();
  const [address, setAddress] = useState("");
  const mutation = useMutation({
    mutationFn: (value: string) => saveRefundAddress(order.order_id, value),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payQueryKeys.order(order.order_id) }),
  });
  if (!order.refund_address_allowed && !order.refund_address) return null;

  return (
    <section className={styles.card} aria-labelledby="refund-title" data-testid="refund-address">
      <h2 id="refund-title" className={styles.sectionTitle}>
        Get your money back
      </h2>
      {order.refund_address ? (
        <p className={styles.hint}>
          Refund address left: <code className={styles.mono}>{order.refund_address}</code>. {order.shop_name || "The merchant"} refunds from their own wallet; contact them to change it.
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            mutation.mutate(address.trim());
          }}
        >
          <p className={styles.hint}>
            {order.status === "confirmed" ? "You paid more than the amount." : "Your payment did not complete the order."} Leave your {order.blockchain.name} address and {order.shop_name || "the merchant"} can send the{" "}
            {order.status === "confirmed" ? "difference" : "money"} back to it ({order.currency}). You can leave it once.
          </p>
          <label>
            Your address{" "}
            <input className={styles.mono} name="refund_address" value={address} onChange={(e) => setAddress(e.target.value)} required pattern="0x[0-9a-fA-F]{40}" size={44} placeholder="0x…" />
          </label>{" "}
          <button type="submit" className={styles.button} disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : "Save refund address"}
          </button>
          {mutation.isError && <p className={styles.error}>{mutation.error.message}</p>}
        </form>
      )}
    </section>
  );
}
