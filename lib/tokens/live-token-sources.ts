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
  /** That feed's proxy address as the catalog holds it (null with `feed`). */
  feedAddress: string | null;
  /** Where the feed's address comes from. */
  feedSource: string | null;
  /** The issuer's page the address and decimals were read from. */
  source: string;
  /**
   * The issuer's text that shows the address and the decimals, as read there. null only for the
   * entries made before the table kept its excerpts (USDC): their page is `source`.
   */
  quote: string | null;
  /** Transfer behaviour that matters to a payment: return values, fees, blocklists, upgradability. */
  behaviour: string;
}

const circleUsdc = "https://developers.circle.com/stablecoins/usdc-contract-addresses";
/** The catalog's Ethereum feeds (lib/chains/catalog.ts knownLiveFeeds), entered from data.chain.link before this table kept sources. */
const catalogFeeds = "lib/chains/catalog.ts knownLiveFeeds (Chainlink's Ethereum mainnet feeds, data.chain.link)";
const circleEurc = "https://developers.circle.com/stablecoins/eurc-contract-addresses";
/** Circle's EURC quickstart, where the token's decimals are printed. */
const circleEurcDecimals = 'https://developers.circle.com/stablecoins/quickstarts/transfer-eurc-evm: "const EURC_DECIMALS = 6;"';
const eurcBehaviour =
  'Circle\'s FiatTokenV2_2 (upgradeable proxy), as USDC: transfer and approve return true; no transfer fee; EIP-3009 and EIP-2612 in the domain (name(), "2"); Circle keeps a blocklist (a blocklisted sender or recipient cannot transfer) and can pause. A euro token: priced in fiat only with a EURC/USD feed configured (PRICE_FEEDS); none is built in.';
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
    feedAddress: "0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6",
    feedSource: catalogFeeds,
    source: circleUsdc,
    quote: null,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "base",
    symbol: "USDC",
    address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    decimals: 6,
    eip3009: true,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: circleUsdc,
    quote: null,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "polygon",
    symbol: "USDC",
    address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    decimals: 6,
    eip3009: true,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: circleUsdc,
    quote: null,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "arbitrum",
    symbol: "USDC",
    address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    decimals: 6,
    eip3009: true,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: circleUsdc,
    quote: null,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "optimism",
    symbol: "USDC",
    address: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
    decimals: 6,
    eip3009: true,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: circleUsdc,
    quote: null,
    behaviour: usdcBehaviour,
  },
  {
    blockchain: "ethereum",
    symbol: "EURC",
    address: "0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c",
    decimals: 6,
    eip3009: true,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: circleEurc,
    quote: `EURC Mainnet Address table: "| Ethereum | [\`0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c\`](https://etherscan.io/token/0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c) |"; decimals, ${circleEurcDecimals}`,
    behaviour: eurcBehaviour,
  },
  {
    blockchain: "base",
    symbol: "EURC",
    address: "0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42",
    decimals: 6,
    eip3009: true,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: circleEurc,
    quote: `EURC Mainnet Address table: "| Base | [\`0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42\`](https://basescan.org/token/0x60a3e35cc302bfa44cb288bc5a4f316fdb1adb42) |"; decimals, ${circleEurcDecimals}`,
    behaviour: eurcBehaviour,
  },
];

/** Tokens looked for and not live yet (or not on every chain), with what is missing. */
export const candidates: Array<{ symbol: string; blockchains: string; found: string; missing: string }> = [
  {
    symbol: "USDT",
    blockchains: "ethereum",
    found:
      "Tether's Supported Protocols page (https://tether.to/en/supported-protocols) lists its native ERC-20 issuance: \"ERC20 Token via Ethereum Blockchain, Avalanche Blockchain and Cosmos Blockchain (via Kava), Celo Blockchain\" (an older copy of the page also named Polygon). Of this gateway's chains: Ethereum only; USDT elsewhere (Arbitrum, Optimism, Base, Polygon today) is bridged or USDT0, not Tether's own issuance.",
    missing:
      "The contract address and decimals in Tether's own words: the page's ERC-20 section could not be read here, and explorers, token lists and wallets are not the issuer. Until it is, the sandbox's USDT (contracts/TetherTokenDevnet.sol) carries its behaviour, and an operator may not add it by configuration either.",
  },
  {
    symbol: "EURC",
    blockchains: "polygon, arbitrum, optimism",
    found:
      "Circle's EURC Contract Addresses page lists Arc, Avalanche C-Chain, Base, Cronos, Ethereum, Plasma, Solana, Stellar and World Chain: EURC is live here on Ethereum and Base.",
    missing:
      "Circle does not issue EURC on Polygon PoS, Arbitrum One or OP Mainnet. No EURC/USD feed is built in on Ethereum or Base (fiat pricing of EURC orders needs one configured with PRICE_FEEDS).",
  },
  {
    symbol: "DAI / USDS",
    blockchains: "all",
    found:
      "Addresses for DAI and USDS (Ethereum, and USDS on Base and Arbitrum) appear in token lists, explorers and third-party integrations; none of these is Sky's own documentation.",
    missing:
      "An excerpt of Sky's own documentation (developers.sky.money, the chainlog) with the address and decimals on each chain could not be read here, nor Chainlink's DAI/USD and USDS/USD feed pages. Neither goes live until both are. Neither has EIP-3009 (DAI's permit is its own, not EIP-2612's; USDS has a permit): no gasless payments either way.",
  },
];
