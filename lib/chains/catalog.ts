import { getAddress, getContractAddress, parseGwei, type Address } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { env, maxFeeGweiOverride } from "@/lib/env";
import { processSlot } from "@/lib/process-singleton";

export interface TokenInfo {
  symbol: string;
  /** null: the chain's native coin */
  address: Address | null;
  decimals: number;
  /**
   * The token's EIP-712 domain name and version when it has EIP-3009 (transferWithAuthorization, as
   * Circle's USDC): the payment page then offers "Pay without gas" (lib/gasless). null: it has not.
   */
  eip3009: { name: string; version: string } | null;
  /**
   * USDT's approve refuses to change an allowance from one non-zero value to another (it reverts):
   * whoever raises an allowance to a contract first sets it to 0 (lib/payouts' reset transaction).
   */
  approveFromZero?: true;
}

export interface Blockchain {
  /** Stable numeric id served by GET /api/blockchains/ and used by merchant wallets. */
  id: number;
  slug: string;
  name: string;
  chainId: number;
  /** The first HTTP provider (or the first provider); null: no RPC configured. */
  rpcUrl: string | null;
  /** Every provider for this chain, HTTP and WebSocket, in the configured order (RPC_URLS_<SLUG>, else RPC_URL_<SLUG>). */
  rpcUrls: string[];
  /** WebSocket RPC for newHeads; null: polling only. */
  wsUrl: string | null;
  defaultConfirmations: number;
  /** How often the scanner polls the head. */
  pollIntervalMs: number;
  nativeCurrency: { symbol: string; name: string; decimals: number };
  /** Native coin first, then ERC-20 tokens. */
  tokens: TokenInfo[];
  /** Deposit-forwarder factory; null when none is deployed/configured (orders cannot be created). */
  factory: Address | null;
  implementation: Address | null;
  /**
   * Which factory contract `factory` is, recorded on each new order: 1 DepositFactory (one
   * deployAndFlush per order), 2 DepositFactoryV2 (stateless clones, batched flushBatch).
   */
  factoryVersion: DepositFactoryVersion;
  explorerUrl: string | null;
  /** Multicall3 (same address on every major chain); null where not deployed. */
  multicall3: Address | null;
  /** The local hardhat devnet the sandbox starts. */
  isDevnet: boolean;
  /** Price feeds by pair ("ETH/USD", "EUR/USD") for fiat-priced orders. */
  priceFeeds: Record<string, PriceFeed>;
  /**
   * The block tags the chain's nodes answer for its own finality (lib/chains/finality.ts): `safe`
   * gates sweeps, `finalized` ends re-checks; null: the chain has none, and only the confirmation
   * threshold and its re-check window apply.
   */
  finality: FinalityTags | null;
  /** Ceiling on the EIP-1559 max fee per gas (wei) of the gateway's own transactions (MAX_FEE_GWEI_<SLUG> overrides). */
  maxFeePerGas: bigint;
}

export type DepositFactoryVersion = 1 | 2;

/** Which JSON-RPC block tag answers "safe" and which "finalized" on a chain. */
export interface FinalityTags {
  safe: "safe" | "finalized";
  finalized: "finalized";
}

const multicall3 = getAddress("0xcA11bde05977b3631167028862bE2a173976CA11");
const ether = { symbol: "ETH", name: "Ether", decimals: 18 };

interface NetworkDef {
  id: number;
  slug: string;
  liveName: string;
  liveChainId: number;
  liveNative: Blockchain["nativeCurrency"];
  liveUsdc: Address;
  /**
   * The network's other live tokens, each in lib/tokens/live-token-sources.ts with the issuer's page
   * its address and decimals were read from (tests/tokens/live-token-sources.test.ts holds them to it).
   */
  liveTokens: TokenInfo[];
  liveExplorer: string;
  liveConfirmations: number;
  testnetName: string;
  testnetChainId: number;
  testnetUsdc: Address;
  testnetExplorer: string;
  finality: FinalityTags | null;
  /** Default fee ceiling, gwei (live and testnet). */
  maxFeeGwei: number;
}

/**
 * Ethereum (Casper FFG), the OP-stack chains (L1 inclusion of their batches) and Arbitrum answer
 * `safe` and `finalized` themselves. Polygon PoS's Bor answers `finalized` from Heimdall's
 * milestones (a few seconds behind the head) and nothing better for `safe`, so both use it there
 * (docs/design/chain-engine.md › Confirmations, finality and reorgs).
 */
