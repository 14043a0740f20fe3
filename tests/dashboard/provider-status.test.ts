/**
 * The dashboard's network status: the process-wide client of a chain (the one the engine's
 * watcher uses) in front of a real proxy that answers 429 with Retry-After; the status shows the
 * provider set aside as rate limited, then in use again with its error rate, latency and head lag.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setDevnetRpcUrl } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { providerStatus } from "@/lib/dashboard/provider-status";
import { setupTestDevnet } from "../helpers/devnet";
import { startRpcProxy, type RpcProxy } from "../helpers/rpc-proxy";

const net = setupTestDevnet();
let proxy: RpcProxy;
beforeAll(async () => {
  proxy = await startRpcProxy(net.rpcUrl);
  setDevnetRpcUrl(proxy.url);
});
afterAll(async () => {
  setDevnetRpcUrl(net.rpcUrl);
  await proxy.close();
});

async function until<T>(probe: () => T | undefined, boundMs: number): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("network status", () => {
  test("a provider answering 429 shows set aside as rate limited, then in use again, named by its place and not its address", async () => {
    const provider = "Provider 1 of 1";
    const row = () => providerStatus().find((r) => r.key === "base:1");
    proxy.behave(() => ({ httpStatus: 429, retryAfterSeconds: 2 }));
    // The call waits out the Retry-After, then answers once the provider does.
    const pending = chainClient(net.chain("base")).getBlock({ blockNumber: 1n });
    const aside = await until(() => (row()?.aside ? row() : undefined), 5_000);
    expect(aside).toMatchObject({ chain: net.chain("base").name, provider, errorRate: "100 %" });
    expect(aside.state).toMatch(/^set aside \(rate limited\) for [1-3] s$/);
    // Merchants see the dashboard: a provider is named by its place, never by its address.
    expect(JSON.stringify(providerStatus())).not.toContain(new URL(proxy.url).host);
    proxy.behave(() => "forward");
    expect((await pending).number).toBe(1n);
    expect(row()).toMatchObject({ aside: false, state: "in use", errorRate: "50 %" });
    expect(row()!.latency).toMatch(/^\d+ ms$/);
    // A chain whose client this process has not used yet says so.
    expect(providerStatus().find((r) => r.chain === net.chain("polygon").name)).toMatchObject({ state: "not used yet" });
  });
});
