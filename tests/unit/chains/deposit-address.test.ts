import { beforeAll, describe, expect, it } from "vitest";
import {
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  getAddress,
  http,
  keccak256,
  parseEther,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { depositFactoryArtifact, depositForwarderArtifact, noBoolTokenArtifact, testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { computeDepositAddress, depositAddressViaViem, depositSalt, newOrderSalt } from "@/lib/chains/deposit-address";
import { randomBytesPooled } from "@/lib/ids";
import { deployGatewayContracts, devnetAccounts, devnetChain, type GatewayContracts } from "@/lib/chains/devnet";
import { setupTestDevnet } from "../../helpers/devnet";

const [deployerKeys, payerKeys, callerKeys] = devnetAccounts;

function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

describe("deposit address helpers (pure)", () => {
  it("derive the salt as keccak256(abi.encode(destination, orderSalt))", () => {
    const destination = freshAddress();
    const orderSalt = newOrderSalt();
    expect(depositSalt(destination, orderSalt)).toBe(keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [destination, orderSalt])));
    expect(depositSalt(destination.toLowerCase() as Address, orderSalt)).toBe(depositSalt(destination, orderSalt));
  });

  it("generate distinct 32-byte order salts and reject malformed ones", () => {
    const a = newOrderSalt();
    expect(a).toMatch(/^0x[0-9a-f]{64}$/);
    expect(newOrderSalt()).not.toBe(a);
    expect(() => depositSalt(freshAddress(), "0x1234")).toThrow(/32 bytes/);
  });

  it("compute the CREATE2 address on bytes exactly as viem's getContractAddress does", () => {
    for (let i = 0; i < 300; i++) {
      const params = { factory: freshAddress(), implementation: freshAddress(), destination: freshAddress(), salt: newOrderSalt() };
      const expected = depositAddressViaViem(params);
      expect(computeDepositAddress(params)).toBe(expected);
      expect(
        computeDepositAddress({ ...params, destination: params.destination.toLowerCase() as Address, factory: params.factory.toLowerCase() as Address }),
      ).toBe(expected);
    }
    expect(() =>
      computeDepositAddress({ factory: freshAddress(), implementation: freshAddress(), destination: "0x1234" as Address, salt: newOrderSalt() }),
    ).toThrow(/invalid/);
    expect(() => computeDepositAddress({ factory: freshAddress(), implementation: freshAddress(), destination: freshAddress(), salt: "0x12" })).toThrow(
      /32 bytes/,
    );
  });

  it("draw order salts from a pooled CSPRNG that never hands out the same bytes twice", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(newOrderSalt()); // crosses several pool refills
    expect(seen.size).toBe(1000);
    expect(randomBytesPooled(7)).toHaveLength(7);
    expect(randomBytesPooled(1000)).toHaveLength(1000); // larger than a share of the pool: its own call
  });

  it("lists funded accounts whose keys match their addresses", () => {
    expect(devnetAccounts).toHaveLength(10);
    for (const { address, privateKey } of devnetAccounts) {
      expect(privateKeyToAccount(privateKey).address).toBe(address);
    }
  });
});

