"use client";

import { useTranslations } from "next-intl";
import { useState, useSyncExternalStore } from "react";
import type { PublicOrder } from "@/lib/orders/schemas";
import { customerErrorMessage, type Translate } from "@/lib/http/error-wording";
import { refundAddressMessage } from "@/lib/refunds/refund-address-message";
import { browserWallet, browserWalletStore } from "./browser-wallet";
import { StoreSupport, type StoreSupportContact } from "./store-support";
import styles from "./pay.module.css";

const noWallet =
  "The refund address must be signed by the wallet you paid with. Open this page in that wallet's browser (or with its extension) and try again, or contact the merchant.";

/** Asks the browser wallet (the one that paid) to personal_sign the refund address; viem loads only now. */
async function signRefundAddress(orderId: string, address: string): Promise<{ address: string; signature: string }> {
  const ethereum = browserWallet();
  if (!ethereum) throw new Error(noWallet);
  const { createWalletClient, custom, getAddress, isAddress } = await import("viem");
  if (!isAddress(address, { strict: false })) throw new Error("Enter a 0x address of 40 hex digits.");
  const checksummed = getAddress(address);
  const wallet = createWalletClient({ transport: custom(ethereum) });
  const [account] = await wallet.requestAddresses();
  if (!account) throw new Error(noWallet);
  const signature = await wallet.signMessage({ account, message: refundAddressMessage(orderId, checksummed) });
  return { address: checksummed, signature };
}

async function saveRefundAddress(orderId: string, shopName: string, address: string, errorWords: Translate): Promise<{ refund_address: string }> {
  const signed = await signRefundAddress(orderId, address);
  const response = await fetch(`/api/pay/${encodeURIComponent(orderId)}/refund-address/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refund_address: signed.address, signature: signed.signature }),
  });
  const body = (await response.json().catch(() => null)) as {
    data?: { refund_address: string };
    error?: { code?: string; details?: Record<string, string[]> };
  } | null;
  if (!response.ok) {
    const details = body?.error?.details;
    throw new Error(
      details?.refund_address?.join(" ") ?? (details?.signature ? noWallet : undefined) ?? customerErrorMessage(body?.error?.code, { shopName }, errorWords),
    );
  }
  return body!.data!;
}

/**
 * No wallet to sign with (paid from an exchange): POST /api/pay/{id}/refund-link/ mails a one-time
 * link to the address the customer gave while paying (issue 52); the page says where (masked), or
 * that none can be sent and whom to contact.
 */
function RefundLinkRequest({ order }: { order: PublicOrder }) {
  const t = useTranslations("refund");
  const errorWords = useTranslations("errors");
  const [state, setState] = useState<{ kind: "idle" | "busy" | "sent" | "unavailable" | "error"; text?: string }>({ kind: "idle" });
  const shop = order.shop_name || t("theShop");
  async function ask() {
    setState({ kind: "busy" });
    try {
      const response = await fetch(`/api/pay/${encodeURIComponent(order.order_id)}/refund-link/`, { method: "POST" });
      const body = (await response.json().catch(() => null)) as { data?: { sent_to: string }; error?: { code?: string } } | null;
      if (response.ok && body?.data) setState({ kind: "sent", text: t("linkSent", { email: body.data.sent_to }) });
      else if (body?.error?.code === "CONFLICT") setState({ kind: "unavailable", text: t("linkUnavailable", { shop }) });
      else setState({ kind: "error", text: customerErrorMessage(body?.error?.code, { shopName: order.shop_name }, errorWords) });
    } catch {
      setState({ kind: "error", text: errorWords("somethingWrong") });
    }
  }
  return (
    <div data-testid="refund-link">
      <p className={styles.hint}>{t("linkIntro")}</p>
      {state.kind === "sent" || state.kind === "unavailable" ? (
        <p className={styles.notice} role="status">
          {state.text}
        </p>
      ) : (
        <button type="button" className={`${styles.button} ${styles.secondary} ${styles.small}`} onClick={() => void ask()} disabled={state.kind === "busy"}>
          {state.kind === "busy" ? t("linkSending") : t("linkButton")}
        </button>
      )}
      {state.kind === "error" && (
        <p role="alert" className={styles.error}>
          {state.text}
        </p>
      )}
    </div>
  );
}

/**
 * Over-, under- or late payments: the customer leaves the address the merchant should refund to
 * (POST /api/pay/{id}/refund-address/), signed by the wallet that paid, since the page's URL is
 * no secret (issue 24). The merchant sees it on the order and refunds from their own wallet; the
 * gateway never holds the money.
 */
export function RefundAddressForm({
  order,
  onSaved,
  support = null,
}: {
  order: PublicOrder;
  onSaved: () => Promise<void>;
  support?: StoreSupportContact | null;
}) {
  const errorWords = useTranslations("errors");
  const [address, setAddress] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The server renders as if a wallet were there; the browser then says whether one is.
  const hasWallet = useSyncExternalStore(...browserWalletStore);
  const save = async (value: string) => {
    setPending(true);
    setError(null);
    try {
      await saveRefundAddress(order.order_id, order.shop_name, value, errorWords);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
    await onSaved();
    setPending(false);
  };
  if (!order.refund_address_allowed && !order.refund_address) return null;

  return (
    <section className={styles.card} aria-labelledby="refund-title" data-testid="refund-address">
      <h2 id="refund-title" className={styles.sectionTitle}>
        Get your money back
      </h2>
      {order.refund_address && (
        <p className={styles.hint}>
          Refund address left: <code className={styles.mono}>{order.refund_address}</code>. {order.shop_name || "The merchant"} refunds from their own wallet.
          To change it, sign a new one below with the wallet you paid with.
        </p>
      )}
      {order.refund_address_allowed && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save(address.trim());
          }}
        >
          <p className={styles.hint}>
            {order.status === "confirmed" ? "You paid more than the amount." : "Your payment did not complete the order."} Leave your {order.blockchain.name}{" "}
            address and {order.shop_name || "the merchant"} can send the {order.status === "confirmed" ? "difference" : "money"} back to it ({order.currency}).
            Your wallet will ask you to sign it: only the wallet that paid this order can set the refund address.
          </p>
          {!hasWallet && <p className={styles.hint}>{noWallet}</p>}
          <label>
            Your address{" "}
            <input
              className={styles.mono}
              name="refund_address"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              required
              pattern="0x[0-9a-fA-F]{40}"
              size={44}
              placeholder="0x…"
            />
          </label>{" "}
          <button type="submit" className={styles.button} disabled={pending}>
            {pending ? "Waiting for your wallet…" : "Sign and save refund address"}
          </button>
          {error && <p className={styles.error}>{error}</p>}
        </form>
      )}
      {order.refund_address_allowed && <RefundLinkRequest order={order} />}
      <StoreSupport shop={order.shop_name} support={support} />
    </section>
  );
}
