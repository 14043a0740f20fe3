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
/** Tether's own documentation (its Wallet Development Kit), published from github.com/tetherto/wdk-docs. */
const tetherWdkAssets = "https://docs.wallet.tether.io/tools/react-native-core/api-reference";
/** Maker's (now Sky's) own developer guide to the Dai token, from github.com/makerdao/developerguides. */
const makerDaiGuide = "https://github.com/makerdao/developerguides/blob/master/dai/dai-token/dai-token.md";
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
  {
    blockchain: "ethereum",
    symbol: "USDT",
    address: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    decimals: 6,
    eip3009: false,
    feed: "USDT/USD",
    feedAddress: "0x3E7d1eAB13ad0104d2750B8863b489D65364e32D",
    feedSource: catalogFeeds,
    source: tetherWdkAssets,
    quote:
      "new BaseAsset({ id: 'usdt-eth', network: 'ethereum', symbol: 'USDT', name: 'Tether USD', decimals: 6, isNative: false, address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' }) (tetherto/wdk-docs e2f6b3b, content/docs/tools/react-native-core/api-reference.mdx); the same repository's deployments reference lists \"USD₮ (USDT) — Native Deployments … All USDT are 6 decimals. | Ethereum | 0xdAC17F958D2ee523a2206206994597C13D831ec7 | Non-standard ERC20: no bool return on transfer() … Does NOT support EIP-3009.\"",
    behaviour:
      "Tether's TetherToken: transfer and transferFrom return nothing; approve reverts when changing one non-zero allowance to another (approve 0 first); the owner may set a transfer fee (0 today); Tether keeps a blacklist (a blacklisted sender cannot move tokens and its funds can be destroyed) and can pause; the contract can be deprecated to a successor it forwards to. No EIP-3009 or EIP-2612.",
  },
  {
    blockchain: "ethereum",
    symbol: "DAI",
    address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    decimals: 18,
    eip3009: false,
    feed: null,
    feedAddress: null,
    feedSource: null,
    source: makerDaiGuide,
    quote:
      'Token Info › Addresses: "Dai is available on the: - Ethereum mainnet at [0x6B175474E89094C44Da98b954EedeAC495271d0F]"; Details: "Token precision field decimals is set to 18 like most other ERC20 tokens." (makerdao/developerguides 9ded1b6)',
    behaviour:
      "Maker's Dai (dss dai.sol, not upgradeable): transfer and transferFrom return true; no transfer fee; no blocklist and no pause; its own permit (allowance by signature, not EIP-2612's and no EIP-3009). Priced in fiat only with a DAI/USD feed configured (PRICE_FEEDS); none is built in.",
  },
];

/** Tokens looked for and not live yet (or not on every chain), with what is missing. */
export const candidates: Array<{ symbol: string; blockchains: string; found: string; missing: string }> = [
  {
    symbol: "USDT",
    blockchains: "base, polygon, arbitrum, optimism",
    found:
      "Tether's own deployments reference (tetherto/wdk-docs, skills/wdk/references/deployments.md) lists USD₮'s native deployments (of this gateway's chains: Ethereum only, live) apart from USD₮0, the LayerZero omnichain token on Arbitrum One (0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9), OP Mainnet (0x01bFF41798a0BcF287b996046Ca68b395DbC1071) and Polygon PoS (0xc2132D05D31c914a87C6611C10748AEb04B58e8F); nothing on Base.",
    missing:
      "USD₮0 is not Tether's native issuance (the issue asks for USDT where Tether issues it natively), and its transfer behaviour (an OFT, not TetherToken) is not the sandbox copy's: it is left out until it is asked for and tested as its own token.",
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
    blockchains: "DAI: base, polygon, arbitrum, optimism; USDS: all",
    found:
      "Maker's developer guide gives Dai's Ethereum address and decimals (live) and points elsewhere for other deployments (changelog.makerdao.com); Dai on the other chains is bridged. Addresses for USDS appear in token lists, explorers and third-party integrations.",
    missing:
      "Sky's own text (developers.sky.money, the chainlog) with USDS's address and decimals on each chain could not be read here, nor Chainlink's DAI/USD and USDS/USD feed pages: DAI is live on Ethereum without a built-in feed (fiat pricing needs one configured with PRICE_FEEDS), USDS not at all.",
  },
];
