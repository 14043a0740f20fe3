import { createPublicClient, createWalletClient, erc20Abi, http, parseEther, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { measureGaslessGas } from "@/lib/gasless/measure-gas";
import { devnetContracts } from "@/lib/chains/catalog";
import * as artifacts from "@/lib/chains/contract-artifacts";
import { computeDepositAddress, newOrderSalt } from "@/lib/chains/deposit-address";
import { devnetAccounts, devnetChain, startDevnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";

/**
 * `npm run bench -- gas` (issue 30): on one devnet, in one run, the gas of a plain ERC-20 and a
 * plain ETH transfer (the floor), of the customer's payment to a deposit address, and the gateway's
 * gas per payment to sweep it, at batch sizes 1, 5, 20 and 100, each also as a ratio to the plain
 * transfer of the same asset (a transfer to a fresh address, as the customer's payment is). Merchants' wallets already hold the asset (they were paid before),
 * and each batch pays four merchants in turn, as a sweeper's batch of one chain would. Then a payout
 * batch's gas per leg (issue 54) at the same sizes.
 */
const batchSizes = [1, 5, 20, 100];
const merchantCount = 4;
const tokenAmount = 25_000_000n; // 25 USDC
const nativeAmount = parseEther("0.01");

type Asset = "erc20" | "native";

/** One way the gateway sweeps: deploys its contracts on the devnet and sweeps a batch of deposits, returning the gas used in all. */
interface SweepStrategy {
  name: string;
  factory: Address;
  implementation: Address;
  sweep(deposits: Array<{ destination: Address; salt: Hex }>, asset: Asset): Promise<bigint>;
}

export async function runGasBench(): Promise<void> {
  const devnet = await startDevnet();
  try {
    await ensureGatewayContracts(devnet.rpcUrl);
    const transport = http(devnet.rpcUrl);
    const client = createPublicClient({ chain: devnetChain, transport, pollingInterval: 50 }) as PublicClient;
    const wallet = (index: number) => createWalletClient({ account: privateKeyToAccount(devnetAccounts[index]!.privateKey), chain: devnetChain, transport });
    const customer = wallet(3);
    const sweeper = wallet(2);
    const usdc = devnetContracts.USDC;
    const gasOf = async (hash: Hex) => {
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`bench transaction ${hash} reverted`);
      return receipt.gasUsed;
    };

    await gasOf(
      await customer.writeContract({ address: usdc, abi: artifacts.testTokenArtifact.abi, functionName: "mint", args: [customer.account.address, 10n ** 15n] }),
    );
    const merchantsWallets = Array.from({ length: merchantCount }, () => privateKeyToAccount(newOrderSalt()).address);
    for (const merchant of merchantsWallets) {
      await gasOf(await customer.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [merchant, tokenAmount] }));
      await gasOf(await customer.sendTransaction({ to: merchant, value: nativeAmount }));
    }

    const fresh = () => privateKeyToAccount(newOrderSalt()).address;
    const plainToken = await gasOf(await customer.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [fresh(), tokenAmount] }));
    const plainNative = await gasOf(await customer.sendTransaction({ to: fresh(), value: nativeAmount }));
    const floor = (asset: Asset) => (asset === "erc20" ? plainToken : plainNative);
    const ratio = (gas: bigint, asset: Asset) => (Number(gas) / Number(floor(asset))).toFixed(2);

    const strategies = await sweepStrategies(client, sweeper, gasOf);
    const payments: Record<Asset, bigint[]> = { erc20: [], native: [] };
    const rows: Array<{ label: string; gas: bigint | null; asset: Asset }> = [
      { label: "plain ERC-20 transfer (floor)", gas: plainToken, asset: "erc20" },
      { label: "plain ETH transfer (floor)", gas: plainNative, asset: "native" },
    ];
    const sweepRows: typeof rows = [];
    for (const strategy of strategies) {
      for (const asset of ["erc20", "native"] as const) {
        for (const size of batchSizes) {
          const deposits = Array.from({ length: size }, (_, i) => ({ destination: merchantsWallets[i % merchantCount]!, salt: newOrderSalt() }));
          for (const deposit of deposits) {
            const address = computeDepositAddress({ factory: strategy.factory, implementation: strategy.implementation, ...deposit });
            const hash =
              asset === "erc20"
                ? await customer.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [address, tokenAmount] })
                : await customer.sendTransaction({ to: address, value: nativeAmount });
            payments[asset].push(await gasOf(hash));
          }
          const total = await strategy.sweep(deposits, asset);
          sweepRows.push({
            label: `${strategy.name} sweep, ${asset === "erc20" ? "ERC-20" : "native"}, batch ${size}, per payment`,
            gas: total / BigInt(size),
            asset,
          });
        }
      }
    }
    const average = (values: bigint[]) => values.reduce((a, b) => a + b, 0n) / BigInt(values.length);
    rows.push({ label: "customer's ERC-20 payment to a deposit address", gas: average(payments.erc20), asset: "erc20" });
    rows.push({ label: "customer's ETH payment to a deposit address", gas: average(payments.native), asset: "native" });
    rows.push(...sweepRows);
    rows.push({
      label: "gasless ERC-20 payment (EIP-3009 relay), relayer's gas",
      gas: (await measureGaslessGas(devnet.rpcUrl)).relayedTransfer,
      asset: "erc20",
    });
    rows.push(...(await payoutRows(client, customer, gasOf, fresh)));

    console.log("\n== gas (devnet, one run; ratio to the plain transfer of the same asset) ==");
    const width = Math.max(...rows.map((row) => row.label.length));
    for (const row of rows) {
      const figures = row.gas === null ? "n/a" : `${row.gas.toString().padStart(8)} gas  ${ratio(row.gas, row.asset).padStart(5)}x`;
      console.log(`${row.label.padEnd(width)}  ${figures}`);
    }
  } finally {
    await devnet.stop();
  }
}

