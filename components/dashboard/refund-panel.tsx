"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createWalletClient, custom, type Address, type Hex } from "viem";
import { Alert, Button, Row } from "@/components/ui";
import { Checkbox } from "@/components/ui/checkbox";
import styles from "@/components/ui/ui.module.css";
import type { ActionResult } from "@/lib/auth/authed-action";
import { findBrowserWallet } from "./browser-wallet";

export interface UnsignedRefundTransaction {
  from: string;
  to: string;
  data: string;
  value: string;
  chainId: number;
}

/**
 * Sends a refund's built transaction with the merchant's own browser wallet (EIP-1193, as the flush
 * button does). The gateway only built it; the wallet that received the swept deposit signs it.
 */
export function SignRefundButton({ transaction }: { transaction: UnsignedRefundTransaction }) {
  const t = useTranslations("dashboard.shared.refund");
  const router = useRouter();
  const [state, setState] = useState<{ kind: "idle" | "busy" | "ok" | "error"; text?: string }>({ kind: "idle" });

  async function sign() {
    const ethereum = findBrowserWallet();
    if (!ethereum) {
      setState({ kind: "error", text: t("noWallet") });
      return;
    }
    setState({ kind: "busy" });
    try {
      const wallet = createWalletClient({ transport: custom(ethereum) });
      const accounts = await wallet.requestAddresses();
      const account = accounts.find((a) => a.toLowerCase() === transaction.from.toLowerCase());
      if (!account) throw new Error(t("wrongAccount", { account: transaction.from }));
      if ((await wallet.getChainId()) !== transaction.chainId) await wallet.switchChain({ id: transaction.chainId });
      const hash = await wallet.sendTransaction({
        account,
        chain: null,
        to: transaction.to as Address,
        data: transaction.data as Hex,
        value: BigInt(transaction.value),
      });
      setState({ kind: "ok", text: t("sent", { hash }) });
      router.refresh();
    } catch (error) {
      setState({ kind: "error", text: error instanceof Error ? error.message.split("\n")[0] : t("refused") });
    }
  }

  return (
    <div>
      <Button type="button" small onClick={sign} disabled={state.kind === "busy"}>
        {state.kind === "busy" ? t("waiting") : t("sign")}
      </Button>
      {state.kind === "ok" ? <Alert kind="ok">{state.text}</Alert> : null}
      {state.kind === "error" ? <Alert kind="error">{state.text}</Alert> : null}
    </div>
  );
}

type CreateRefund = (input: {
  orderId: string;
  amount?: string;
  to_address: string;
  reason?: string;
  overpaid_only?: boolean;
}) => Promise<ActionResult<{ id: number; amount: string; transaction: UnsignedRefundTransaction }>>;

