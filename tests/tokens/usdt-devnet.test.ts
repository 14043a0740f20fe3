/**
 * The sandbox's USDT behaves like Tether's contract on Ethereum mainnet (contracts/TetherTokenDevnet.sol),
 * and a USDT payment goes through the gateway end to end on the real devnet: no return value on
 * transfer and approve, approve only from zero, a blocklist, an optional transfer fee; the order is
 * paid by the sandbox pay tool, confirmed and swept to the merchant's wallet.
 */
import { describe, expect, test } from "vitest";
import { encodeFunctionData, parseAbi, type Address } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { devnetContracts, findBlockchainBySlug } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { tetherTokenDevnetArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = () => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true });
const usdt = devnetContracts.USDT;
const abi = tetherTokenDevnetArtifact.abi;
const deployer = devnetAccounts[0];
const holder = devnetAccounts[8];
const balanceOf = (address: string) => client().readContract({ address: usdt, abi, functionName: "balanceOf", args: [address as Address] });

async function mined(hash: `0x${string}`) {
  return client().waitForTransactionReceipt({ hash });
}

const fetchOrder = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
};

describe("the sandbox USDT has mainnet USDT's quirks", () => {
  test("transfer and approve return no data; approve needs zero first", async () => {
    const wallet = net.wallet(holder.privateKey);
    await mined(await wallet.writeContract({ address: usdt, abi, functionName: "mint", args: [holder.address, 5_000_000n] }));
    // eth_call of transfer: an empty answer, where an ERC-20 returns a 32-byte bool.
    const answer = await client().call({
      account: holder.address,
      to: usdt,
      data: encodeFunctionData({ abi, functionName: "transfer", args: [randomAddress() as Address, 1n] }),
    });
    expect(answer.data ?? "0x").toBe("0x");
    // A caller that expects the ERC-20 bool cannot decode it.
    const erc20 = parseAbi(["function transfer(address,uint256) returns (bool)"]);
    await expect(
      client().simulateContract({ account: holder.address, address: usdt, abi: erc20, functionName: "transfer", args: [randomAddress() as Address, 1n] }),
    ).rejects.toThrow();

    const spender = randomAddress() as Address;
    await mined(await wallet.writeContract({ address: usdt, abi, functionName: "approve", args: [spender, 100n] }));
    await expect(client().simulateContract({ account: holder.address, address: usdt, abi, functionName: "approve", args: [spender, 200n] })).rejects.toThrow();
    await mined(await wallet.writeContract({ address: usdt, abi, functionName: "approve", args: [spender, 0n] }));
    await mined(await wallet.writeContract({ address: usdt, abi, functionName: "approve", args: [spender, 200n] }));
    expect(await client().readContract({ address: usdt, abi, functionName: "allowance", args: [holder.address, spender] })).toBe(200n);
  });

  test("a blocklisted sender cannot transfer; with the fee on, the recipient gets the value less the fee", async () => {
    const wallet = net.wallet(holder.privateKey);
    const owner = net.wallet(deployer.privateKey);
    await mined(await wallet.writeContract({ address: usdt, abi, functionName: "mint", args: [holder.address, 5_000_000n] }));
    await mined(await owner.writeContract({ address: usdt, abi, functionName: "addBlackList", args: [holder.address] }));
    await expect(
      client().simulateContract({ account: holder.address, address: usdt, abi, functionName: "transfer", args: [randomAddress() as Address, 1n] }),
    ).rejects.toThrow();
    await mined(await owner.writeContract({ address: usdt, abi, functionName: "removeBlackList", args: [holder.address] }));

    await mined(await owner.writeContract({ address: usdt, abi, functionName: "setParams", args: [10n, 1n] })); // 0.1 %, at most 1 USDT
    const to = randomAddress();
    await mined(await wallet.writeContract({ address: usdt, abi, functionName: "transfer", args: [to as Address, 1_000_000n] }));
    expect(await balanceOf(to)).toBe(999_000n);
    await mined(await owner.writeContract({ address: usdt, abi, functionName: "setParams", args: [0n, 0n] }));
  });
});

describe("a USDT payment", () => {
  test("is paid, confirmed and swept to the merchant's wallet", async () => {
    expect(findBlockchainBySlug("base")!.tokens.find((t) => t.symbol === "USDT")).toMatchObject({ address: usdt, decimals: 6, eip3009: null });
    const merchant = await createMerchant();
    const wallet = randomAddress();
    await createWallet(merchant, { blockchain: 2, wallet_address: wallet, confirmation_threshold: 2 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "25.5", currency: "USDT" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    await tick();
    await net.testClient().mine({ blocks: 1 });
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", currency: "USDT", amount_received: "25.5" });
    const swept = await sweepConfirmedDeposits(testDb.db, base(), client());
    expect(swept.swept).toContain(order.order_id);
    expect(await balanceOf(wallet)).toBe(25_500_000n);
    expect(await balanceOf(order.receiving_address)).toBe(0n);
  });
});
