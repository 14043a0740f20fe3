/**
 * A USDT payout batch on the real devnet, with mainnet USDT's approve (contracts/TetherTokenDevnet.sol
 * reverts an approve from one non-zero allowance to another): the batch carries
 * `allowance_reset_transaction`, approve(disperser, 0); with an allowance left standing, the batch's
 * own approve fails alone and goes through after the reset, and the batch pays. A USDC batch has no
 * reset transaction.
 */
import { describe, expect, test } from "vitest";
import { decodeFunctionData, erc20Abi, parseAbi, type Address, type Hex } from "viem";
import { POST as postPayout } from "@/app/api/payouts/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { expectMatchesSchema } from "../helpers/openapi";
import { createMerchant, createWallet, randomAddress } from "../helpers/factories";
import { call } from "../helpers/request";

setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const usdtAbi = parseAbi(["function mint(address,uint256)", "function approve(address,uint256)", "function allowance(address,address) view returns (uint256)"]);
/** A devnet account of its own, so no other test's allowance stands in the way. */
const payer = devnetAccounts[9];

const create = (token: string, body: unknown) => call(postPayout, "POST", "/api/payouts/", { token, body });

describe("USDT payout allowance", () => {
  test("a standing allowance is reset to 0 first: approve alone reverts, reset + approve + batch pay", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: randomAddress(), confirmation_threshold: 2 });
    const wallet = net.wallet(payer.privateKey as Hex);
    const mined = async (hash: Hex) => expect((await client().waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe("success");
    await mined(
      await wallet.writeContract({ address: devnetContracts.USDT, abi: usdtAbi, functionName: "mint", args: [payer.address as Address, 100_000_000n] }),
    );

    const recipient = randomAddress();
    const created = await create(merchant.access, { blockchain: "base", currency: "USDT", legs: [{ address: recipient, amount: "3" }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectMatchesSchema("POST /api/payouts", 201, created.body);
    const batch = created.body.data;
    const disperser = batch.contract_address as Address;
    expect(batch.allowance_reset_transaction).toMatchObject({ to: devnetContracts.USDT, value: "0", chainId: base().chainId });
    expect(decodeFunctionData({ abi: erc20Abi, data: batch.allowance_reset_transaction.data })).toEqual({ functionName: "approve", args: [disperser, 0n] });
    expect(decodeFunctionData({ abi: erc20Abi, data: batch.allowance_transaction.data })).toEqual({ functionName: "approve", args: [disperser, 3_000_000n] });

    // An allowance left from earlier (more than that batch took): USDT refuses to change it to another non-zero value.
    await mined(await wallet.writeContract({ address: devnetContracts.USDT, abi: usdtAbi, functionName: "approve", args: [disperser, 1_000_000n] }));
    const alone = await client()
      .call({ account: payer.address as Address, to: batch.allowance_transaction.to, data: batch.allowance_transaction.data })
      .catch((error: unknown) => error);
    expect(alone).toBeInstanceOf(Error);

    for (const tx of [batch.allowance_reset_transaction, batch.allowance_transaction, batch.transaction]) {
      await mined(await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value) }));
    }
    expect(
      await client().readContract({ address: devnetContracts.USDT, abi: usdtAbi, functionName: "allowance", args: [payer.address as Address, disperser] }),
    ).toBe(0n);
    expect(
      await client().readContract({ address: devnetContracts.USDT, abi: erc20Abi, functionName: "balanceOf", args: [recipient as Address] }),
    ).toBeGreaterThan(0n);

    const usdc = await create(merchant.access, { blockchain: "base", currency: "USDC", legs: [{ address: randomAddress(), amount: "1" }] });
    expect(usdc.status, JSON.stringify(usdc.body)).toBe(201);
    expect(usdc.body.data.allowance_reset_transaction).toBeNull();
    expect(usdc.body.data.allowance_transaction).not.toBeNull();
  });
});
