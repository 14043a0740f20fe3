import "server-only";
import { erc20Abi, parseGwei, type Address, type Hex, type PublicClient } from "viem";
import type { PaymentOrder } from "@/lib/db/schema";
import { env } from "@/lib/env";
import type { Blockchain } from "./catalog";
import { depositFactoryArtifact, depositFactoryV2Artifact } from "./contract-artifacts";

/**
 * What the sweeper will pay for (issue 13, gas griefing). The forwarder's flush sends the coin
 * with a plain call to the merchant's destination, which may be a contract that burns whatever
 * gas it is given. So every sweep is estimated first (a revert costs nothing: no transaction is
 * sent), refused above `maxGas`, and sent with an explicit gas limit; on live networks a sweep
 * whose value is below its gas cost is skipped (the merchant can flush it themselves), and each
 * merchant gets at most `perMerchantPerHour` sweeps.
 */
export interface SweepPolicy {
  maxGas: bigint;
  /** Skip native sweeps worth less than this many times their gas cost (0: never skip). */
  minValueGasMultiple: number;
  /** Skip token sweeps below this many whole tokens (the catalog's tokens are stablecoins). */
  minTokenUnits: number;
  /** Sweeps per merchant per hour; 0: unlimited. */
  perMerchantPerHour: number;
  /** DepositFactoryV2 orders: most deposits in one flushBatch transaction. */
  batchSize: number;
  /** How long a due sweep waits for its batch to fill before the batch goes as it is (0: at once). */
  batchMaxWaitMs: number;
  /** No sweep is sent while the chain's gas price is above this (wei); null: no ceiling of its own. */
  maxGasPrice: bigint | null;
}

/** The running deployment's policy. The devnet's gas is free, so only the gas cap applies there. */
export function sweepPolicy(chain: Blockchain): SweepPolicy {
  const maxGas = BigInt(env.SWEEP_MAX_GAS);
  const batchSize = env.SWEEP_BATCH_SIZE;
  if (chain.isDevnet) return { maxGas, minValueGasMultiple: 0, minTokenUnits: 0, perMerchantPerHour: 0, batchSize, batchMaxWaitMs: 0, maxGasPrice: null };
  return {
    maxGas,
    minValueGasMultiple: env.SWEEP_MIN_VALUE_GAS_MULTIPLE,
    minTokenUnits: env.SWEEP_MIN_TOKEN_UNITS,
    perMerchantPerHour: env.SWEEPS_PER_MERCHANT_PER_HOUR,
    batchSize,
    batchMaxWaitMs: env.SWEEP_BATCH_MAX_WAIT_SECONDS * 1000,
    maxGasPrice: env.SWEEP_MAX_GAS_PRICE_GWEI === undefined ? null : parseGwei(String(env.SWEEP_MAX_GAS_PRICE_GWEI)),
  };
}

export type SweepPlan = { send: true; gas: bigint; args: readonly [Address, Hex, Address[]] } | { send: false; reason: string };

/**
 * Estimates the sweep and decides whether it is worth sending. The flush takes the native balance
 * and every catalog token of the chain (another asset sent to an order is the merchant's too), so
 * a sweep is worth sending when any one of them is. Throws when the estimate reverts (retried
 * later, for free). A DepositFactoryV2 order is estimated with its factory's single `flush` and
 * lists only the tokens the deposit holds (each listed token costs a balance read per deposit).
 */
export async function planSweep(client: PublicClient, from: Address, order: PaymentOrder, chain: Blockchain, policy: SweepPolicy): Promise<SweepPlan> {
  const tokens = chain.tokens.flatMap((t) => (t.address ? [{ address: t.address as Address, decimals: t.decimals, symbol: t.symbol }] : []));
  const deposit = order.receivingAddress as Address;
  const [gasPrice, native, ...tokenBalances] = await Promise.all([
    client.getGasPrice(),
    client.getBalance({ address: deposit }),
    ...tokens.map((t) => client.readContract({ address: t.address, abi: erc20Abi, functionName: "balanceOf", args: [deposit] })),
  ]);
  const flushed = order.depositFactoryVersion >= 2 ? tokens.filter((_, i) => tokenBalances[i]! > 0n) : tokens;
  const args = [order.depositDestination as Address, order.depositSalt as Hex, flushed.map((t) => t.address)] as const;
  const gas =
    order.depositFactoryVersion >= 2
      ? await client.estimateContractGas({
          address: order.depositFactory as Address,
          abi: depositFactoryV2Artifact.abi,
          functionName: "flush",
          args: [...args] as never,
          account: from,
        })
      : await client.estimateContractGas({
          address: order.depositFactory as Address,
          abi: depositFactoryArtifact.abi,
          functionName: "deployAndFlush",
          args: [...args] as never,
          account: from,
        });
  if (gas > policy.maxGas)
    return { send: false, reason: `Sweep needs ${gas} gas, above the cap of ${policy.maxGas} (the destination may burn gas); flush it yourself.` };
  if (native === 0n && tokenBalances.every((b) => b === 0n)) return { send: false, reason: "Nothing to sweep: the deposit address holds no balance." };
  const cost = gas * gasPrice;
  const nativeWorthIt = native > 0n && (policy.minValueGasMultiple <= 0 || native * 100n >= cost * BigInt(Math.round(policy.minValueGasMultiple * 100)));
  const tokenWorthIt = tokens.some(
    (t, i) => tokenBalances[i]! > 0n && (policy.minTokenUnits <= 0 || tokenBalances[i]! >= BigInt(policy.minTokenUnits) * 10n ** BigInt(t.decimals)),
  );
  if (!nativeWorthIt && !tokenWorthIt) {
    const reason = tokenBalances.some((b) => b > 0n)
      ? `Below the sweep minimum of ${policy.minTokenUnits} tokens; flush it yourself.`
      : `Worth less than the gas to sweep it (${native} wei against about ${cost} wei); flush it yourself.`;
    return { send: false, reason };
  }
  // A little headroom over the estimate, never above the cap.
  const limit = (gas * 12n) / 10n;
  return { send: true, gas: limit > policy.maxGas ? policy.maxGas : limit, args: [args[0], args[1], [...args[2]]] };
}
