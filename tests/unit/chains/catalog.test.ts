import { afterEach, describe, expect, test, vi } from "vitest";
import { getAddress, publicActions } from "viem";
import { depositFactoryV2Artifact } from "@/lib/chains/contract-artifacts";
import { devnetContracts } from "@/lib/chains/catalog";
import { deployGatewayContracts } from "@/lib/chains/devnet";
import { setupTestDevnet } from "../../helpers/devnet";

/** The catalog as a fresh process with these environment variables would see it (env is read once, at import). */
async function catalogWith(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  vi.resetModules();
  return import("@/lib/chains/catalog");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const slugs = ["ethereum", "base", "polygon", "arbitrum", "optimism"];

describe("network catalog in live mode", () => {
  test("serves the five networks with stable ids, real chain ids and Circle's native USDC", async () => {
    const { listBlockchains } = await catalogWith({ GATEWAY_MODE: "live", DEPOSIT_FACTORIES: undefined });
    const chains = listBlockchains();
    expect(chains.map((c) => [c.id, c.slug, c.chainId])).toEqual([
      [1, "ethereum", 1],
      [2, "base", 8453],
      [3, "polygon", 137],
      [4, "arbitrum", 42161],
      [5, "optimism", 10],
    ]);
    const usdc = Object.fromEntries(chains.map((c) => [c.slug, c.tokens.find((t) => t.symbol === "USDC")]));
    expect(usdc).toEqual({
      ethereum: { symbol: "USDC", address: getAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"), decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
      base: { symbol: "USDC", address: getAddress("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"), decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
      polygon: { symbol: "USDC", address: getAddress("0x3c499c542cef5e3811e1192ce70d8cc03d5c3359"), decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
      arbitrum: { symbol: "USDC", address: getAddress("0xaf88d065e77c8cc2239327c5edb3a432268e5831"), decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
      optimism: { symbol: "USDC", address: getAddress("0x0b2c639c533813f4aa9d7837caf62653d097ff85"), decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
    });
    for (const chain of chains) {
      expect(chain.tokens[0]).toEqual({ symbol: chain.nativeCurrency.symbol, address: null, decimals: 18, eip3009: null });
      // The native coin and USDC; Circle's EURC where Circle issues it, Tether's USDT and Maker's DAI where they are issued
      // natively (tests/tokens/live-token-sources.test.ts holds each to its source).
      const issuedThere: Record<string, string[]> = { ethereum: ["EURC", "USDT", "DAI"], base: ["EURC"] };
      expect(chain.tokens.map((t) => t.symbol)).toEqual([chain.nativeCurrency.symbol, "USDC", ...(issuedThere[chain.slug] ?? [])]);
      expect(chain.isDevnet).toBe(false);
      expect(chain.defaultConfirmations).toBeGreaterThanOrEqual(10);
      // Live networks have no factory until one is deployed and configured.
      expect(chain.factory).toBeNull();
    }
    expect(chains.find((c) => c.slug === "polygon")!.nativeCurrency.symbol).toBe("POL");
  });

  test("takes deployed factories and RPC overrides from the environment", async () => {
    const factory = "0x1111111111111111111111111111111111111111";
    const implementation = "0x2222222222222222222222222222222222222222";
    const { findBlockchainBySlug } = await catalogWith({
      GATEWAY_MODE: "live",
      DEPOSIT_FACTORIES: JSON.stringify({ base: { factory, implementation }, optimism: { factory, implementation, version: 2 } }),
      RPC_URL_BASE: "https://base-mainnet.example/v2/secret",
    });
    const base = findBlockchainBySlug("BASE")!;
    expect(base.factory?.toLowerCase()).toBe(factory);
    expect(base.implementation?.toLowerCase()).toBe(implementation);
    // An entry without a version is the first DepositFactory; "version":2 a DepositFactoryV2 (batched sweeps).
    expect(base.factoryVersion).toBe(1);
    expect(findBlockchainBySlug("optimism")!.factoryVersion).toBe(2);
    expect(base.rpcUrl).toBe("https://base-mainnet.example/v2/secret");
    expect(findBlockchainBySlug("ethereum")!.factory).toBeNull();
    expect(base.rpcUrls).toEqual(["https://base-mainnet.example/v2/secret"]);
  });

  test("several providers per chain from RPC_URLS_<SLUG> (HTTP and WebSocket), ahead of RPC_URL_<SLUG>", async () => {
    const { findBlockchainBySlug } = await catalogWith({
      GATEWAY_MODE: "live",
      RPC_URL_BASE: "https://one.example/v2/key",
      RPC_URLS_BASE: " wss://ws.example/key , https://a.example/v2/key,https://b.example/rpc ",
    });
    const base = findBlockchainBySlug("base")!;
    expect(base.rpcUrls).toEqual(["wss://ws.example/key", "https://a.example/v2/key", "https://b.example/rpc"]);
    expect(base.rpcUrl).toBe("https://a.example/v2/key");
    expect(base.wsUrl).toBe("wss://ws.example/key");
    expect(findBlockchainBySlug("ethereum")!.rpcUrls).toEqual([]);
  });

  test("a malformed provider list is refused at start, naming the variable", async () => {
    await expect(catalogWith({ GATEWAY_MODE: "live", RPC_URLS_BASE: "https://a.example,ftp://b.example" })).rejects.toThrow(
      /RPC_URLS_BASE: must be comma-separated http\(s\):\/\/ or ws\(s\):\/\/ URLs/,
    );
  });
});

describe("network catalog in sandbox mode", () => {
  test("runs every slug on the local devnet (chain 31337) with test USDC and USDT", async () => {
    const catalog = await catalogWith({ GATEWAY_MODE: "sandbox", DEPOSIT_FACTORIES: undefined });
    const chains = catalog.listBlockchains();
    expect(chains.map((c) => c.slug)).toEqual(slugs);
    expect(chains.map((c) => c.id)).toEqual([1, 2, 3, 4, 5]);
    for (const chain of chains) {
      expect(chain.chainId).toBe(31337);
      expect(chain.isDevnet).toBe(true);
      // New sandbox orders use DepositFactoryV2; the first factory stays deployed for orders made with it.
      expect(chain.factory).toBe(catalog.devnetContracts.factoryV2);
      expect(chain.implementation).toBe(catalog.devnetContracts.implementationV2);
      expect(chain.factoryVersion).toBe(2);
      expect(chain.tokens).toEqual([
        { symbol: chain.nativeCurrency.symbol, address: null, decimals: 18, eip3009: null },
        { symbol: "USDC", address: catalog.devnetContracts.USDC, decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
        { symbol: "USDT", address: catalog.devnetContracts.USDT, decimals: 6, eip3009: null, approveFromZero: true },
      ]);
    }
    expect(catalog.findBlockchainById(2)?.slug).toBe("base");
    expect(catalog.findBlockchainById(6)).toBeNull();
    expect(catalog.findBlockchainBySlug("solana")).toBeNull();
    expect(catalog.findToken(chains[1]!, "usdc")?.symbol).toBe("USDC");
    expect(catalog.findToken(chains[1]!, "DAI")).toBeNull();
  });

  test("uses the public testnet, without a factory, when a chain's RPC URL is configured", async () => {
    const { findBlockchainBySlug } = await catalogWith({ GATEWAY_MODE: "sandbox", RPC_URL_BASE: "https://sepolia.base.org" });
    const base = findBlockchainBySlug("base")!;
    expect(base.chainId).toBe(84532);
    expect(base.factory).toBeNull();
    expect(base.tokens.find((t) => t.symbol === "USDC")?.address).toBe(getAddress("0x036cbd53842c5426634e7929541ec2318f3dcf7e"));
    expect(findBlockchainBySlug("ethereum")!.chainId).toBe(31337);
  });
});

describe("devnet contract addresses", () => {
  // A new chain without the contracts: the test deploys them.
  const devnet = setupTestDevnet({ deploy: false });

  test("devnetContracts are exactly where deployGatewayContracts puts them on a fresh devnet", async () => {
    const deployed = await deployGatewayContracts({ rpcUrl: devnet.rpcUrl });
    expect({
      factory: devnetContracts.factory,
      implementation: devnetContracts.implementation,
      USDC: devnetContracts.USDC,
      USDT: devnetContracts.USDT,
      factoryV2: devnetContracts.factoryV2,
    }).toEqual({
      factory: deployed.factory,
      implementation: deployed.implementation,
      USDC: deployed.tokens.USDC,
      USDT: deployed.tokens.USDT,
      factoryV2: deployed.factoryV2,
    });
    const implementationV2 = await devnet
      .testClient()
      .extend(publicActions)
      .readContract({ address: deployed.factoryV2, abi: depositFactoryV2Artifact.abi, functionName: "implementation" });
    expect(implementationV2).toBe(devnetContracts.implementationV2);
  });
});