const ethereumTags: FinalityTags = { safe: "safe", finalized: "finalized" };
const polygonTags: FinalityTags = { safe: "finalized", finalized: "finalized" };

/**
 * Circle's FiatTokenV2 EIP-712 domain: "USD Coin" on the mainnets, "USDC" on Circle's testnet
 * deployments; version "2" on both.
 */
const liveUsdcEip3009 = { name: "USD Coin", version: "2" };
const testnetUsdcEip3009 = { name: "USDC", version: "2" };

/**
 * Circle's EURC is the same FiatTokenV2_2 contract as USDC: EIP-3009 in the domain (its `name()`,
 * "2"). The relay and the payment page offer it only after the token's own DOMAIN_SEPARATOR()
 * matches this domain (lib/gasless/domain-check.ts), so a wrong name costs the offer, not a payment.
 */
const liveEurcEip3009 = { name: "EURC", version: "2" };

/** Circle's native USDC on each network (6 decimals), and its testnet counterpart. */
const networks: NetworkDef[] = [
  {
    id: 1,
    slug: "ethereum",
    liveName: "Ethereum",
    liveChainId: 1,
    liveNative: ether,
    liveUsdc: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    liveTokens: [
      { symbol: "EURC", address: getAddress("0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c"), decimals: 6, eip3009: liveEurcEip3009 },
      // Tether's TetherToken: no return values, approve from zero (docs/design/tokens.md); no EIP-3009.
      { symbol: "USDT", address: getAddress("0xdAC17F958D2ee523a2206206994597C13D831ec7"), decimals: 6, eip3009: null, approveFromZero: true },
      // Maker's (Sky's) Dai: a plain ERC-20 with its own permit, no EIP-3009.
      { symbol: "DAI", address: getAddress("0x6B175474E89094C44Da98b954EedeAC495271d0F"), decimals: 18, eip3009: null },
    ],
    liveExplorer: "https://etherscan.io",
    liveConfirmations: 12,
    testnetName: "Ethereum Sepolia",
    testnetChainId: 11155111,
    testnetUsdc: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
    testnetExplorer: "https://sepolia.etherscan.io",
    finality: ethereumTags,
    maxFeeGwei: 100,
  },
  {
    id: 2,
    slug: "base",
    liveName: "Base",
    liveChainId: 8453,
    liveNative: ether,
    liveUsdc: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    liveTokens: [{ symbol: "EURC", address: getAddress("0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42"), decimals: 6, eip3009: liveEurcEip3009 }],
    liveExplorer: "https://basescan.org",
    liveConfirmations: 10,
    testnetName: "Base Sepolia",
    testnetChainId: 84532,
    testnetUsdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    testnetExplorer: "https://sepolia.basescan.org",
    finality: ethereumTags,
    maxFeeGwei: 5,
  },
  {
    id: 3,
    slug: "polygon",
    liveName: "Polygon PoS",
    liveChainId: 137,
    liveNative: { symbol: "POL", name: "POL", decimals: 18 },
    liveUsdc: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    liveTokens: [],
    liveExplorer: "https://polygonscan.com",
    liveConfirmations: 64,
    testnetName: "Polygon Amoy",
    testnetChainId: 80002,
    testnetUsdc: "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582",
    testnetExplorer: "https://amoy.polygonscan.com",
    finality: polygonTags,
    maxFeeGwei: 1000,
  },
  {
    id: 4,
    slug: "arbitrum",
    liveName: "Arbitrum One",
    liveChainId: 42161,
    liveNative: ether,
    liveUsdc: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    liveTokens: [],
    liveExplorer: "https://arbiscan.io",
    liveConfirmations: 20,
    testnetName: "Arbitrum Sepolia",
    testnetChainId: 421614,
    testnetUsdc: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
    testnetExplorer: "https://sepolia.arbiscan.io",
    finality: ethereumTags,
    maxFeeGwei: 5,
  },
  {
    id: 5,
    slug: "optimism",
    liveName: "OP Mainnet",
    liveChainId: 10,
    liveNative: ether,
    liveUsdc: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
    liveTokens: [],
    liveExplorer: "https://optimistic.etherscan.io",
    liveConfirmations: 20,
    testnetName: "OP Sepolia",
    testnetChainId: 11155420,
    testnetUsdc: "0x5fd84259d66Cd46123540766Be93DFE6D43130D7",
    testnetExplorer: "https://sepolia-optimism.etherscan.io",
    finality: ethereumTags,
    maxFeeGwei: 5,
  },
];

