"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { createWalletClient, custom, parseAbi, type Address, type EIP1193Provider, type Hex } from "viem";
import { Alert, Button } from "@/components/ui";

// DepositFactory (version 1) and DepositFactoryV2 take the same arguments under different names.
const factoryAbi = parseAbi([
  "function deployAndFlush(address destination, bytes32 salt, address[] tokens) returns (address)",
  "function flush(address destination, bytes32 salt, address[] tokens) returns (address)",
]);

/**
 * Flushes one deposit forwarder with the merchant's own browser wallet: `deployAndFlush` (`flush`
 * on a version 2 factory) may be called by anyone and can only pay the destination bound at order creation, so no trust is needed.
 */
export function FlushButton(props: { chainId: number; factory: Address; factoryVersion: number; destination: Address; salt: Hex; tokens: Address[] }) {
  const t = useTranslations("dashboard.shared.flush");
  const [state, setState] = useState<{ kind: "idle" | "busy" | "ok" | "error"; text?: string }>({ kind: "idle" });
  const ethereum = typeof window !== "undefined" ? (window as unknown as { ethereum?: EIP1193Provider }).ethereum : undefined;

  async function flush() {
    if (!ethereum) {
      setState({ kind: "error", text: t("noWallet") });
      return;
    }
    setState({ kind: "busy" });
    try {
      const wallet = createWalletClient({ transport: custom(ethereum) });
      const [account] = await wallet.requestAddresses();
      if (!account) throw new Error(t("noAccount"));
      if ((await wallet.getChainId()) !== props.chainId) await wallet.switchChain({ id: props.chainId });
      const hash = await wallet.writeContract({
        account,
        chain: null,
        address: props.factory,
        abi: factoryAbi,
        functionName: props.factoryVersion >= 2 ? "flush" : "deployAndFlush",
        args: [props.destination, props.salt, props.tokens],
      });
      setState({ kind: "ok", text: t("sent", { hash }) });
    } catch (error) {
      setState({ kind: "error", text: error instanceof Error ? error.message.split("\n")[0] : t("refused") });
    }
  }

  return (
    <div>
      <Button type="button" variant="secondary" small onClick={flush} disabled={state.kind === "busy"}>
        {state.kind === "busy" ? t("waiting") : t("flush")}
      </Button>
      {state.kind === "ok" ? <Alert kind="ok">{state.text}</Alert> : null}
      {state.kind === "error" ? <Alert kind="error">{state.text}</Alert> : null}
    </div>
  );
}
