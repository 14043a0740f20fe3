import "server-only";
import { createTestClient, http, parseAbi, type Address, type Hex } from "viem";
import type { Blockchain, TokenInfo } from "@/lib/chains/catalog";
import { chainClient, viemChain } from "@/lib/chains/clients";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetFaucet, devnetRelayer, devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { isRpcUnreachable, serialWallet, withAccountLock } from "@/lib/chains/serial-sender";
import { ApiError } from "@/lib/http/errors";
import { reorgDevnet, snapshotHead, type DevnetReorg, type OwnTransactions } from "./devnet-snapshots";

const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

function devnetOrThrow(chain: Blockchain): string {
  if (!chain.isDevnet) {
    throw new ApiError("VALIDATION_ERROR", `${chain.slug} is not on the local devnet; sandbox tools work only there.`, { blockchain: ["Not a devnet chain."] });
  }
  if (!chain.rpcUrl) throw new ApiError("SERVICE_UNAVAILABLE", "The sandbox devnet is not running.");
  return chain.rpcUrl;
}

/** The devnet answers every transaction at once (automine); a receipt that takes this long means it is gone. */
const receiptTimeoutMs = 30_000;

/** Runs a devnet call; a devnet that does not answer (stopped, restarting) becomes 503 SERVICE_UNAVAILABLE instead of a 500. */
export async function devnetCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isRpcUnreachable(error)) throw new ApiError("SERVICE_UNAVAILABLE", "The sandbox devnet did not answer; try again when it is back.");
    throw error;
  }
}

/**
 * The faucet account's wallet. Every send from it goes through its queue (lib/chains/serial-sender.ts):
 * concurrent pays and faucet drips would otherwise race on its nonce.
 */
function faucetWallet(chain: Blockchain) {
  devnetOrThrow(chain);
  return serialWallet(chain, devnetFaucet.privateKey);
}

/** A real transfer from the faucet account: native value, or test tokens minted to the faucet then transferred (a genuine Transfer from a holder). */
export async function sendFromFaucet(chain: Blockchain, token: TokenInfo, to: Address, amount: bigint): Promise<Hex> {
  const faucetAccount = faucetWallet(chain);
  const client = chainClient(chain);
  return devnetCall(() =>
    faucetAccount.run(async (wallet) => {
      // The state before the payment, for the reorg tool to go back to.
      await snapshotHead(chain, chain.rpcUrl!);
      let hash: Hex;
      if (!token.address) {
        hash = await wallet.sendTransaction({ to, value: amount });
      } else {
        const mint = await wallet.writeContract({
          address: token.address,
          abi: testTokenArtifact.abi,
          functionName: "mint",
          args: [devnetFaucet.address, amount],
        });
        await client.waitForTransactionReceipt({ hash: mint, timeout: receiptTimeoutMs });
        hash = await wallet.writeContract({ address: token.address, abi: erc20, functionName: "transfer", args: [to, amount] });
      }
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs });
      if (receipt.status !== "success") throw new ApiError("SERVICE_UNAVAILABLE", "The devnet transfer reverted.");
      return hash;
    }),
  );
}

/** Mints test tokens (or sends native coin) straight to an address. */
export async function faucet(chain: Blockchain, token: TokenInfo, to: Address, amount: bigint): Promise<Hex> {
  const faucetAccount = faucetWallet(chain);
  const client = chainClient(chain);
  return devnetCall(() =>
    faucetAccount.run(async (wallet) => {
      await snapshotHead(chain, chain.rpcUrl!);
      const hash = token.address
        ? await wallet.writeContract({ address: token.address, abi: testTokenArtifact.abi, functionName: "mint", args: [to, amount] })
        : await wallet.sendTransaction({ to, value: amount });
      await client.waitForTransactionReceipt({ hash, timeout: receiptTimeoutMs });
      return hash;
    }),
  );
}

/**
 * Mines `blocks` empty blocks (simulated confirmations); returns the new head. They share one
 * timestamp (interval 0), so mining never moves chain time ahead of the wall clock: a sandbox
 * payment made just before expiry is not judged late by a block stamped in the future.
 */
export async function mineBlocks(chain: Blockchain, blocks: number): Promise<bigint> {
  const rpcUrl = devnetOrThrow(chain);
  await snapshotHead(chain, rpcUrl);
  await createTestClient({ mode: "hardhat", chain: viemChain(chain), transport: http(rpcUrl) }).mine({ blocks, interval: 0 });
  return chainClient(chain).getBlockNumber({ cacheTime: 0 });
}

/**
 * Replaces the devnet's newest blocks (at least `depth`) with a longer branch holding again every
 * transaction of them but the asking merchant's (`own`); lib/sandbox/devnet-snapshots.ts. The
 * gateway's own devnet accounts (faucet, sweeper, relayer) send nothing meanwhile: a send between
 * the revert and the replay would take a nonce a re-mined transaction needs.
 */
export async function reorgBlocks(chain: Blockchain, depth: number, own: OwnTransactions): Promise<DevnetReorg> {
  const rpcUrl = devnetOrThrow(chain);
  // The accounts' locks taken in one order (each is only ever held alone elsewhere).
  const underLocks = [devnetFaucet, devnetSweeper, devnetRelayer].reduceRight<() => Promise<DevnetReorg>>(
    (work, account) => () => withAccountLock(rpcUrl, account.address, work),
    () => reorgDevnet(chain, rpcUrl, depth, own),
  );
  return underLocks();
}