/** hardhat's first default account deploys the sandbox contracts on a fresh devnet (lib/chains/devnet.ts). */
export const devnetDeployerPrivateKey = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;
const devnetDeployer = privateKeyToAddress(devnetDeployerPrivateKey);

/**
 * The devnet's price feeds (contracts/MockAggregator.sol), deployed after the tokens in this order,
 * so their addresses follow the deployer's nonce (3, 4, …). Realistic answers with Chainlink's 8
 * decimals for USD pairs; stablecoins are deliberately not 1.00.
 */
export const devnetFeeds = [
  { pair: "ETH/USD", answer: 341_257_000_000n },
  { pair: "USDC/USD", answer: 99_980_000n },
  { pair: "USDT/USD", answer: 100_030_000n },
  { pair: "EUR/USD", answer: 108_420_000n },
  { pair: "POL/USD", answer: 45_120_000n },
] as const;
export type DevnetFeedPair = (typeof devnetFeeds)[number]["pair"];
export const devnetFeedDecimals = 8;

/**
 * Where the devnet contracts land: deployGatewayContracts sends the deployer's transactions
 * (factory, USDC, USDT, then the price feeds) on a fresh chain, so the CREATE addresses are fixed.
 * New deployments go at the end, so the addresses before them never move.
 */
export const devnetContracts = {
  factory: getContractAddress({ from: devnetDeployer, nonce: 0n }),
  implementation: getContractAddress({ from: getContractAddress({ from: devnetDeployer, nonce: 0n }), nonce: 1n }),
  USDC: getContractAddress({ from: devnetDeployer, nonce: 1n }),
  USDT: getContractAddress({ from: devnetDeployer, nonce: 2n }),
  priceFeeds: Object.fromEntries(devnetFeeds.map((feed, i) => [feed.pair, getContractAddress({ from: devnetDeployer, nonce: BigInt(3 + i) })])) as Record<
    DevnetFeedPair,
    Address
  >,
  /** DepositFactoryV2 (issue 30), deployed after the price feeds; the factory of new sandbox orders. */
  factoryV2: getContractAddress({ from: devnetDeployer, nonce: BigInt(3 + devnetFeeds.length) }),
  implementationV2: getContractAddress({ from: getContractAddress({ from: devnetDeployer, nonce: BigInt(3 + devnetFeeds.length) }), nonce: 1n }),
  /** SubscriptionFactory (contracts/SubscriptionPull.sol), deployed after DepositFactoryV2. */
  subscriptionFactory: getContractAddress({ from: devnetDeployer, nonce: BigInt(4 + devnetFeeds.length) }),
} as const;

/** A Chainlink AggregatorV3Interface feed and the age past which its answer is refused. */
export interface PriceFeed {
  address: Address;
  /** Older answers are stale: the feed's heartbeat plus a margin. */
  maxAgeSeconds: number;
}

/**
 * Chainlink's heartbeat is 1 hour for ETH/USD and 24 hours for stablecoin and EUR/USD feeds on
 * Ethereum; the margin allows for a late round. PRICE_FEED_MAX_AGE_SECONDS overrides all.
 */
function feedMaxAge(pair: string): number {
  if (env.PRICE_FEED_MAX_AGE_SECONDS !== undefined) return env.PRICE_FEED_MAX_AGE_SECONDS;
  return pair.startsWith("ETH/") || pair.startsWith("POL/") ? 3600 + 600 : 86_400 + 3600;
}

/**
 * Chainlink feeds known for certain (Ethereum mainnet, data.chain.link). Other networks' feeds
 * are configured with PRICE_FEEDS, which also overrides these.
 */
const knownLiveFeeds: Record<string, Record<string, Address>> = {
  ethereum: {
    "ETH/USD": "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419",
    "USDC/USD": "0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6",
    "USDT/USD": "0x3E7d1eAB13ad0104d2750B8863b489D65364e32D",
    "EUR/USD": "0xb49f677943BC038e9857d61E7d053CaA2C1734C1",
  },
};

