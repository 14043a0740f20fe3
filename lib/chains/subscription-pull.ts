/**
 * A subscription's pull contract (contracts/SubscriptionPull.sol): its terms, the CREATE2 address
 * they determine (computed offline, so the customer can sign a permit or send an approve before
 * anything is deployed), and the EIP-2612 permit the customer signs to that address. Pure: no
 * server imports, shared by the subscribe page and the engine.
 */
import { concatHex, encodeAbiParameters, getContractAddress, type Address, type Hex } from "viem";
import { subscriptionFactoryArtifact, subscriptionPullArtifact } from "./contract-artifacts";

export interface SubscriptionTerms {
  token: Address;
  subscriber: Address;
  merchant: Address;
  operator: Address;
  maxAmountPerPeriod: bigint;
  /** Seconds. */
  period: bigint;
  /** Unix seconds: start of period 0 (the end of any trial). */
  start: bigint;
  /** Unix seconds; 0n for open-ended. */
  end: bigint;
  id: Hex;
}

const termsParameter = subscriptionFactoryArtifact.abi.find((item) => item.type === "function" && item.name === "subscriptionAddress")!.inputs;

/** The terms as the contracts' ABI takes them (a tuple argument). */
export function termsArgument(terms: SubscriptionTerms) {
  return {
    token: terms.token,
    subscriber: terms.subscriber,
    merchant: terms.merchant,
    operator: terms.operator,
    maxAmountPerPeriod: terms.maxAmountPerPeriod,
    period: terms.period,
    start: terms.start,
    end: terms.end,
    id: terms.id,
  };
}

/** Where `factory` deploys (or deployed) the pull contract for `terms`. */
export function subscriptionPullAddress(factory: Address, terms: SubscriptionTerms): Address {
  const initCode = concatHex([subscriptionPullArtifact.bytecode, encodeAbiParameters(termsParameter, [termsArgument(terms)])]);
  return getContractAddress({ opcode: "CREATE2", from: factory, salt: terms.id, bytecode: initCode });
}

export const permitTypes = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export interface PermitMessage {
  owner: Address;
  spender: Address;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}

/** What a wallet signs (signTypedData) for an EIP-2612 permit in the token's EIP-712 domain. */
export function permitTypedData(domain: { name: string; version: string; chainId: number; verifyingContract: Address }, message: PermitMessage) {
  return { domain, types: permitTypes, primaryType: "Permit" as const, message };
}
