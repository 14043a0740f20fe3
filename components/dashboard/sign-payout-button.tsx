"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createPublicClient, createWalletClient, custom, erc20Abi, type Address, type Hex } from "viem";
import { Alert, Button } from "@/components/ui";
import type { ActionResult } from "@/lib/auth/authed-action";
import { findBrowserWallet } from "./browser-wallet";

interface UnsignedTransaction {
  to: string;
  data: string;
  value: string;
  chainId: number;
}

type ReportTransaction = (input: { id: string; tx_hash: string }) => Promise<ActionResult<{ id: number }>>;

/**
 * Pays a batch with the merchant's browser wallet (EIP-1193, as the refund button does): for a
 * token, the allowance first (waiting for its receipt), then the one batch transaction, whose hash
 * is reported to the gateway (the same use-case as POST /api/payouts/{id}/transaction/). For USDT,
 * whose approve reverts from one non-zero allowance to another, an allowance left standing is first
 * set to 0 (`allowanceReset`).
 */
export function SignPayoutButton({
  batchId,
  allowanceReset = null,
  allowance,
  transaction,
  report,
}: {
  batchId: number;
  allowanceReset?: UnsignedTransaction | null;
  allowance: UnsignedTransaction | null;
  transaction: UnsignedTransaction;
  report: ReportTransaction;
}) {
  const t = useTranslations("dashboard.shared.payoutSign");
  const router = useRouter();
  const [state, setState] = useState<{ kind: "idle" | "busy" | "ok" | "error"; text?: string }>({ kind: "idle" });

  async function sign() {
    const ethereum = findBrowserWallet();
    if (!ethereum) {
      setState({ kind: "error", text: t("noWallet") });
      return;
    }
    setState({ kind: "busy", text: t("waiting") });
    try {
      const wallet = createWalletClient({ transport: custom(ethereum) });
      const [account] = await wallet.requestAddresses();
      if (!account) throw new Error(t("noAccount"));
      if ((await wallet.getChainId()) !== transaction.chainId) await wallet.switchChain({ id: transaction.chainId });
      const chainReader = createPublicClient({ transport: custom(ethereum) });
      if (allowance && allowanceReset) {
        const standing = await chainReader.readContract({
          address: allowance.to as Address,
          abi: erc20Abi,
          functionName: "allowance",
          args: [account, transaction.to as Address],
        });
        if (standing > 0n) {
          setState({ kind: "busy", text: t("clearing") });
          const reset = await wallet.sendTransaction({ account, chain: null, to: allowanceReset.to as Address, data: allowanceReset.data as Hex, value: 0n });
          const resetReceipt = await chainReader.waitForTransactionReceipt({ hash: reset, pollingInterval: 1_000 });
          if (resetReceipt.status !== "success") throw new Error(t("clearRefused"));
        }
      }
      if (allowance) {
        setState({ kind: "busy", text: t("approving") });
        const approval = await wallet.sendTransaction({ account, chain: null, to: allowance.to as Address, data: allowance.data as Hex, value: 0n });
        const receipt = await chainReader.waitForTransactionReceipt({ hash: approval, pollingInterval: 1_000 });
        if (receipt.status !== "success") throw new Error(t("approveRefused"));
      }
      setState({ kind: "busy", text: t("sending") });
      const hash = await wallet.sendTransaction({
        account,
        chain: null,
        to: transaction.to as Address,
        data: transaction.data as Hex,
        value: BigInt(transaction.value),
      });
      const reported = await report({ id: String(batchId), tx_hash: hash });
      if (!reported.ok) throw new Error(reported.error.message);
      setState({ kind: "ok", text: t("sent", { hash }) });
      router.refresh();
    } catch (error) {
      setState({ kind: "error", text: error instanceof Error ? error.message.split("\n")[0] : t("refused") });
    }
  }

  return (
    <div>
      <Button type="button" small onClick={sign} disabled={state.kind === "busy"} aria-label={t("signLabel", { id: String(batchId) })}>
        {state.kind === "busy" ? state.text : t("sign")}
      </Button>
      {state.kind === "ok" ? <Alert kind="ok">{state.text}</Alert> : null}
      {state.kind === "error" ? <Alert kind="error">{state.text}</Alert> : null}
    </div>
  );
}
