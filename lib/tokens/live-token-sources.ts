/**
 * Where each live token of the catalog (lib/chains/catalog.ts, GATEWAY_MODE=live) comes from: its
 * contract address and decimals as the issuer documents them, whether it has EIP-3009 (gasless
 * payments), the Chainlink feed the catalog prices it with, and its transfer behaviour.
 * tests/tokens/live-token-sources.test.ts holds the catalog to this table, both ways: a live token
 * without an entry here (with its source) fails the suite.
 *
 * A token enters the catalog only with its address and decimals read in the issuer's own
 * documentation. `candidates` lists what was looked for and why it is not live yet.
 */
export interface LiveTokenSource {
  blockchain: "ethereum" | "base" | "polygon" | "arbitrum" | "optimism";
  symbol: string;
  address: string;
  decimals: number;
  /** EIP-3009 (transferWithAuthorization): the payment page offers "Pay without gas". */
  eip3009: boolean;
  /** The feed pair the catalog prices it with on that chain without PRICE_FEEDS; null: none built in. */
  feed: string | null;
  /** The issuer's page the address and decimals were read from. */
  source: string;
  /** Transfer behaviour that matters to a payment: return values, fees, blocklists, upgradability. */
  behaviour: string;
}

const circleUsdc = "https://developers.circle.com/stablecoins/usdc-contract-addresses";
const usdcBehaviour =
  "FiatTokenV2 (upgradeable proxy): transfer and approve return true; no transfer fee; Circle keeps a blocklist (a blocklisted sender or recipient cannot transfer) and can pause.";

export const liveTokenSources: LiveTokenSource[] = [
  {
    blockchain: "ethereum",
    symbol: "USDC",
    address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    decimals: 6,
    eip3009: true,
    feed: "USDC/USD",
    source: circleUsdc,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "base",
    symbol: "USDC",
    address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    decimals: 6,
    eip3009: true,
    feed: null,
    source: circleUsdc,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "polygon",
    symbol: "USDC",
    address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    decimals: 6,
    eip3009: true,
    feed: null,
    source: circleUsdc,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "arbitrum",
    symbol: "USDC",
    address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    decimals: 6,
    eip3009: true,
    feed: null,
    source: circleUsdc,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "optimism",
    symbol: "USDC",
    address: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
    decimals: 6,
    eip3009: true,
    feed: null,
    source: circleUsdc,
    behaviour: usdcBehaviour,
  },
];

/** Tokens looked for and not live yet, with what is missing. */
export const candidates: Array<{ symbol: string; blockchains: string; found: string; missing: string }> = [
  {
    symbol: "USDT",
    blockchains: "ethereum",
    found:
      "Tether's Supported Protocols page (https://tether.to/en/supported-protocols) lists its native ERC-20 issuance on Ethereum, Avalanche, Kava and Celo: of this gateway's chains, Ethereum only (USDT elsewhere is bridged, not Tether's).",
    missing:
      "The contract address and decimals as printed on Tether's own page could not be read here; the sandbox's USDT (contracts/TetherTokenDevnet.sol) carries its behaviour meanwhile.",
  },
  {
    symbol: "EURC",
    blockchains: "base, ethereum",
    found:
      "Circle's EURC Contract Addresses page (https://developers.circle.com/stablecoins/eurc-contract-addresses) lists Base: 0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42.",
    missing: "Ethereum's entry, the decimals and the EIP-3009 domain from Circle's page; a EUR/USD feed on Base (Ethereum has one built in).",
  },
  { symbol: "DAI / USDS", blockchains: "all", found: "Not looked up yet.", missing: "Sky's documentation of the addresses, decimals and feeds." },
];
