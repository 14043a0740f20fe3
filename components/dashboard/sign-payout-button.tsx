"use client";

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
  const router = useRouter();
  const [state, setState] = useState<{ kind: "idle" | "busy" | "ok" | "error"; text?: string }>({ kind: "idle" });

  async function sign() {
    const ethereum = findBrowserWallet();
    if (!ethereum) {
      setState({ kind: "error", text: "No browser wallet found. Install one (e.g. MetaMask), or send the batch's transaction from your own tooling." });
      return;
    }
    setState({ kind: "busy", text: "Waiting for wallet…" });
    try {
      const wallet = createWalletClient({ transport: custom(ethereum) });
      const [account] = await wallet.requestAddresses();
      if (!account) throw new Error("The wallet gave no account.");
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
          setState({ kind: "busy", text: "Clearing the earlier allowance…" });
          const reset = await wallet.sendTransaction({ account, chain: null, to: allowanceReset.to as Address, data: allowanceReset.data as Hex, value: 0n });
          const resetReceipt = await chainReader.waitForTransactionReceipt({ hash: reset, pollingInterval: 1_000 });
          if (resetReceipt.status !== "success") throw new Error("Clearing the token allowance was refused.");
        }
      }
      if (allowance) {
        setState({ kind: "busy", text: "Approving the token…" });
        const approval = await wallet.sendTransaction({ account, chain: null, to: allowance.to as Address, data: allowance.data as Hex, value: 0n });
        const receipt = await chainReader.waitForTransactionReceipt({ hash: approval, pollingInterval: 1_000 });
        if (receipt.status !== "success") throw new Error("The token allowance was refused.");
      }
      setState({ kind: "busy", text: "Sending the batch…" });
      const hash = await wallet.sendTransaction({
        account,
        chain: null,
        to: transaction.to as Address,
        data: transaction.data as Hex,
        value: BigInt(transaction.value),
      });
      const reported = await report({ id: String(batchId), tx_hash: hash });
      if (!reported.ok) throw new Error(reported.error.message);
      setState({ kind: "ok", text: `Batch sent: ${hash}. Each leg settles from its receipt.` });
      router.refresh();
    } catch (error) {
      setState({ kind: "error", text: error instanceof Error ? error.message.split("\n")[0] : "The wallet refused the transaction." });
    }
  }

  return (
    <div>
      <Button type="button" small onClick={sign} disabled={state.kind === "busy"} aria-label={`Sign batch ${batchId} with my wallet`}>
        {state.kind === "busy" ? state.text : "Sign with my wallet"}
      </Button>
      {state.kind === "ok" ? <Alert kind="ok">{state.text}</Alert> : null}
      {state.kind === "error" ? <Alert kind="error">{state.text}</Alert> : null}
    </div>
  );
}
