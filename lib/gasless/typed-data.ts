/**
 * EIP-3009 transferWithAuthorization as EIP-712 typed data (Circle's FiatTokenV2 domain: name,
 * version, chain id, token). Shared by the payment page (the wallet signs it) and the relay (which
 * recovers the signer from it). Pure: no server imports.
 */
import { parseAbi, type Address, type Hex } from "viem";

export const transferWithAuthorizationTypes = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

export interface Eip3009Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

/** What a wallet signs (viem/wagmi signTypedData) to authorize `message`. */
export function transferAuthorizationTypedData(domain: Eip3009Domain, message: TransferAuthorization) {
  return { domain, types: transferWithAuthorizationTypes, primaryType: "TransferWithAuthorization" as const, message };
}

/** The EIP-3009 functions the relay calls (the v, r, s forms every FiatTokenV2 has). */
export const eip3009Abi = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function balanceOf(address account) view returns (uint256)",
  // contracts/TestToken.sol's refusals (Circle's FiatTokenV2 reverts with reason strings instead)
  "error AuthorizationNotYetValid()",
  "error AuthorizationExpired()",
  "error AuthorizationUsedOrCanceled()",
  "error InvalidSignature()",
  "error InsufficientBalance()",
]);