/** The price feeds a chain offers, by pair ("ETH/USD"): the devnet's own, or the known and configured ones. */
function priceFeedsFor(slug: string, isDevnet: boolean, isLive: boolean): Record<string, PriceFeed> {
  const addresses: Record<string, Address> = isDevnet
    ? { ...devnetContracts.priceFeeds }
    : { ...(isLive ? knownLiveFeeds[slug] : {}), ...(env.PRICE_FEEDS[slug] ?? {}) };
  return Object.fromEntries(
    Object.entries(addresses).map(([pair, address]) => [pair.toUpperCase(), { address: getAddress(address), maxAgeSeconds: feedMaxAge(pair.toUpperCase()) }]),
  );
}

export const devnetChainId = 31337;

const devnetRpcUrlSlot = processSlot<string>("devnetRpcUrl");

/** Points the sandbox networks at a running devnet (set by the devnet starter, or by tests). */
export function setDevnetRpcUrl(url: string | undefined): void {
  devnetRpcUrlSlot.set(url);
}

export function devnetRpcUrl(): string | null {
  return devnetRpcUrlSlot.get() ?? null;
}

type Slug = "ETHEREUM" | "BASE" | "POLYGON" | "ARBITRUM" | "OPTIMISM";

/** The configured providers of a chain: RPC_URLS_<SLUG>, else the one RPC_URL_<SLUG>; empty when neither is set. */
function rpcOverrides(slug: string): string[] {
  const list = env[`RPC_URLS_${slug.toUpperCase()}` as `RPC_URLS_${Slug}`];
  if (list?.length) return list;
  const one = env[`RPC_URL_${slug.toUpperCase()}` as `RPC_URL_${Slug}`];
  return one ? [one] : [];
}

function rpcOverride(slug: string): string | undefined {
  const urls = rpcOverrides(slug);
  return urls.find((url) => /^https?:/.test(url)) ?? urls[0];
}

function wsOverride(slug: string): string | null {
  return env[`RPC_WS_URL_${slug.toUpperCase()}` as `RPC_WS_URL_${Slug}`] ?? rpcOverrides(slug).find((url) => /^wss?:/.test(url)) ?? null;
}

function factoryOverride(slug: string): { factory: Address; implementation: Address; version: DepositFactoryVersion } | null {
  const factory = env.DEPOSIT_FACTORIES[slug];
  return factory ?? null;
}

function maxFeeCeiling(def: NetworkDef): bigint {
  return parseGwei(String(maxFeeGweiOverride(def.slug) ?? def.maxFeeGwei));
}

