import { describe, expect, test } from "vitest";
import { BaseError, ContractFunctionRevertedError, createPublicClient, erc20Abi, http, keccak256, parseSignature, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devnetContracts } from "@/lib/chains/catalog";
import { noBoolTokenArtifact, subscriptionFactoryArtifact, subscriptionPullArtifact, testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { permitTypedData, subscriptionPullAddress, termsArgument, type SubscriptionTerms } from "@/lib/chains/subscription-pull";
import { setupTestDevnet } from "../helpers/devnet";

const net = setupTestDevnet();
const usdc = devnetContracts.USDC;
const pullAbi = subscriptionPullArtifact.abi;
const factoryAbi = subscriptionFactoryArtifact.abi;
const DAY = 86_400n;
const cap = 10_000_000n; // 10 USDC a period

function errorName(error: unknown): string | undefined {
  const reverted = error instanceof BaseError ? (error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;
  return reverted?.data?.errorName;
}

const client = () => createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl), pollingInterval: 50 });

async function mined(hash: Hex) {
  const receipt = await client().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

async function chainTime(): Promise<bigint> {
  return (await client().getBlock()).timestamp;
}

/** Moves the chain clock by `seconds` and mines a block there. */
async function advance(seconds: bigint) {
  await net.testClient().increaseTime({ seconds: Number(seconds) });
  await net.testClient().mine({ blocks: 1 });
}

/** The gateway key (operator), the merchant's wallet, a subscriber holding 100 USDC, and a factory deployed by an account that is not the fixed-address deployer. */
async function setup(options: { start?: bigint; end?: bigint } = {}) {
  const operator = net.wallet(devnetAccounts[5].privateKey);
  const merchant = net.wallet(devnetAccounts[6].privateKey);
  const subscriberKey = generatePrivateKey();
  const subscriber = net.wallet(subscriberKey);
  await mined(
    await operator.writeContract({ address: usdc, abi: testTokenArtifact.abi, functionName: "mint", args: [subscriber.account.address, 100_000_000n] }),
  );
  await mined(await operator.sendTransaction({ to: subscriber.account.address, value: 10n ** 17n }));
  const factoryReceipt = await mined(await operator.deployContract({ abi: factoryAbi, bytecode: subscriptionFactoryArtifact.bytecode }));
  const factory = factoryReceipt.contractAddress!;
  const now = await chainTime();
  const terms: SubscriptionTerms = {
    token: usdc,
    subscriber: subscriber.account.address,
    merchant: merchant.account.address,
    operator: operator.account.address,
    maxAmountPerPeriod: cap,
    period: 30n * DAY,
    start: options.start ?? now,
    end: options.end ?? 0n,
    id: keccak256(toHex(crypto.getRandomValues(new Uint8Array(32)))),
  };
  const pull = subscriptionPullAddress(factory, terms);
  const balance = (address: Address) => client().readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [address] });
  return { operator, merchant, subscriber, subscriberKey, factory, terms, pull, balance };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The subscriber signs a permit for the pull contract; the operator deploys it and submits the permit in one transaction (the subscriber pays no gas). */
async function subscribeWithPermit(s: Setup, value = cap * 12n) {
  const domain = { name: "USD Coin", version: "2", chainId: devnetChain.id, verifyingContract: usdc };
  const nonce = await client().readContract({ address: usdc, abi: testTokenArtifact.abi, functionName: "nonces", args: [s.subscriber.account.address] });
  const deadline = (await chainTime()) + 3600n;
  const signature = await privateKeyToAccount(s.subscriberKey).signTypedData(
    permitTypedData(domain, { owner: s.subscriber.account.address, spender: s.pull, value, nonce, deadline }),
  );
  const { v, r, s: sigS } = parseSignature(signature);
  return mined(
    await s.operator.writeContract({
      address: s.factory,
      abi: factoryAbi,
      functionName: "deployWithPermit",
      args: [termsArgument(s.terms), value, deadline, Number(v), r, sigS],
    }),
  );
}

async function charge(s: Setup, amount: bigint, by: "operator" | "merchant" = "operator") {
  const wallet = by === "operator" ? s.operator : s.merchant;
  return mined(await wallet.writeContract({ address: s.pull, abi: pullAbi, functionName: "charge", args: [amount] }));
}

/** The revert `wallet`'s call would meet (simulated: nothing is sent). */
async function refusal(wallet: Setup["operator"], address: Address, functionName: "charge" | "cancel", args: readonly [bigint] | readonly [] = []) {
  const error = await client()
    .simulateContract({ account: wallet.account, address, abi: pullAbi, functionName, args } as Parameters<ReturnType<typeof client>["simulateContract"]>[0])
    .catch((e: unknown) => e);
  return errorName(error);
}

