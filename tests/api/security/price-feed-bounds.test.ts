/** Issue 24 item 8: price feeds are checked before a rate is locked from them, and the devnet's mock feed is its deployer's alone. */
import { describe, expect, test } from "vitest";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { devnetContracts, type DevnetFeedPair } from "@/lib/chains/catalog";
import { mockAggregatorArtifact } from "@/lib/chains/contract-artifacts";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { feedAnswerProblem } from "@/lib/pricing/price-feeds";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();
const net = setupTestDevnet();

let nonce = 1;
async function priceOrder(merchant: TestMerchant, body: Record<string, unknown>) {
  return call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: { blockchain: "base", order_info: "{}", nonce: nonce++, ...body } });
}

async function merchantWithWallet() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
  return merchant;
}

async function setFeed(pair: DevnetFeedPair, answer: bigint, updatedAt = 0n) {
  const deployer = net.wallet(devnetAccounts[0].privateKey);
  const hash = await deployer.writeContract({
    address: devnetContracts.priceFeeds[pair],
    abi: mockAggregatorArtifact.abi,
    functionName: "setRoundData",
    args: [answer, updatedAt],
  });
  const receipt = await chainClient(net.chain("base")).waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

describe("the devnet's mock price feed", () => {
  test("only its deployer may set an answer: anyone else's setAnswer reverts, and a 30 USD order still costs ~30 USD of ETH", async () => {
    const merchant = await merchantWithWallet();
    const stranger = net.wallet(devnetAccounts[7].privateKey);
    for (const functionName of ["setAnswer", "setRoundData"] as const) {
      const args = functionName === "setAnswer" ? ([10n ** 40n] as const) : ([10n ** 40n, 0n] as const);
      await expect(
        stranger.writeContract({ address: devnetContracts.priceFeeds["ETH/USD"], abi: mockAggregatorArtifact.abi, functionName, args } as never),
      ).rejects.toThrow(/NotOwner|revert/);
    }
    const res = await priceOrder(merchant, { price_amount: "30.00", price_currency: "USD", currency: "ETH" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 30 / 3412.57, rounded up to the wei
    expect(res.body.data).toMatchObject({ amount: "0.008791028462419819", rate: "3412.57" });
  });
});

describe("feed answers outside sane bounds are refused with 503 PRICE_FEED_UNAVAILABLE; no order is created", () => {
  test("an updatedAt in the future (never stale by age) is refused", async () => {
    const merchant = await merchantWithWallet();
    await setFeed("POL/USD", 45_100_000n, BigInt(Math.floor(Date.now() / 1000) + 86_400));
    const res = await priceOrder(merchant, { price_amount: "5.00", price_currency: "USD", currency: "POL", blockchain: "polygon" });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([503, "PRICE_FEED_UNAVAILABLE"]);
    expect(res.body.error.message).toContain("in the future");
  });

  test("a round that moves more than 25 % from the previous one is refused; a 20 % move is a price", async () => {
    const merchant = await merchantWithWallet();
    await setFeed("EUR/USD", 108_420_000n * 2n);
    let res = await priceOrder(merchant, { price_amount: "10.00", price_currency: "EUR", currency: "USDC" });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([503, "PRICE_FEED_UNAVAILABLE"]);
    expect(res.body.error.message).toMatch(/EUR\/USD price feed on base moved from 108420000 to 216840000 in one round/);

    await setFeed("USDC/USD", 99_980_000n); // same answer, new round: no deviation
    await setFeed("ETH/USD", 409_508_400_000n); // +20 %
    res = await priceOrder(merchant, { price_amount: "30.00", price_currency: "USD", currency: "ETH" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.rate).toBe("4095.084");
  });

  test("an answer at the aggregator's maxAnswer (Chainlink's clamp) is refused", async () => {
    const merchant = await merchantWithWallet();
    const int192Max = 2n ** 191n - 1n;
    await setFeed("USDT/USD", int192Max);
    const res = await priceOrder(merchant, { price_amount: "30.00", price_currency: "USD", currency: "USDT" });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([503, "PRICE_FEED_UNAVAILABLE"]);
    expect(res.body.error.message).toContain("at or beyond its bounds");
  });

  test("an answer carried over from an older round (answeredInRound < roundId) is refused", () => {
    const round = (id: bigint, answer: bigint, answeredIn = id) => [id, answer, 1_000n, 1_000n, answeredIn] as const;
    const sane = {
      blockTimestamp: 1_000n,
      decimals: 8,
      round: round(5n, 100_000_000n),
      previous: round(4n, 99_000_000n),
      bounds: { min: 1n, max: 10n ** 20n },
    };
    expect(feedAnswerProblem(sane)).toBeNull();
    expect(feedAnswerProblem({ ...sane, round: round(5n, 100_000_000n, 4n) })).toBe("answered round 5 with the answer of round 4");
    expect(feedAnswerProblem({ ...sane, bounds: null, previous: null })).toBeNull();
    expect(feedAnswerProblem({ ...sane, round: [5n, 100_000_000n, 1_000n, 1_001n, 5n] })).toContain("in the future");
  });
});