describe("deposit forwarders on a devnet", () => {
  // A new chain without the contracts: deploying them is part of what is tested.
  const devnet = setupTestDevnet({ deploy: false });
  let contracts: GatewayContracts;
  let noBoolToken: Address;
  let publicClient: PublicClient;

  const wallet = (privateKey: Hex) => createWalletClient({ account: privateKeyToAccount(privateKey), chain: devnetChain, transport: http(devnet.rpcUrl) });

  async function confirmed(hash: Hash) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    return receipt;
  }

  const tokenBalance = (token: Address, owner: Address) =>
    publicClient.readContract({ address: token, abi: testTokenArtifact.abi, functionName: "balanceOf", args: [owner] });

  async function mint(token: Address, to: Address, amount: bigint) {
    await confirmed(
      await wallet(deployerKeys.privateKey).writeContract({
        address: token,
        abi: testTokenArtifact.abi,
        functionName: "mint",
        args: [to, amount],
      }),
    );
  }

  async function deployAndFlush(destination: Address, salt: Hex, tokens: Address[]) {
    return confirmed(
      await wallet(callerKeys.privateKey).writeContract({
        address: contracts.factory,
        abi: depositFactoryArtifact.abi,
        functionName: "deployAndFlush",
        args: [destination, salt, tokens],
      }),
    );
  }

  function deployedEvents(receipt: Awaited<ReturnType<typeof deployAndFlush>>) {
    return receipt.logs.filter((log) => getAddress(log.address) === contracts.factory && log.topics.length === 3);
  }

  beforeAll(async () => {
    // Reverts come back as internal RPC errors, which viem would otherwise retry with backoff.
    publicClient = createPublicClient({
      chain: devnetChain,
      transport: http(devnet.rpcUrl, { retryCount: 0 }),
      pollingInterval: 50,
    });
    contracts = await deployGatewayContracts({ rpcUrl: devnet.rpcUrl });
    const receipt = await confirmed(
      await wallet(deployerKeys.privateKey).deployContract({
        abi: noBoolTokenArtifact.abi,
        bytecode: noBoolTokenArtifact.bytecode,
      }),
    );
    if (!receipt.contractAddress) throw new Error("NoBoolToken not deployed");
    noBoolToken = getAddress(receipt.contractAddress);
  });

  it("runs chain 31337 with funded default accounts and the deployed contracts", async () => {
    expect(await publicClient.getChainId()).toBe(31337);
    expect(await publicClient.getBalance({ address: devnetAccounts[9].address })).toBe(parseEther("10000"));
    for (const address of [contracts.factory, contracts.implementation, contracts.tokens.USDC, contracts.tokens.USDT]) {
      expect(address).toBe(getAddress(address));
      expect(await publicClient.getCode({ address })).toMatch(/^0x[0-9a-f]+$/);
    }
    const read = (address: Address, functionName: "symbol" | "decimals") => publicClient.readContract({ address, abi: testTokenArtifact.abi, functionName });
    expect(await read(contracts.tokens.USDC, "symbol")).toBe("USDC");
    expect(await read(contracts.tokens.USDT, "symbol")).toBe("USDT");
    expect(await read(contracts.tokens.USDC, "decimals")).toBe(6);
    expect(
      await publicClient.readContract({
        address: contracts.implementation,
        abi: depositForwarderArtifact.abi,
        functionName: "factory",
      }),
    ).toBe(contracts.factory);
  });

  it("computes the same address off chain as factory.computeAddress", async () => {
    for (let i = 0; i < 3; i++) {
      const destination = freshAddress();
      const salt = newOrderSalt();
      const onChain = await publicClient.readContract({
        address: contracts.factory,
        abi: depositFactoryArtifact.abi,
        functionName: "computeAddress",
        args: [destination, salt],
      });
      expect(computeDepositAddress({ ...contracts, destination, salt })).toBe(onChain);
    }
  });

  it("deploys and flushes native coin and tokens to the bound destination, for any caller, repeatedly", async () => {
    const merchant = freshAddress();
    const salt = newOrderSalt();
    const depositAddress = computeDepositAddress({ ...contracts, destination: merchant, salt });
    const { USDC } = contracts.tokens;
    expect(await publicClient.getCode({ address: depositAddress })).toBeUndefined();

    // A plain 21000-gas transfer works while nothing is deployed at the deposit address.
    const firstEth = parseEther("1.5");
    await confirmed(await wallet(payerKeys.privateKey).sendTransaction({ to: depositAddress, value: firstEth, gas: 21_000n }));
    await mint(USDC, depositAddress, 125_000_000n);
    await mint(noBoolToken, depositAddress, 42_000_000n);

    const caller = callerKeys.address;
    const callerEthBefore = await publicClient.getBalance({ address: caller });
    const first = await deployAndFlush(merchant, salt, [USDC, noBoolToken]);

    const forwarderEvents = deployedEvents(first);
    expect(forwarderEvents).toHaveLength(1);
    expect(await publicClient.getCode({ address: depositAddress })).toBe(
      `0x363d3d373d3d3d363d73${contracts.implementation.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`,
    );
    expect(await publicClient.getBalance({ address: merchant })).toBe(firstEth);
    expect(await tokenBalance(USDC, merchant)).toBe(125_000_000n);
    expect(await tokenBalance(noBoolToken, merchant)).toBe(42_000_000n);
    expect(await publicClient.getBalance({ address: depositAddress })).toBe(0n);
    expect(await tokenBalance(USDC, depositAddress)).toBe(0n);
    expect(await tokenBalance(noBoolToken, depositAddress)).toBe(0n);
    // The caller only paid gas and received nothing.
    expect(await publicClient.getBalance({ address: caller })).toBe(callerEthBefore - first.gasUsed * first.effectiveGasPrice);
    expect(await tokenBalance(USDC, caller)).toBe(0n);
    expect(await tokenBalance(noBoolToken, caller)).toBe(0n);

    // Second deposit to the now-deployed forwarder (receive() runs behind a delegatecall, so the
    // sender needs more than 21000 gas; viem estimates it).
    const secondEth = parseEther("0.25");
    await confirmed(await wallet(payerKeys.privateKey).sendTransaction({ to: depositAddress, value: secondEth }));
    await mint(USDC, depositAddress, 10_000_000n);
    await mint(noBoolToken, depositAddress, 3_000_000n);

    const callerEthBeforeSecond = await publicClient.getBalance({ address: caller });
    const second = await deployAndFlush(merchant, salt, [USDC, noBoolToken]);
    expect(deployedEvents(second)).toHaveLength(0);
    expect(await publicClient.getBalance({ address: merchant })).toBe(firstEth + secondEth);
    expect(await tokenBalance(USDC, merchant)).toBe(135_000_000n);
    expect(await tokenBalance(noBoolToken, merchant)).toBe(45_000_000n);
    expect(await publicClient.getBalance({ address: depositAddress })).toBe(0n);
    expect(await tokenBalance(USDC, depositAddress)).toBe(0n);
    expect(await tokenBalance(noBoolToken, depositAddress)).toBe(0n);
    expect(await publicClient.getBalance({ address: caller })).toBe(callerEthBeforeSecond - second.gasUsed * second.effectiveGasPrice);

    // With nothing to flush, the call still succeeds.
    await deployAndFlush(merchant, salt, [USDC, noBoolToken]);
  });

  it("binds a forwarder to its destination", async () => {
    const merchantA = freshAddress();
    const merchantB = freshAddress();
    const salt = newOrderSalt();
    const addressA = computeDepositAddress({ ...contracts, destination: merchantA, salt });
    const addressB = computeDepositAddress({ ...contracts, destination: merchantB, salt });
    expect(addressB).not.toBe(addressA);
    expect(
      await publicClient.readContract({
        address: contracts.factory,
        abi: depositFactoryArtifact.abi,
        functionName: "computeAddress",
        args: [merchantB, salt],
      }),
    ).toBe(addressB);

    await deployAndFlush(merchantA, salt, []);
    const forwarder = { address: addressA, abi: depositForwarderArtifact.abi } as const;
    expect(await publicClient.readContract({ ...forwarder, functionName: "destination" })).toBe(merchantA);

    for (const keys of [payerKeys, callerKeys, deployerKeys]) {
      await expect(
        publicClient.simulateContract({
          ...forwarder,
          account: keys.address,
          functionName: "initialize",
          args: [merchantB],
        }),
      ).rejects.toThrow(/NotFactory/);
    }
    // The implementation itself is never initialized and cannot be by anyone but the factory.
    await expect(
      publicClient.simulateContract({
        address: contracts.implementation,
        abi: depositForwarderArtifact.abi,
        account: callerKeys.address,
        functionName: "initialize",
        args: [merchantB],
      }),
    ).rejects.toThrow(/NotFactory/);

    // Anyone may call flush on the forwarder directly; it still pays only merchant A.
    await confirmed(await wallet(payerKeys.privateKey).sendTransaction({ to: addressA, value: 1_000n }));
    await confirmed(await wallet(callerKeys.privateKey).writeContract({ ...forwarder, functionName: "flush" }));
    expect(await publicClient.getBalance({ address: merchantA })).toBe(1_000n);
    expect(await publicClient.getBalance({ address: merchantB })).toBe(0n);

    // A "token" without code cannot be mistaken for an empty balance.
    await expect(
      publicClient.simulateContract({
        ...forwarder,
        account: callerKeys.address,
        functionName: "flushToken",
        args: [freshAddress()],
      }),
    ).rejects.toThrow(/BalanceQueryFailed/);
  });
});
