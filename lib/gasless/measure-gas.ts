import { createPublicClient, createWalletClient, http, parseEther, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devnetContracts } from "@/lib/chains/catalog";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { eip3009Abi, transferAuthorizationTypedData } from "./typed-data";

export interface GaslessGas {
  /** A customer's own ERC-20 transfer to a new address (the floor a customer with gas pays). */
  plainTransfer: bigint;
  /** The relayer's transferWithAuthorization of the same amount to a new address (what a gasless payment costs the gateway). */
  relayedTransfer: bigint;
}

/**
 * Measures the gasless path on a devnet with the gateway contracts deployed (the devnet's USDC,
 * contracts/TestToken.sol): one plain transfer and one relayed transferWithAuthorization, each of
 * 12.5 USDC from a wallet with a balance already to an address that had none (the payment's case:
 * a fresh deposit address). For `npm run bench -- gas` / `-- gasless`.
 */
export async function measureGaslessGas(rpcUrl: string): Promise<GaslessGas> {
  const transport = http(rpcUrl);
  const client = createPublicClient({ chain: devnetChain, transport, pollingInterval: 50 });
  // hardhat accounts 3 (used by no gateway role: 0 deploys, 1 faucet, 2 sweeper) and 4 (the sandbox's relayer).
  const funder = createWalletClient({ account: privateKeyToAccount(devnetAccounts[3].privateKey), chain: devnetChain, transport });
  const relayer = createWalletClient({ account: privateKeyToAccount(devnetAccounts[4].privateKey), chain: devnetChain, transport });
  const token = devnetContracts.USDC;
  const amount = 12_500_000n;
  const gasOf = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`measured transaction ${hash} reverted`);
    return receipt.gasUsed;
  };
  const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;

  const payer = privateKeyToAccount(generatePrivateKey());
  const payerWallet = createWalletClient({ account: payer, chain: devnetChain, transport });
  await gasOf(await funder.writeContract({ address: token, abi: testTokenArtifact.abi, functionName: "mint", args: [payer.address, amount * 10n] }));
  await gasOf(await funder.sendTransaction({ to: payer.address, value: parseEther("1") }));

  const plainTransfer = await gasOf(
    await payerWallet.writeContract({ address: token, abi: testTokenArtifact.abi, functionName: "transfer", args: [fresh(), amount] }),
  );

  const validAfter = 0n;
  const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const message = { from: payer.address, to: fresh(), value: amount, validAfter, validBefore, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
  const signature = await payer.signTypedData(
    transferAuthorizationTypedData({ name: "USD Coin", version: "2", chainId: devnetChain.id, verifyingContract: token }, message),
  );
  const v = Number.parseInt(signature.slice(130, 132), 16);
  const r = `0x${signature.slice(2, 66)}` as Hex;
  const s = `0x${signature.slice(66, 130)}` as Hex;
  const relayedTransfer = await gasOf(
    await relayer.writeContract({
      address: token,
      abi: eip3009Abi,
      functionName: "transferWithAuthorization",
      args: [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, v, r, s],
    }),
  );
  return { plainTransfer, relayedTransfer };
}