type Wallet = ReturnType<typeof createWalletClient> & { account: { address: Address } };

/**
 * Issue 54: a payout batch through the PayoutDisperser (lib/payouts), per leg, at the same batch
 * sizes, to fresh recipients; the ERC-20 allowance is given once beforehand (a merchant approves
 * the contract once per batch or for many) and not counted.
 */
async function payoutRows(
  client: PublicClient,
  payer: Wallet,
  gasOf: (hash: Hex) => Promise<bigint>,
  fresh: () => Address,
): Promise<Array<{ label: string; gas: bigint; asset: Asset }>> {
  const deployed = await client.waitForTransactionReceipt({
    hash: await payer.deployContract({
      chain: devnetChain,
      account: payer.account,
      abi: artifacts.payoutDisperserArtifact.abi,
      bytecode: artifacts.payoutDisperserArtifact.bytecode,
    }),
  });
  const disperser = deployed.contractAddress!;
  await gasOf(
    await payer.writeContract({
      chain: devnetChain,
      account: payer.account,
      address: devnetContracts.USDC,
      abi: erc20Abi,
      functionName: "approve",
      args: [disperser, 2n ** 255n],
    }),
  );
  const rows: Array<{ label: string; gas: bigint; asset: Asset }> = [];
  for (const asset of ["erc20", "native"] as const) {
    for (const [i, size] of batchSizes.entries()) {
      const recipients = Array.from({ length: size }, fresh);
      const amounts = recipients.map(() => (asset === "erc20" ? tokenAmount : nativeAmount));
      const hash =
        asset === "erc20"
          ? await payer.writeContract({
              chain: devnetChain,
              account: payer.account,
              address: disperser,
              abi: artifacts.payoutDisperserArtifact.abi,
              functionName: "payToken",
              args: [BigInt(i + 1), devnetContracts.USDC, recipients, amounts],
            })
          : await payer.writeContract({
              chain: devnetChain,
              account: payer.account,
              address: disperser,
              abi: artifacts.payoutDisperserArtifact.abi,
              functionName: "payNative",
              args: [BigInt(i + 1), recipients, amounts],
              value: nativeAmount * BigInt(size),
            });
      rows.push({ label: `payout batch, ${asset === "erc20" ? "ERC-20" : "native"}, ${size} legs, per leg`, gas: (await gasOf(hash)) / BigInt(size), asset });
    }
  }
  return rows;
}

async function sweepStrategies(client: PublicClient, sweeper: Wallet, gasOf: (hash: Hex) => Promise<bigint>): Promise<SweepStrategy[]> {
  const catalogTokens = [devnetContracts.USDC, devnetContracts.USDT];
  // Today's factory: one deployAndFlush per payment, with every catalog token (as lib/chains/sweeper.ts sends it).
  const single: SweepStrategy = {
    name: "v1 (one transaction per payment)",
    factory: devnetContracts.factory,
    implementation: devnetContracts.implementation,
    async sweep(deposits) {
      let total = 0n;
      for (const deposit of deposits) {
        const hash = await sweeper.writeContract({
          chain: devnetChain,
          account: sweeper.account,
          address: devnetContracts.factory,
          abi: artifacts.depositFactoryArtifact.abi,
          functionName: "deployAndFlush",
          args: [deposit.destination, deposit.salt, catalogTokens],
        });
        total += await gasOf(hash);
      }
      return total;
    },
  };
  // DepositFactoryV2: one flushBatch for the whole batch, listing only the batch's asset (as the sweeper groups it).
  const batched: SweepStrategy = {
    name: "v2 (flushBatch)",
    factory: devnetContracts.factoryV2,
    implementation: devnetContracts.implementationV2,
    async sweep(deposits, asset) {
      const hash = await sweeper.writeContract({
        chain: devnetChain,
        account: sweeper.account,
        address: devnetContracts.factoryV2,
        abi: artifacts.depositFactoryV2Artifact.abi,
        functionName: "flushBatch",
        args: [deposits, asset === "erc20" ? [devnetContracts.USDC] : [], 400_000n],
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      const failed = receipt.logs.filter((entry) => entry.address.toLowerCase() === devnetContracts.factoryV2.toLowerCase()).length;
      if (failed > 0) throw new Error(`flushBatch: ${failed} deposits failed`);
      return gasOf(hash);
    },
  };
  return [single, batched];
}
