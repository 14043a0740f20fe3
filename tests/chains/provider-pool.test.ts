/**
 * Several providers for one chain, through real misbehaving JSON-RPC proxies in front of the
 * devnet: a 429 puts a provider aside for its Retry-After and the calls go to the other; a
 * provider that hangs or fails is put aside; the request budget caps what one provider receives;
 * the head is one both providers have reached; the health figures say all of it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createChainClient } from "@/lib/chains/clients";
import { createProviderPool, retryAfterMs } from "@/lib/chains/provider-pool";
import { setupTestDevnet } from "../helpers/devnet";
import { startRpcProxy, type RpcProxy } from "../helpers/rpc-proxy";

const net = setupTestDevnet();
let a: RpcProxy;
let b: RpcProxy;
beforeAll(async () => {
  a = await startRpcProxy(net.rpcUrl);
  b = await startRpcProxy(net.rpcUrl);
});
afterAll(async () => {
  await a.close();
  await b.close();
});
afterEach(() => {
  for (const proxy of [a, b]) {
    proxy.behave(() => "forward");
    proxy.lagHead(0);
    proxy.resetCounts();
  }
});

async function until(condition: () => boolean, boundMs: number) {
  const deadline = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const blockCalls = (proxy: RpcProxy) => proxy.calls.filter((c) => c.method === "eth_getBlockByNumber").length;

describe("provider pool", () => {
  test("a 429 with Retry-After puts the provider aside for that long; the calls go to the other, then back", async () => {
    const pool = createProviderPool([a.url, b.url], { cooldownMs: 100 });
    const client = createChainClient(net.chain(), pool.transport);
    a.behave(() => ({ httpStatus: 429, retryAfterSeconds: 1 }));
    const started = Date.now();
    // Calls are spread at random: go on until one has met the 429, then ten more, all to b.
    for (let i = 0; i < 50 && blockCalls(a) === 0; i++) await client.getBlock({ blockNumber: 1n });
    const bBefore = blockCalls(b);
    for (let i = 0; i < 10; i++) await client.getBlock({ blockNumber: 1n });
    expect(blockCalls(a)).toBe(1);
    expect(blockCalls(b) - bBefore).toBe(10);
    const [first] = pool.health();
    expect(first).toMatchObject({ rateLimited: 1, errors: 1, asideReason: "rate limited" });
    // Put aside for the Retry-After (1 s), not the 100 ms cool-down.
    expect(first!.asideUntil! - started).toBeGreaterThanOrEqual(950);

    a.behave(() => "forward");
    await until(() => pool.health()[0]!.asideUntil === null, 3_000);
    // Back from its put-aside, the provider gets the next call (its probe), and answers it.
    await client.getBlock({ blockNumber: 1n });
    expect(blockCalls(a)).toBe(2);
    expect(pool.health()[0]).toMatchObject({ asideUntil: null, calls: 2, errors: 1, errorRate: 0.5 });
  });

  test("a provider that hangs or answers 503 is put aside after its first failure; every call still answers, from the other", async () => {
    for (const fault of ["hang", { httpStatus: 503 }] as const) {
      a.resetCounts();
      b.resetCounts();
      a.behave(() => fault);
      const pool = createProviderPool([a.url, b.url], { timeoutMs: 400, cooldownMs: 5_000 });
      const client = createChainClient(net.chain(), pool.transport);
      // Calls are spread at random: go on until one has met the fault, then ten more.
      for (let i = 0; i < 50 && blockCalls(a) === 0; i++) expect((await client.getBlock({ blockNumber: 1n })).number).toBe(1n);
      for (let i = 0; i < 10; i++) expect((await client.getBlock({ blockNumber: 2n })).number).toBe(2n);
      expect(blockCalls(a), JSON.stringify(fault)).toBe(1);
      expect(pool.health()[0], JSON.stringify(fault)).toMatchObject({ calls: 1, errors: 1, rateLimited: 0, asideReason: "failing" });
      expect(pool.health()[1]!.errors).toBe(0);
    }
  });

  test("a request budget per provider per second: 40 calls at once reach a 10-per-second provider over about 3 s, never more than 10 a second beyond the first burst", async () => {
    const arrivals: number[] = [];
    a.behave(() => {
      arrivals.push(Date.now());
      return "forward";
    });
    const pool = createProviderPool([a.url], { requestsPerSecond: 10 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 40 }, () => pool.request({ method: "eth_getBlockByNumber", params: ["0x1", false] })));
    expect(arrivals).toHaveLength(40);
    // 10 at once (the bucket), then 10 a second: the 40th goes out no sooner than ~3 s.
    expect(Math.max(...arrivals) - started).toBeGreaterThanOrEqual(2_800);
    for (const t of arrivals) {
      const inWindow = arrivals.filter((u) => u >= t && u < t + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(21);
    }
  });

  test("the head is one both providers have reached; a provider lagging beyond the bound is put aside and the head moves on", async () => {
    await net.testClient().mine({ blocks: 20 });
    const nodeHead = await createChainClient(net.chain()).getBlockNumber();
    const pool = createProviderPool([a.url, b.url], { maxHeadLag: 5 });
    const client = createChainClient(net.chain(), pool.transport);
    b.lagHead(2);
    expect(await client.getBlockNumber()).toBe(nodeHead - 2n);
    expect(pool.health().map((p) => p.headLag)).toEqual([0, 2]);
    b.lagHead(8);
    expect(await client.getBlockNumber()).toBe(nodeHead - 8n);
    expect(pool.health()[0]).toMatchObject({ head: nodeHead, headLag: 0, asideReason: null });
    expect(pool.health()[1]).toMatchObject({ head: nodeHead - 8n, asideReason: "lagging" });
    // b is aside: the one provider in use gives the head, and blocks above b's head are read from a.
    expect(await client.getBlockNumber()).toBe(nodeHead);
    expect((await client.getBlock({ blockNumber: nodeHead })).number).toBe(nodeHead);
  });

  test("a WebSocket provider beside an HTTP one: both answer, each with its own figures", async () => {
    const ws = net.rpcUrl.replace(/^http/, "ws");
    const pool = createProviderPool([ws, a.url]);
    const client = createChainClient(net.chain(), pool.transport);
    const head = await client.getBlockNumber();
    for (let i = 0; i < 20; i++) expect((await client.getBlock({ blockNumber: head })).number).toBe(head);
    const [viaWs, viaHttp] = pool.health();
    expect(viaWs!.label).toBe(`1:${new URL(ws).host}`);
    expect(viaWs!.head).toBe(head);
    expect(viaHttp!.head).toBe(head);
    // The head went to both; the 20 block reads were spread between them.
    expect(viaWs!.calls + viaHttp!.calls).toBe(22);
    expect(viaWs!.errors + viaHttp!.errors).toBe(0);
  });

  test("a single provider that answers 429 with Retry-After is waited for, not failed: every call answers", async () => {
    const pool = createProviderPool([a.url], { cooldownMs: 100 });
    const client = createChainClient(net.chain(), pool.transport);
    let refusals = 0;
    // The first three HTTP requests are refused (Retry-After: 1), then it serves again.
    a.behave(() => (refusals++ < 3 ? { httpStatus: 429, retryAfterSeconds: 1 } : "forward"), { perRequest: true });
    const started = Date.now();
    const numbers = await Promise.all([1n, 2n, 3n].map((n) => client.getBlock({ blockNumber: n }).then((b) => b.number)));
    expect(numbers).toEqual([1n, 2n, 3n]);
    expect(await client.getBlockNumber()).toBeGreaterThan(0n);
    expect(a.refusedRequests).toBe(3);
    // Each refusal was waited out for its Retry-After (about a second), not retried at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(pool.health()[0]).toMatchObject({ rateLimited: 3 });
  });

  test("pools that share a provider host share its request budget: two chains at 10 a second together, not 20", async () => {
    const arrivals: number[] = [];
    a.behave(() => {
      arrivals.push(Date.now());
      return "forward";
    });
    const first = createProviderPool([a.url], { shareHosts: true, requestsPerSecond: 10 });
    const second = createProviderPool([a.url], { shareHosts: true, requestsPerSecond: 10 });
    const started = Date.now();
    const call = (pool: typeof first) => pool.request({ method: "eth_getBlockByNumber", params: ["0x1", false] });
    await Promise.all(Array.from({ length: 15 }, (_, i) => (i % 2 ? call(second) : call(first))));
    await Promise.all(Array.from({ length: 15 }, (_, i) => (i % 2 ? call(first) : call(second))));
    expect(arrivals).toHaveLength(30);
    // One bucket of 10 for the host: the 30th request goes out ~2 s after the first (two buckets would take ~0.5 s).
    expect(Math.max(...arrivals) - started).toBeGreaterThanOrEqual(1_800);
    // A pool apart has its own.
    expect(createProviderPool([a.url], { requestsPerSecond: 10 }).health()[0]!.asideUntil).toBeNull();
  });

  test("a second opinion goes to another provider than the one that answered", async () => {
    const pool = createProviderPool([a.url, b.url]);
    for (let i = 0; i < 6; i++) {
      const first = await pool.requestWithProvider({ method: "eth_getBlockByNumber", params: ["0x1", false] });
      const second = await pool.requestElsewhere({ method: "eth_getBlockByNumber", params: ["0x1", false] }, first.provider);
      expect(second.provider).not.toBe(first.provider);
      expect(second.result).toEqual(first.result);
    }
    await expect(createProviderPool([a.url]).requestElsewhere({ method: "eth_chainId" }, "1:" + new URL(a.url).host)).rejects.toThrow(/no other/);
  });

  test("Retry-After in seconds or as an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs("soon")).toBeNull();
  });
});
