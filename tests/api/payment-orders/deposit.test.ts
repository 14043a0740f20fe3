import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { createPublicClient, createWalletClient, http, parseEther, type Address, type Hash, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetContracts } from "@/lib/chains/catalog";
import { depositFactoryV2Artifact, depositForwarderV2Artifact, testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { deployGatewayContracts, devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { paymentOrders } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";

const testDb = setupTestDatabase();

const [deployer, payer, anyone] = devnetAccounts;

// A new chain without the contracts: the file deploys them itself.
const devnet = setupTestDevnet({ deploy: false });
let client: PublicClient;
let merchant: TestMerchant;
let wallet: any;

const signer = (privateKey: Hex) => createWalletClient({ account: privateKeyToAccount(privateKey), chain: devnetChain, transport: http(devnet.rpcUrl) });

async function mined(hash: Hash) {
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

const usdcBalance = (owner: Address) =>
  client.readContract({ address: devnetContracts.USDC, abi: testTokenArtifact.abi, functionName: "balanceOf", args: [owner] });

async function depositOf(orderId: number) {
  const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  return { destination: row!.depositDestination as Address, salt: row!.depositSalt as Hex, factory: row!.depositFactory as Address };
}

/** DepositFactoryV2's single flush (new orders' factory), sent by an account with no part in the order. */
async function deployAndFlush(destination: Address, salt: Hex, tokens: Address[]) {
  await mined(
    await signer(anyone.privateKey).writeContract({
      address: devnetContracts.factoryV2,
      abi: depositFactoryV2Artifact.abi,
      functionName: "flush",
      args: [destination, salt, tokens],
    }),
  );
}

beforeAll(async () => {
  client = createPublicClient({ chain: devnetChain, transport: http(devnet.rpcUrl, { retryCount: 0 }), pollingInterval: 50 });
  // A fresh devnet puts the contracts at the catalog's fixed devnet addresses.
  const deployed = await deployGatewayContracts({ rpcUrl: devnet.rpcUrl });
  expect(deployed.factory).toBe(devnetContracts.factory);
  expect(deployed.factoryV2).toBe(devnetContracts.factoryV2);
  merchant = await createMerchant();
  wallet = await createWallet(merchant, { blockchain: 2 });
});

describe("an order's deposit address on a real devnet", () => {
  test("USDC sent to receiving_address reaches the merchant wallet through flush(destination, salt, [USDC]) of the order's DepositFactoryV2", async () => {
    const order = await createOrder(merchant, { currency: "USDC", amount: "12.5" });
    const { destination, salt, factory } = await depositOf(order.id);
    expect(destination).toBe(wallet.wallet_address);
    expect(factory).toBe(devnetContracts.factoryV2);
    const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id));
    expect(row!.depositFactoryVersion).toBe(2);

    const onChain = await client.readContract({
      address: devnetContracts.factoryV2,
      abi: depositFactoryV2Artifact.abi,
      functionName: "computeAddress",
      args: [destination, salt],
    });
    expect(onChain).toBe(order.receiving_address);

    // The customer pays: test USDC minted to a payer, then transferred to the deposit address.
    await mined(
      await signer(deployer.privateKey).writeContract({
        address: devnetContracts.USDC,
        abi: testTokenArtifact.abi,
        functionName: "mint",
        args: [payer.address, 12_500_000n],
      }),
    );
    await mined(
      await signer(payer.privateKey).writeContract({
        address: devnetContracts.USDC,
        abi: testTokenArtifact.abi,
        functionName: "transfer",
        args: [order.receiving_address, 12_500_000n],
      }),
    );
    expect(await usdcBalance(order.receiving_address)).toBe(12_500_000n);
    expect(await usdcBalance(wallet.wallet_address)).toBe(0n);

    await deployAndFlush(wallet.wallet_address, salt, [devnetContracts.USDC]);
    expect(await usdcBalance(wallet.wallet_address)).toBe(12_500_000n);
    expect(await usdcBalance(order.receiving_address)).toBe(0n);
  });

  test("a DepositFactoryV2 forwarder keeps no destination: only its factory may flush it, so it pays nobody but the wallet its address was derived from", async () => {
    const order = await createOrder(merchant, { currency: "USDC", amount: "1" });
    const { salt } = await depositOf(order.id);
    await mined(
      await signer(deployer.privateKey).writeContract({
        address: devnetContracts.USDC,
        abi: testTokenArtifact.abi,
        functionName: "mint",
        args: [order.receiving_address, 1_000_000n],
      }),
    );
    await deployAndFlush(wallet.wallet_address, salt, []); // deployed, no token listed: nothing moves
    expect(await usdcBalance(order.receiving_address)).toBe(1_000_000n);
    // Called directly, the forwarder refuses whoever is not its factory.
    await expect(
      client.simulateContract({
        account: anyone.address,
        address: order.receiving_address,
        abi: depositForwarderV2Artifact.abi,
        functionName: "flush",
        args: [anyone.address, [devnetContracts.USDC]],
      }),
    ).rejects.toThrow(/NotFactory/);
    // Through the factory, another destination with the same salt is another (empty) address.
    await deployAndFlush(anyone.address, salt, [devnetContracts.USDC]);
    expect(await usdcBalance(order.receiving_address)).toBe(1_000_000n);
    expect(await usdcBalance(anyone.address)).toBe(0n);
  });

  test("ETH sent to a native-coin order's receiving_address reaches the merchant wallet", async () => {
    const order = await createOrder(merchant, { currency: "ETH", amount: "0.75" });
    const { salt } = await depositOf(order.id);
    const before = await client.getBalance({ address: wallet.wallet_address });
    await mined(await signer(payer.privateKey).sendTransaction({ to: order.receiving_address, value: parseEther("0.75"), gas: 21_000n }));
    await deployAndFlush(wallet.wallet_address, salt, []);
    expect((await client.getBalance({ address: wallet.wallet_address })) - before).toBe(parseEther("0.75"));
    expect(await client.getBalance({ address: order.receiving_address })).toBe(0n);
  });
});
