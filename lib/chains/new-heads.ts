import "server-only";
import { createPublicClient, webSocket } from "viem";
import { log } from "@/lib/log";
import type { Blockchain } from "./catalog";
import { viemChain } from "./clients";

/**
 * Calls `onHead` on every new block announced over WebSocket (eth_subscribe newHeads), where the
 * chain has a WebSocket RPC. Polling stays the backstop: this only makes the scanner look sooner.
 * With `emitOnBegin`, `onHead` also gets the head as the subscription starts. Returns the
 * unsubscribe function (a no-op without WebSocket).
 */
export function subscribeNewHeads(chain: Blockchain, onHead: (blockNumber: bigint) => void, options: { emitOnBegin?: boolean } = {}): () => void {
  if (!chain.wsUrl) return () => {};
  const client = createPublicClient({ chain: viemChain(chain), transport: webSocket(chain.wsUrl, { retryCount: 5, reconnect: true }) });
  const unwatch = client.watchBlockNumber({
    onBlockNumber: onHead,
    onError: (error) => log.warn("newHeads subscription error", { chain: chain.slug, error: error.message }),
  });
  // viem's emitOnBegin applies to polling only: the head the subscription starts at is read here.
  if (options.emitOnBegin)
    client.getBlockNumber().then(onHead, (error: Error) => log.warn("newHeads: could not read the head", { chain: chain.slug, error: error.message }));
  return () => {
    unwatch();
    void client.transport
      .getRpcClient?.()
      .then((rpc: { close(): void }) => rpc.close())
      .catch(() => {});
  };
}
