import "server-only";
import { createWalletClient, encodeFunctionData, erc20Abi, getContractAddress, http, keccak256, toHex, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Blockchain } from "@/lib/chains/catalog";
import { devnetRpcUrl } from "@/lib/chains/catalog";
import { viemChain } from "@/lib/chains/clients";
import { payoutDisperserArtifact } from "@/lib/chains/contract-artifacts";

/** The PayoutDisperser's interface (contracts/PayoutDisperser.sol). */
export const disperserAbi = payoutDisperserArtifact.abi;

/**
 * The account that deploys the sandbox devnet's disperser: its own key, so the contract's address
 * (this account's nonce 0) never depends on what the gateway's deployer did before (ADR 0038).
 */
const devnetDisperserDeployer = privateKeyToAccount(keccak256(toHex("payment-gateway payout disperser deployer v1")));

/** Where the PayoutDisperser is on a chain; null where payouts are not available (no deployment known). */
export function disperserAddress(chain: Blockchain): Address | null {
  if (chain.isDevnet) return getContractAddress({ from: devnetDisperserDeployer.address, nonce: 0n });
  return null;
}

/**
 * On the sandbox devnet, deploys the disperser at its fixed address the first time it is needed
 * (a reset devnet loses it): funds the dedicated deployer with hardhat_setBalance and sends its
 * nonce-0 deployment. Two callers at once: the second deployment is refused (nonce used) and the
 * code is read again. Nothing on other chains.
 */
export async function ensureDisperser(chain: Blockchain, client: PublicClient): Promise<void> {
  const address = disperserAddress(chain);
  const rpcUrl = devnetRpcUrl();
  if (!chain.isDevnet || !address || !rpcUrl) return;
  const code = await client.getCode({ address });
  if (code && code !== "0x") return;
  await client.request({ method: "hardhat_setBalance" as never, params: [devnetDisperserDeployer.address, toHex(10n ** 18n)] as never });
  const wallet = createWalletClient({ account: devnetDisperserDeployer, chain: viemChain(chain), transport: http(rpcUrl) });
  try {
    const hash = await wallet.deployContract({ abi: disperserAbi, bytecode: payoutDisperserArtifact.bytecode as Hex, nonce: 0 });
    await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  } catch (error) {
    const again = await client.getCode({ address });
    if (!again || again === "0x") throw error;
  }
}

export interface BatchCall {
  id: number;
  tokenAddress: string | null;
  legs: { toAddress: string; amount: bigint }[];
}

/** The calldata of the one transaction that pays a batch: payNative (value = the total) or payToken. */
export function batchCallData(batch: BatchCall): { data: Hex; value: bigint } {
  const recipients = batch.legs.map((leg) => leg.toAddress as Address);
  const amounts = batch.legs.map((leg) => leg.amount);
  if (batch.tokenAddress) {
    return {
      data: encodeFunctionData({ abi: disperserAbi, functionName: "payToken", args: [BigInt(batch.id), batch.tokenAddress as Address, recipients, amounts] }),
      value: 0n,
    };
  }
  return {
    data: encodeFunctionData({ abi: disperserAbi, functionName: "payNative", args: [BigInt(batch.id), recipients, amounts] }),
    value: amounts.reduce((a, b) => a + b, 0n),
  };
}

/** A token batch's allowance: approve(disperser, total), signed before the batch transaction. */
export function allowanceCallData(disperser: Address, total: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [disperser, total] });
}
