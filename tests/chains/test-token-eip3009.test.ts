import { describe, expect, test } from "vitest";
import { BaseError, ContractFunctionRevertedError, createPublicClient, domainSeparator, http, parseSignature, toHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devnetContracts } from "@/lib/chains/catalog";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { permitTypedData } from "@/lib/chains/subscription-pull";
import { transferAuthorizationTypedData } from "@/lib/gasless/typed-data";
import { setupTestDevnet } from "../helpers/devnet";

const net = setupTestDevnet();
const token = devnetContracts.USDC;
const abi = testTokenArtifact.abi;
const domain = { name: "USD Coin", version: "2", chainId: devnetChain.id, verifyingContract: token };

function errorName(error: unknown): string | undefined {
  const reverted = error instanceof BaseError ? (error.walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;
  return reverted?.data?.errorName;
}

async function setup() {
  const client = createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl) });
  const funder = net.wallet(devnetAccounts[3].privateKey);
  const payer = privateKeyToAccount(generatePrivateKey());
  await client.waitForTransactionReceipt({
    hash: await funder.writeContract({ address: token, abi, functionName: "mint", args: [payer.address, 10_000_000n] }),
  });
  const payee = devnetAccounts[4];
  return { client, funder, payer, payee, payeeWallet: net.wallet(payee.privateKey) };
}

const nonce = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));

describe("TestToken EIP-3009 (FiatTokenV2's domain)", () => {
  test("DOMAIN_SEPARATOR and version match Circle's domain; transferWithAuthorization moves the tokens once", async () => {
    const { client, funder, payer } = await setup();
    expect(await client.readContract({ address: token, abi, functionName: "version" })).toBe("2");
    expect(await client.readContract({ address: token, abi, functionName: "DOMAIN_SEPARATOR" })).toBe(domainSeparator({ domain }));
    const message = { from: payer.address, to: devnetAccounts[5].address, value: 1_000_000n, validAfter: 0n, validBefore: 2n ** 40n, nonce: nonce() };
    const { v, r, s } = parseSignature(await payer.signTypedData(transferAuthorizationTypedData(domain, message)));
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, Number(v), r, s] as const;
    await client.waitForTransactionReceipt({ hash: await funder.writeContract({ address: token, abi, functionName: "transferWithAuthorization", args }) });
    expect(await client.readContract({ address: token, abi, functionName: "authorizationState", args: [payer.address, message.nonce] })).toBe(true);
    expect(await client.readContract({ address: token, abi, functionName: "balanceOf", args: [payer.address] })).toBe(9_000_000n);
    const replay = await client
      .simulateContract({ account: funder.account, address: token, abi, functionName: "transferWithAuthorization", args })
      .catch((e: unknown) => e);
    expect(errorName(replay)).toBe("AuthorizationUsedOrCanceled");
  });

  test("receiveWithAuthorization only from the payee; cancelAuthorization burns a nonce; expired and not-yet-valid refused", async () => {
    const { client, funder, payer, payee, payeeWallet } = await setup();
    const receive = { from: payer.address, to: payee.address, value: 500_000n, validAfter: 0n, validBefore: 2n ** 40n, nonce: nonce() };
    const receiveSig = parseSignature(
      await payer.signTypedData({
        domain,
        types: { ReceiveWithAuthorization: transferAuthorizationTypedData(domain, receive).types.TransferWithAuthorization },
        primaryType: "ReceiveWithAuthorization",
        message: receive,
      }),
    );
    const receiveArgs = [
      receive.from,
      receive.to,
      receive.value,
      receive.validAfter,
      receive.validBefore,
      receive.nonce,
      Number(receiveSig.v),
      receiveSig.r,
      receiveSig.s,
    ] as const;
    const notPayee = await client
      .simulateContract({ account: funder.account, address: token, abi, functionName: "receiveWithAuthorization", args: receiveArgs })
      .catch((e: unknown) => e);
    expect(errorName(notPayee)).toBe("CallerMustBePayee");
    await client.waitForTransactionReceipt({
      hash: await payeeWallet.writeContract({ address: token, abi, functionName: "receiveWithAuthorization", args: receiveArgs }),
    });
    expect(await client.readContract({ address: token, abi, functionName: "authorizationState", args: [payer.address, receive.nonce] })).toBe(true);

    const cancelled = nonce();
    const cancelSig = parseSignature(
      await payer.signTypedData({
        domain,
        types: {
          CancelAuthorization: [
            { name: "authorizer", type: "address" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        primaryType: "CancelAuthorization",
        message: { authorizer: payer.address, nonce: cancelled },
      }),
    );
    await client.waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: token,
        abi,
        functionName: "cancelAuthorization",
        args: [payer.address, cancelled, Number(cancelSig.v), cancelSig.r, cancelSig.s],
      }),
    });
    const afterCancel = { from: payer.address, to: payee.address, value: 1n, validAfter: 0n, validBefore: 2n ** 40n, nonce: cancelled };
    const afterCancelSig = parseSignature(await payer.signTypedData(transferAuthorizationTypedData(domain, afterCancel)));
    const refused = await client
      .simulateContract({
        account: funder.account,
        address: token,
        abi,
        functionName: "transferWithAuthorization",
        args: [afterCancel.from, afterCancel.to, 1n, 0n, 2n ** 40n, cancelled, Number(afterCancelSig.v), afterCancelSig.r, afterCancelSig.s],
      })
      .catch((e: unknown) => e);
    expect(errorName(refused)).toBe("AuthorizationUsedOrCanceled");

    for (const [window, expected] of [
      [{ validAfter: 0n, validBefore: 1n }, "AuthorizationExpired"],
      [{ validAfter: 2n ** 39n, validBefore: 2n ** 40n }, "AuthorizationNotYetValid"],
    ] as const) {
      const message = { from: payer.address, to: payee.address, value: 1n, ...window, nonce: nonce() };
      const sig = parseSignature(await payer.signTypedData(transferAuthorizationTypedData(domain, message)));
      const error = await client
        .simulateContract({
          account: funder.account,
          address: token,
          abi,
          functionName: "transferWithAuthorization",
          args: [message.from, message.to, 1n, message.validAfter, message.validBefore, message.nonce, Number(sig.v), sig.r, sig.s],
        })
        .catch((e: unknown) => e);
      expect(errorName(error), expected).toBe(expected);
    }
  });
});