describe("SubscriptionPull: a subscriber's allowance pays one period's amount per period to the merchant only", () => {
  test("the address is fixed by the terms (offline = factory's view = deployed); a permit signed once funds three periods, each charged once", async () => {
    const s = await setup();
    expect(await client().readContract({ address: s.factory, abi: factoryAbi, functionName: "subscriptionAddress", args: [termsArgument(s.terms)] })).toBe(
      s.pull,
    );
    await subscribeWithPermit(s);
    expect(await client().getCode({ address: s.pull })).not.toBe(undefined);
    expect(await client().readContract({ address: s.pull, abi: pullAbi, functionName: "merchant" })).toBe(s.merchant.account.address);
    expect(await client().readContract({ address: usdc, abi: erc20Abi, functionName: "allowance", args: [s.subscriber.account.address, s.pull] })).toBe(
      cap * 12n,
    );
    const merchantBefore = await s.balance(s.merchant.account.address);

    for (let period = 0n; period < 3n; period++) {
      const receipt = await charge(s, cap);
      expect(receipt.logs.some((log) => log.address.toLowerCase() === s.pull.toLowerCase())).toBe(true);
      expect(await refusal(s.operator, s.pull, "charge", [1n])).toBe("PeriodAlreadyCharged");
      await advance(s.terms.period);
    }
    expect(await s.balance(s.merchant.account.address)).toBe(merchantBefore + 3n * cap);
    expect(await s.balance(s.subscriber.account.address)).toBe(100_000_000n - 3n * cap);
    expect(await client().readContract({ address: s.pull, abi: pullAbi, functionName: "nextPeriod" })).toBe(3n);
  });

  test("a compromised gateway key cannot take more than the cap, charge early or twice, catch up missed periods, or pay anyone but the merchant", async () => {
    const s = await setup({ start: (await chainTime()) + 7n * DAY }); // a seven-day trial
    await subscribeWithPermit(s);
    const attacker = s.operator;
    const before = await s.balance(s.subscriber.account.address);

    expect(await refusal(attacker, s.pull, "charge", [cap])).toBe("NotStarted");
    await advance(7n * DAY);
    expect(await refusal(attacker, s.pull, "charge", [cap + 1n])).toBe("AmountOverCap");
    expect(await refusal(attacker, s.pull, "charge", [0n])).toBe("AmountOverCap");
    await charge(s, cap);
    expect(await refusal(attacker, s.pull, "charge", [cap])).toBe("PeriodAlreadyCharged");

    // Straight at the token: the allowance belongs to the pull contract, not to the key.
    const direct = await client()
      .simulateContract({
        account: attacker.account,
        address: usdc,
        abi: testTokenArtifact.abi,
        functionName: "transferFrom",
        args: [s.subscriber.account.address, attacker.account.address, 1n],
      })
      .catch((e: unknown) => e);
    expect(errorName(direct)).toBe("InsufficientAllowance");

    // A pull contract of its own naming itself the merchant gets another address, which the subscriber never allowed.
    const rogueTerms = { ...s.terms, merchant: attacker.account.address };
    const rogue = subscriptionPullAddress(s.factory, rogueTerms);
    expect(rogue).not.toBe(s.pull);
    await mined(await attacker.writeContract({ address: s.factory, abi: factoryAbi, functionName: "deploy", args: [termsArgument(rogueTerms)] }));
    await advance(s.terms.period);
    expect(await refusal(attacker, rogue, "charge", [1n])).toBe("TokenTransferFailed");

    // Four periods skipped: only the running one can be charged, once.
    await advance(3n * s.terms.period);
    await charge(s, cap);
    expect(await refusal(attacker, s.pull, "charge", [1n])).toBe("PeriodAlreadyCharged");
    expect(await s.balance(s.subscriber.account.address)).toBe(before - 2n * cap);
    expect(await s.balance(attacker.account.address)).toBe(0n);

    // Nobody but the operator and the merchant triggers a charge (a stranger could waste a period on dust).
    const stranger = net.wallet(generatePrivateKey());
    expect(await refusal(stranger, s.pull, "charge", [1n])).toBe("NotAllowed");
    expect(await refusal(s.subscriber, s.pull, "charge", [1n])).toBe("NotAllowed");
  });

  test("the merchant is held to the same cap and period", async () => {
    const s = await setup();
    await subscribeWithPermit(s);
    expect(await refusal(s.merchant, s.pull, "charge", [cap + 1n])).toBe("AmountOverCap");
    await charge(s, cap / 2n, "merchant");
    expect(await refusal(s.merchant, s.pull, "charge", [cap / 2n])).toBe("PeriodAlreadyCharged");
  });

  test("nothing moves after cancellation, by the subscriber or the merchant; the operator may cancel; a stranger may not", async () => {
    for (const by of ["subscriber", "merchant", "operator"] as const) {
      const s = await setup();
      await subscribeWithPermit(s);
      await charge(s, cap);
      expect(await refusal(net.wallet(generatePrivateKey()), s.pull, "cancel")).toBe("NotAllowed");
      await mined(await s[by].writeContract({ address: s.pull, abi: pullAbi, functionName: "cancel" }));
      expect(await client().readContract({ address: s.pull, abi: pullAbi, functionName: "canceled" })).toBe(true);
      await advance(s.terms.period);
      expect(await refusal(s.operator, s.pull, "charge", [1n])).toBe("SubscriptionCanceled");
      expect(await refusal(s.merchant, s.pull, "charge", [1n])).toBe("SubscriptionCanceled");
    }
  });

  test("an empty wallet or a revoked allowance fails the charge without spending the period: a retry in the same period succeeds once paid for", async () => {
    const s = await setup();
    await subscribeWithPermit(s);
    await mined(await s.subscriber.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [devnetAccounts[7].address, 100_000_000n] }));
    expect(await refusal(s.operator, s.pull, "charge", [cap])).toBe("TokenTransferFailed");
    await mined(await s.operator.writeContract({ address: usdc, abi: testTokenArtifact.abi, functionName: "mint", args: [s.subscriber.account.address, cap] }));
    await advance(DAY); // a grace-period retry, still in period 0
    await charge(s, cap);
    expect(await client().readContract({ address: s.pull, abi: pullAbi, functionName: "nextPeriod" })).toBe(1n);

    await mined(await s.operator.writeContract({ address: usdc, abi: testTokenArtifact.abi, functionName: "mint", args: [s.subscriber.account.address, cap] }));
    await mined(await s.subscriber.writeContract({ address: usdc, abi: erc20Abi, functionName: "approve", args: [s.pull, 0n] }));
    await advance(s.terms.period);
    expect(await refusal(s.operator, s.pull, "charge", [cap])).toBe("TokenTransferFailed");
    expect(await client().readContract({ address: s.pull, abi: pullAbi, functionName: "chargeable" })).toBe(true);
  });

  test("no period starting at or after the end is charged", async () => {
    const now = await chainTime();
    const s = await setup({ start: now, end: now + 60n * DAY });
    await subscribeWithPermit(s);
    await charge(s, cap);
    await advance(30n * DAY);
    await charge(s, cap);
    await advance(30n * DAY);
    expect(await client().readContract({ address: s.pull, abi: pullAbi, functionName: "chargeable" })).toBe(false);
    expect(await refusal(s.operator, s.pull, "charge", [1n])).toBe("SubscriptionEnded");
  });

  test("without permit: an approve to the address before deployment, on a token whose transferFrom returns nothing (USDT style)", async () => {
    const s = await setup();
    const tokenReceipt = await mined(await s.operator.deployContract({ abi: noBoolTokenArtifact.abi, bytecode: noBoolTokenArtifact.bytecode }));
    const token = tokenReceipt.contractAddress!;
    const terms = { ...s.terms, token };
    const pull = subscriptionPullAddress(s.factory, terms);
    await mined(
      await s.operator.writeContract({ address: token, abi: noBoolTokenArtifact.abi, functionName: "mint", args: [s.subscriber.account.address, cap] }),
    );
    await mined(await s.subscriber.writeContract({ address: token, abi: noBoolTokenArtifact.abi, functionName: "approve", args: [pull, cap * 12n] }));
    await mined(await s.operator.writeContract({ address: s.factory, abi: factoryAbi, functionName: "deploy", args: [termsArgument(terms)] }));
    await mined(await s.operator.writeContract({ address: pull, abi: pullAbi, functionName: "charge", args: [cap] }));
    expect(await client().readContract({ address: token, abi: noBoolTokenArtifact.abi, functionName: "balanceOf", args: [s.merchant.account.address] })).toBe(
      cap,
    );
    await advance(s.terms.period);
    expect(await refusal(s.operator, pull, "charge", [cap])).toBe("TokenTransferFailed"); // the wallet is empty
  });

  test("terms that could not be honoured are refused at deployment", async () => {
    const s = await setup();
    for (const bad of [{ period: 0n }, { maxAmountPerPeriod: 0n }, { end: s.terms.start }, { token: devnetAccounts[8].address }]) {
      const error = await client()
        .simulateContract({
          account: s.operator.account,
          address: s.factory,
          abi: factoryAbi,
          functionName: "deploy",
          args: [termsArgument({ ...s.terms, ...bad })],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BaseError);
    }
  });

  test("a charge costs a bounded overhead over a plain token transfer between wallets that already hold the token", async () => {
    const s = await setup();
    const subscribed = (await subscribeWithPermit(s)).gasUsed;
    await mined(await s.operator.writeContract({ address: usdc, abi: testTokenArtifact.abi, functionName: "mint", args: [s.merchant.account.address, 1n] }));
    const plain = (
      await mined(await s.subscriber.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [s.merchant.account.address, cap] }))
    ).gasUsed;
    const first = (await charge(s, cap)).gasUsed;
    await advance(s.terms.period);
    const later = (await charge(s, cap)).gasUsed;
    console.info(`gas: deploy with permit ${subscribed}, plain transfer ${plain}, first charge ${first}, later charge ${later}`);
    // The pull adds a call, its period slot and the allowance update over the transfer.
    expect(later - plain).toBeLessThan(20_000n);
    expect(first - plain).toBeLessThan(40_000n);
  });
});