/** The refund form: amount (empty = everything refundable), the customer's address (prefilled from the payment page), a reason. */
export function RefundForm({
  orderId,
  currency,
  refundAddress,
  overpaid,
  action,
}: {
  orderId: string;
  currency: string;
  refundAddress: string | null;
  overpaid: string | null;
  action: CreateRefund;
}) {
  const t = useTranslations("dashboard.shared.refund");
  const router = useRouter();
  const [result, setResult] = useState<Awaited<ReturnType<CreateRefund>> | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? "").trim();
      return value === "" ? undefined : value;
    };
    setBusy(true);
    const overpaidOnly = form.get("overpaid_only") === "on";
    const outcome = await action({
      orderId,
      to_address: text("to_address") ?? "",
      reason: text("reason"),
      ...(overpaidOnly ? { overpaid_only: true } : { amount: text("amount") }),
    });
    setBusy(false);
    setResult(outcome);
    if (outcome.ok) router.refresh();
  }

  const fieldError = (name: string) => (result && !result.ok ? result.error.details?.[name]?.join(" ") : undefined);
  const amountError = fieldError("amount");
  const addressError = fieldError("to_address");
  const reasonError = fieldError("reason");
  return (
    <form onSubmit={submit} aria-label={t("formLabel")}>
      <Row>
        <div className={styles.field}>
          <label htmlFor="refund-amount">{t("amount", { currency })}</label>
          <input
            id="refund-amount"
            name="amount"
            inputMode="decimal"
            placeholder={t("amountPlaceholder")}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? "refund-amount-hint refund-amount-error" : "refund-amount-hint"}
          />
          <span id="refund-amount-hint" className={styles.hint}>
            {t("amountHint")}
          </span>
          {amountError ? (
            <span id="refund-amount-error" className={styles.fieldError}>
              {amountError}
            </span>
          ) : null}
        </div>
        <div className={styles.field}>
          <label htmlFor="refund-reason">{t("reason")}</label>
          <input id="refund-reason" name="reason" maxLength={500} aria-describedby={reasonError ? "refund-reason-error" : undefined} />
          {reasonError ? (
            <span id="refund-reason-error" className={styles.fieldError}>
              {reasonError}
            </span>
          ) : null}
        </div>
      </Row>
      {overpaid ? <Checkbox name="overpaid_only" label={t("overpaidOnly", { amount: overpaid, currency })} /> : null}
      <div className={styles.field}>
        <label htmlFor="refund-address">{t("address")}</label>
        <input
          id="refund-address"
          name="to_address"
          required
          defaultValue={refundAddress ?? ""}
          className="mono"
          spellCheck={false}
          autoComplete="off"
          placeholder="0x…"
          aria-invalid={addressError ? true : undefined}
          aria-describedby={addressError ? "refund-address-hint refund-address-error" : "refund-address-hint"}
        />
        <span id="refund-address-hint" className={styles.hint}>
          {refundAddress ? t("addressFromPage") : t("addressHint")}
        </span>
        {addressError ? (
          <span id="refund-address-error" className={styles.fieldError}>
            {addressError}
          </span>
        ) : null}
      </div>
      {result && !result.ok ? <Alert kind="error">{result.error.message}</Alert> : null}
      {result?.ok ? <Alert kind="ok">{t("prepared", { amount: result.data.amount, currency })}</Alert> : null}
      <Button type="submit" disabled={busy}>
        {busy ? t("preparing") : t("prepare")}
      </Button>
    </form>
  );
}

type EnterRefundAddress = (input: {
  orderId: string;
  refund_address: string;
  password?: string;
  code?: string;
}) => Promise<ActionResult<{ refund_address: string }>>;

/**
 * For a customer who cannot sign with the paying wallet nor use the mailed link: after contact with
 * them, an owner or admin enters their address, with the password (and second-factor code) again.
 * Recorded in the audit log and on the order; refunds already prepared keep their address.
 */
export function EnterRefundAddressForm({ orderId, action }: { orderId: string; action: EnterRefundAddress }) {
  const t = useTranslations("dashboard.shared.refund.enter");
  const router = useRouter();
  const [result, setResult] = useState<Awaited<ReturnType<EnterRefundAddress>> | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => {
      const value = String(form.get(name) ?? "").trim();
      return value === "" ? undefined : value;
    };
    setBusy(true);
    const outcome = await action({
      orderId,
      refund_address: text("refund_address") ?? "",
      password: String(form.get("password") ?? "") || undefined,
      code: text("code"),
    });
    setBusy(false);
    setResult(outcome);
    if (outcome.ok) {
      formElement.reset();
      router.refresh();
    }
  }

  const fieldError = (name: string) => (result && !result.ok ? result.error.details?.[name]?.join(" ") : undefined);
  return (
    <details>
      <summary>{t("summary")}</summary>
      <form onSubmit={submit} aria-label={t("label")}>
        <p>{t("explain")}</p>
        <p>
          <label>
            {t("address")} <input name="refund_address" required size={44} className="mono" autoComplete="off" />
          </label>
          {fieldError("refund_address") ? <span role="alert"> {fieldError("refund_address")}</span> : null}
        </p>
        <p>
          <label>
            {t("password")} <input name="password" type="password" autoComplete="current-password" required />
          </label>
          {fieldError("password") ? <span role="alert"> {fieldError("password")}</span> : null}
        </p>
        <p>
          <label>
            {t("code")} <input name="code" inputMode="numeric" autoComplete="one-time-code" size={10} />
          </label>
          {fieldError("code") ? <span role="alert"> {fieldError("code")}</span> : null}
        </p>
        <Button type="submit" disabled={busy}>
          {busy ? t("saving") : t("save")}
        </Button>
        {result && !result.ok ? <Alert kind="error">{result.error.message}</Alert> : null}
        {result?.ok ? <Alert kind="ok">{t("saved", { address: result.data.refund_address })}</Alert> : null}
      </form>
    </details>
  );
}
