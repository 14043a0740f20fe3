import { afterAll, expect, test } from "vitest";
import { publicActions } from "viem";
import { subscribeNewHeads } from "@/lib/chains/new-heads";
import { freePort } from "../helpers/server";
import { setupTestDevnet } from "../helpers/devnet";
import { TcpProxy } from "../helpers/tcp-proxy";

// The newHeads subscription against a provider that goes away for longer than viem's own
// reconnection lasts (it gives up after one failed attempt), the node reached through a proxy.
const devnet = setupTestDevnet();
let proxy: TcpProxy | undefined;
let unsubscribe: (() => void) | undefined;
afterAll(async () => {
  unsubscribe?.();
  await proxy?.close();
});

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("a subscription that goes down says so at once, keeps reconnecting after failed attempts, and announces heads again once the provider is back", async () => {
  proxy = new TcpProxy(await freePort(), Number(new URL(devnet.rpcUrl).port));
  await proxy.open();
  const chain = { ...devnet.chain("base"), wsUrl: proxy.url.replace(/^http/, "ws") };
  const heads: bigint[] = [];
  let downs = 0;
  unsubscribe = subscribeNewHeads(chain, (head) => heads.push(head), { emitOnBegin: true, onDown: () => downs++, reconnectDelayMs: 100 });
  await until("the head the subscription starts at", () => heads.length > 0);
  await devnet.testClient().mine({ blocks: 1 });
  await until("a mined block announced", () => heads.length > 1);
  expect(downs).toBe(0);

  await proxy.close();
  await until("the subscription reported down", () => downs > 0);
  // Each failed attempt reports down again: several in a row.
  await until("several failed reconnections", () => downs >= 5);
  await devnet.testClient().mine({ blocks: 1 }); // a block nobody announces while the provider is away
  const minedWhileDown = await devnet.testClient().extend(publicActions).getBlockNumber();

  await proxy.open();
  // Opened again, the subscription reads the head it starts at: the block mined meanwhile is announced with no new one.
  await until("the head mined while down, announced once the provider is back", () => heads.at(-1)! >= minedWhileDown);
  const count = heads.length;
  await devnet.testClient().mine({ blocks: 1 });
  await until("the next block announced", () => heads.length > count);
  expect(heads.at(-1)).toBe(minedWhileDown + 1n);
});
