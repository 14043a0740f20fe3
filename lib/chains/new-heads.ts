import "server-only";
import { createPublicClient, webSocket, type PublicClient } from "viem";
import { log } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { backoffDelayMs } from "@/lib/jobs/run-policy";
import type { Blockchain } from "./catalog";
import { viemChain } from "./clients";

/** The first wait before the socket is opened again after it failed; it doubles on each failure in a row, up to `newHeadsReconnectCapMs`. */
export const newHeadsReconnectDelayMs = 2_000;
export const newHeadsReconnectCapMs = 30_000;

export interface NewHeadsOptions {
  /** Also call `onHead` with the head as the subscription starts (and each time it is opened again). */
  emitOnBegin?: boolean;
  /**
   * Called when the subscription fails (the socket closed, the provider refused): until it
   * announces a head again, blocks may pass unannounced, so whoever sleeps on it must look.
   */
  onDown?: () => void;
  /** The first wait before reconnecting (tests shorten it). */
  reconnectDelayMs?: number;
}

interface Subscriber {
  chain: Blockchain;
  onHead: (blockNumber: bigint) => void;
  options: NewHeadsOptions;
  down: boolean;
  unwatch?: () => void;
}

/**
 * One WebSocket per provider URL (viem shares a socket between clients of one URL anyway, so the
 * chains on it go down and come back together). viem's own reconnection is off: it gives up after
 * one failed attempt (the failed socket's error and close both arrive while that attempt is still
 * in progress, so no further attempt is scheduled), which left a subscription dead for good after
 * any outage of more than two seconds. Here the socket is opened again, under a backoff, for as long
 * as anyone is subscribed; each opening subscribes every chain on it again and reads its head.
 */
interface HeadsSocket {
  url: string;
  subscribers: Set<Subscriber>;
  client: PublicClient | null;
  /** Bumped on each opening: errors of a socket already replaced are not this one's. */
  generation: number;
  failures: number;
  reopenTimer: NodeJS.Timeout | null;
}

const sockets = () => processSingleton("newHeadsSockets", () => new Map<string, HeadsSocket>());

/** Closes the client's socket, which takes it out of viem's cache of sockets by URL, so the next opening makes a new one. */
async function closeClient(client: PublicClient | null): Promise<void> {
  await client?.transport
    .getRpcClient?.()
    .then((rpc: { close(): void }) => rpc.close())
    .catch(() => {});
}

function watch(socket: HeadsSocket, subscriber: Subscriber): void {
  const { client, generation } = socket;
  if (!client) return;
  subscriber.unwatch = client.watchBlockNumber({
    onBlockNumber: (head) => {
      if (generation !== socket.generation) return;
      if (subscriber.down) log.info("newHeads subscription back", { chain: subscriber.chain.slug });
      subscriber.down = false;
      socket.failures = 0;
      subscriber.onHead(head);
    },
    onError: (error) => {
      if (generation !== socket.generation) return;
      if (!subscriber.down) log.warn("newHeads subscription down; reconnecting", { chain: subscriber.chain.slug, error: error.message });
      subscriber.down = true;
      subscriber.options.onDown?.();
      scheduleReopen(socket, subscriber.options.reconnectDelayMs ?? newHeadsReconnectDelayMs);
    },
  });
  if (subscriber.options.emitOnBegin)
    client.getBlockNumber().then(
      (head) => generation === socket.generation && subscriber.onHead(head),
      (error: Error) => log.debug("newHeads: could not read the head", { chain: subscriber.chain.slug, error: error.message }),
    );
}

function open(socket: HeadsSocket, chain: Blockchain): void {
  socket.generation += 1;
  socket.client = createPublicClient({ chain: viemChain(chain), transport: webSocket(socket.url, { retryCount: 0, reconnect: false }) }) as PublicClient;
  for (const subscriber of socket.subscribers) watch(socket, subscriber);
}

function scheduleReopen(socket: HeadsSocket, baseMs: number): void {
  if (socket.reopenTimer) return;
  socket.failures += 1;
  const waitMs = backoffDelayMs(socket.failures, { baseMs, capMs: Math.max(baseMs, newHeadsReconnectCapMs) });
  socket.reopenTimer = setTimeout(() => {
    socket.reopenTimer = null;
    const first = socket.subscribers.values().next().value;
    if (!first) return;
    for (const subscriber of socket.subscribers) subscriber.unwatch?.();
    const stale = socket.client;
    socket.client = null;
    socket.generation += 1; // the old socket's closing is not a new failure
    // Opened only once the old socket is closed: until then viem would hand the dead one out again.
    void closeClient(stale).then(() => {
      if (socket.subscribers.size > 0 && sockets().get(socket.url) === socket) open(socket, first.chain);
    });
  }, waitMs);
  socket.reopenTimer.unref?.();
}

/**
 * Calls `onHead` on every new block announced over WebSocket (eth_subscribe newHeads), where the
 * chain has a WebSocket RPC. Polling stays the backstop: this only makes the scanner look sooner.
 * Returns the unsubscribe function (a no-op without WebSocket).
 */
export function subscribeNewHeads(chain: Blockchain, onHead: (blockNumber: bigint) => void, options: NewHeadsOptions = {}): () => void {
  const url = chain.wsUrl;
  if (!url) return () => {};
  const all = sockets();
  let socket = all.get(url);
  const subscriber: Subscriber = { chain, onHead, options, down: false };
  if (!socket) {
    socket = { url, subscribers: new Set([subscriber]), client: null, generation: 0, failures: 0, reopenTimer: null };
    all.set(url, socket);
    open(socket, chain);
  } else {
    socket.subscribers.add(subscriber);
    watch(socket, subscriber);
  }
  const joined = socket;
  return () => {
    subscriber.unwatch?.();
    joined.subscribers.delete(subscriber);
    if (joined.subscribers.size > 0) return;
    if (joined.reopenTimer) clearTimeout(joined.reopenTimer);
    joined.generation += 1;
    void closeClient(joined.client);
    all.delete(url);
  };
}
