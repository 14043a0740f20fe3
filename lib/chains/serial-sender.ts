import "server-only";
import { createWalletClient, http, type Account, type Chain, type Hex, type Transport, type WalletClient } from "viem";
import { parseAccount, privateKeyToAccount } from "viem/accounts";
import type { Blockchain } from "./catalog";
import { processSingleton } from "@/lib/process-singleton";
import { viemChain } from "./clients";

/**
 * Runs `work` alone for one sending account on one RPC endpoint: callers queue in arrival order and
 * each starts only when the previous one has finished (sent *and* waited for its receipts). Two
 * sends from one account at once race on its nonce ("nonce too low"), and a mint followed by a
 * transfer must not interleave with another pair; a per-account lock around "send + wait" rules
 * out both. The key is the RPC URL, not the chain id, because every sandbox slug shares one devnet
 * (and so one nonce per account). In-process only: across instances, the gateway's key picks its
 * nonces under its nonce lock (lib/chains/nonce-lock.ts, taken inside this one).
 */
export async function withAccountLock<T>(rpcUrl: string, address: string, work: () => Promise<T>): Promise<T> {
  // Next.js may load this module more than once (instrumentation's job loops vs. route bundles):
  // the queues are process-wide, so the sweeper and the sandbox tools share them.
  const queues = processSingleton("accountQueues", () => new Map<string, Promise<void>>());
  const key = `${rpcUrl}|${address.toLowerCase()}`;
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  await previous;
  try {
    return await work();
  } finally {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

export type AccountWallet = WalletClient<Transport, Chain, Account>;

/** A wallet for `privateKey` on `chain` whose every use goes through the account's queue (`withAccountLock`). */
export interface SerialWallet {
  address: Hex;
  /** Runs `work` (send, then wait for the receipt) while no other send from this account is in flight. */
  run<T>(work: (wallet: AccountWallet) => Promise<T>): Promise<T>;
}

/**
 * The one way the gateway sends transactions from its own keys (sandbox faucet, sweeper). On the
 * devnet the node holds the key (hardhat unlocks the mnemonic's accounts) and the wallet sends with
 * eth_sendTransaction without a nonce: the node assigns it while it handles requests one at a time,
 * so two app instances sharing one devnet never race on it (with a local key, each instance reads
 * the same pending nonce and one of them gets "nonce too low"). Elsewhere the key signs locally.
 */
export function serialWallet(chain: Blockchain, privateKey: Hex): SerialWallet {
  if (!chain.rpcUrl) throw new Error(`No RPC URL configured for ${chain.slug}`);
  const rpcUrl = chain.rpcUrl;
  const localAccount = privateKeyToAccount(privateKey);
  const account: Account = chain.isDevnet ? parseAccount(localAccount.address) : localAccount;
  const wallet = createWalletClient({ account, chain: viemChain(chain), transport: http(rpcUrl) });
  return {
    address: localAccount.address,
    run: (work) => withAccountLock(rpcUrl, localAccount.address, () => work(wallet)),
  };
}

/**
 * Whether an RPC failure means the node did not answer (refused, reset, timed out) rather than
 * answering with an error (a receipt that never came counts too): walks the error's cause chain for
 * viem's transport errors and Node's socket codes.
 */
export function isRpcUnreachable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 10; depth++) {
    if (typeof e !== "object") return false;
    const { name, code, message } = e as { name?: string; code?: string; message?: string };
    if (
      name === "HttpRequestError" ||
      name === "TimeoutError" ||
      name === "WebSocketRequestError" ||
      name === "SocketClosedError" ||
      name === "WaitForTransactionReceiptTimeoutError"
    )
      return true;
    if (code && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/.test(code)) return true;
    if (typeof message === "string" && /fetch failed|socket hang up/i.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