function build(def: NetworkDef): Blockchain {
  const override = rpcOverride(def.slug);
  if (env.GATEWAY_MODE === "live") {
    const deployed = factoryOverride(def.slug);
    return {
      id: def.id,
      slug: def.slug,
      name: def.liveName,
      chainId: def.liveChainId,
      rpcUrl: override ?? null,
      rpcUrls: rpcOverrides(def.slug),
      wsUrl: wsOverride(def.slug),
      defaultConfirmations: def.liveConfirmations,
      pollIntervalMs: def.slug === "ethereum" ? 4000 : 1000,
      nativeCurrency: def.liveNative,
      tokens: [
        { symbol: def.liveNative.symbol, address: null, decimals: 18, eip3009: null },
        { symbol: "USDC", address: getAddress(def.liveUsdc), decimals: 6, eip3009: liveUsdcEip3009 },
        ...def.liveTokens,
      ],
      factory: deployed?.factory ?? null,
      implementation: deployed?.implementation ?? null,
      factoryVersion: deployed?.version ?? 1,
      explorerUrl: def.liveExplorer,
      multicall3,
      isDevnet: false,
      priceFeeds: priceFeedsFor(def.slug, false, true),
      finality: def.finality,
      maxFeePerGas: maxFeeCeiling(def),
    };
  }
  if (override) {
    // Sandbox on a public testnet: Circle's test USDC; the factory must be deployed there and configured.
    const deployed = factoryOverride(def.slug);
    return {
      id: def.id,
      slug: def.slug,
      name: def.testnetName,
      chainId: def.testnetChainId,
      rpcUrl: override,
      rpcUrls: rpcOverrides(def.slug),
      wsUrl: wsOverride(def.slug),
      defaultConfirmations: 3,
      pollIntervalMs: 2000,
      nativeCurrency: def.liveNative,
      tokens: [
        { symbol: def.liveNative.symbol, address: null, decimals: 18, eip3009: null },
        { symbol: "USDC", address: getAddress(def.testnetUsdc), decimals: 6, eip3009: testnetUsdcEip3009 },
      ],
      factory: deployed?.factory ?? null,
      implementation: deployed?.implementation ?? null,
      factoryVersion: deployed?.version ?? 1,
      explorerUrl: def.testnetExplorer,
      multicall3,
      isDevnet: false,
      priceFeeds: priceFeedsFor(def.slug, false, false),
      finality: def.finality,
      maxFeePerGas: maxFeeCeiling(def),
    };
  }
  // Sandbox default: every slug runs on the one local devnet the app starts.
  return {
    id: def.id,
    slug: def.slug,
    name: `${def.liveName} (local devnet)`,
    chainId: devnetChainId,
    rpcUrl: devnetRpcUrl(),
    rpcUrls: devnetRpcUrl() ? [devnetRpcUrl()!] : [],
    // hardhat node serves WebSocket JSON-RPC on the same port
    wsUrl: devnetRpcUrl()?.replace(/^http/, "ws") ?? null,
    defaultConfirmations: 3,
    pollIntervalMs: 250,
    nativeCurrency: def.liveNative,
    tokens: [
      { symbol: def.liveNative.symbol, address: null, decimals: 18, eip3009: null },
      // contracts/TestToken.sol: the deployed name (lib/chains/devnet.ts) with FiatTokenV2's version.
      { symbol: "USDC", address: devnetContracts.USDC, decimals: 6, eip3009: { name: "USD Coin", version: "2" } },
      // contracts/TetherTokenDevnet.sol: mainnet USDT's behaviour, which has no EIP-3009 (no gasless payments).
      { symbol: "USDT", address: devnetContracts.USDT, decimals: 6, eip3009: null, approveFromZero: true },
    ],
    factory: devnetContracts.factoryV2,
    implementation: devnetContracts.implementationV2,
    factoryVersion: 2,
    explorerUrl: null,
    multicall3: null,
    isDevnet: true,
    priceFeeds: priceFeedsFor(def.slug, true, false),
    // hardhat answers both tags (with its latest block), so the devnet takes the same path as live chains.
    finality: ethereumTags,
    maxFeePerGas: maxFeeCeiling(def),
  };
}

/**
 * Every request reads the catalog, so each network is built once per set of inputs (the mode, its
 * overrides and the devnet's URL, which tests and the devnet starter change at run time) and
 * shared, frozen, until one of them changes.
 */
const builtNetworks = new Map<NetworkDef, { inputs: unknown[]; chain: Blockchain }>();

function catalogInputs(def: NetworkDef): unknown[] {
  return [
    env.GATEWAY_MODE,
    rpcOverrides(def.slug).join(","),
    wsOverride(def.slug),
    env.DEPOSIT_FACTORIES,
    env.PRICE_FEEDS,
    env.PRICE_FEED_MAX_AGE_SECONDS,
    devnetRpcUrl(),
    maxFeeGweiOverride(def.slug),
  ];
}

function networkOf(def: NetworkDef): Blockchain {
  const inputs = catalogInputs(def);
  const cached = builtNetworks.get(def);
  if (cached && cached.inputs.every((value, i) => value === inputs[i])) return cached.chain;
  const chain = build(def);
  for (const token of chain.tokens) {
    Object.freeze(token.eip3009);
    Object.freeze(token);
  }
  Object.freeze(chain.rpcUrls);
  Object.freeze(chain.tokens);
  Object.freeze(chain);
  builtNetworks.set(def, { inputs, chain });
  return chain;
}

/** The networks this deployment serves (live or sandbox), in id order. */
export function listBlockchains(): Blockchain[] {
  return networks.map(networkOf);
}

export function findBlockchainById(id: number): Blockchain | null {
  const def = networks.find((n) => n.id === id);
  return def ? networkOf(def) : null;
}

export function findBlockchainBySlug(slug: string): Blockchain | null {
  const def = networks.find((n) => n.slug === slug.toLowerCase());
  return def ? networkOf(def) : null;
}

/** A token by symbol (case-insensitive) on a chain; null when the chain does not offer it. */
export function findToken(chain: Blockchain, symbol: string): TokenInfo | null {
  return chain.tokens.find((t) => t.symbol.toLowerCase() === symbol.toLowerCase()) ?? null;
}
