import "server-only";
import { createTestClient, createWalletClient, http, parseAbi, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Blockchain, TokenInfo } from "@/lib/chains/catalog";
import { chainClient, viemChain } from "@/lib/chains/clients";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetFaucet } from "@/lib/chains/sandbox-devnet";
import { ApiError } from "@/lib/http/errors";

const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

function devnetOrThrow(chain: Blockchain): string {
  if (!chain.isDevnet) {
    throw new ApiError("VALIDATION_ERROR", `${chain.slug} is not on the local devnet; sandbox tools work only there.`, { blockchain: ["Not a devnet chain."] });
  }
  if (!chain.rpcUrl) throw new ApiError("SERVICE_UNAVAILABLE", "The sandbox devnet is not running.");
  return chain.rpcUrl;
}

function faucetWallet(chain: Blockchain, rpcUrl: string) {
  return createWalletClient({ account: privateKeyToAccount(devnetFaucet.privateKey), chain: viemChain(chain), transport: http(rpcUrl) });
}

/** A real transfer from the faucet account: native value, or test tokens minted to the faucet then transferred (a genuine Transfer from a holder). */
export async function sendFromFaucet(chain: Blockchain, token: TokenInfo, to: Address, amount: bigint): Promise<Hex> {
  const rpcUrl = devnetOrThrow(chain);
  const wallet = faucetWallet(chain, rpcUrl);
  const client = chainClient(chain);
  let hash: Hex;
  if (!token.address) {
    hash = await wallet.sendTransaction({ to, value: amount });
  } else {
    const mint = await wallet.writeContract({ address: token.address, abi: testTokenArtifact.abi, functionName: "mint", args: [devnetFaucet.address, amount] });
    await client.waitForTransactionReceipt({ hash: mint });
    hash = await wallet.writeContract({ address: token.address, abi: erc20, functionName: "transfer", args: [to, amount] });
  }
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new ApiError("SERVICE_UNAVAILABLE", "The devnet transfer reverted.");
  return hash;
}

/** Mints test tokens (or sends native coin) straight to an address. */
export async function faucet(chain: Blockchain, token: TokenInfo, to: Address, amount: bigint): Promise<Hex> {
  const rpcUrl = devnetOrThrow(chain);
  const wallet = faucetWallet(chain, rpcUrl);
  const hash = token.address
    ? await wallet.writeContract({ address: token.address, abi: testTokenArtifact.abi, functionName: "mint", args: [to, amount] })
    : await wallet.sendTransaction({ to, value: amount });
  await chainClient(chain).waitForTransactionReceipt({ hash });
  return hash;
}

/**
 * Mines `blocks` empty blocks (simulated confirmations); returns the new head. They share one
 * timestamp (interval 0), so mining never moves chain time ahead of the wall clock: a sandbox
 * payment made just before expiry is not judged late by a block stamped in the future.
 */
export async function mineBlocks(chain: Blockchain, blocks: number): Promise<bigint> {
  const rpcUrl = devnetOrThrow(chain);
  await createTestClient({ mode: "hardhat", chain: viemChain(chain), transport: http(rpcUrl) }).mine({ blocks, interval: 0 });
  return chainClient(chain).getBlockNumber({ cacheTime: 0 });
}