describe("TestToken EIP-2612 permit (in the same domain, as USDC has)", () => {
  test("a signed permit sets the allowance once; a replay and an expired permit are refused", async () => {
    const { client, funder, payer } = await setup();
    const spender = devnetAccounts[5].address;
    const deadline = (await client.getBlock()).timestamp + 600n;
    const message = { owner: payer.address, spender, value: 3_000_000n, nonce: 0n, deadline };
    const { v, r, s } = parseSignature(await payer.signTypedData(permitTypedData(domain, message)));
    const args = [payer.address, spender, message.value, deadline, Number(v), r, s] as const;
    await client.waitForTransactionReceipt({ hash: await funder.writeContract({ address: token, abi, functionName: "permit", args }) });
    expect(await client.readContract({ address: token, abi, functionName: "allowance", args: [payer.address, spender] })).toBe(3_000_000n);
    expect(await client.readContract({ address: token, abi, functionName: "nonces", args: [payer.address] })).toBe(1n);
    const replay = await client.simulateContract({ account: funder.account, address: token, abi, functionName: "permit", args }).catch((e: unknown) => e);
    expect(errorName(replay)).toBe("InvalidSignature");

    const expired = { ...message, nonce: 1n, deadline: 1n };
    const expiredSig = parseSignature(await payer.signTypedData(permitTypedData(domain, expired)));
    const refused = await client
      .simulateContract({
        account: funder.account,
        address: token,
        abi,
        functionName: "permit",
        args: [payer.address, spender, expired.value, 1n, Number(expiredSig.v), expiredSig.r, expiredSig.s],
      })
      .catch((e: unknown) => e);
    expect(errorName(refused)).toBe("PermitExpired");
  });
});
