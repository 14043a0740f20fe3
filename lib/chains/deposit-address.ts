import { bytesToHex, concat, encodeAbiParameters, getAddress, getContractAddress, keccak256, type Address, type Hex } from "viem";
import { randomBytesPooled } from "@/lib/ids";

/** EIP-1167 minimal proxy creation code around the implementation address; must match DepositFactory. */
export const EIP1167_INIT_CODE_PREFIX = "0x3d602d80600a3d3981f3363d3d373d3d3d363d73" as const;
export const EIP1167_INIT_CODE_SUFFIX = "0x5af43d82803e903d91602b57fd5bf3" as const;

export function cloneInitCode(implementation: Address): Hex {
  return concat([EIP1167_INIT_CODE_PREFIX, getAddress(implementation), EIP1167_INIT_CODE_SUFFIX]);
}

function assertBytes32(value: Hex, label: string): void {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new Error(`${label} must be 32 bytes of hex`);
  }
}

/** The CREATE2 salt the factory uses: keccak256(abi.encode(destination, orderSalt)). */
export function depositSalt(destination: Address, orderSalt: Hex): Hex {
  assertBytes32(orderSalt, "orderSalt");
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [getAddress(destination), orderSalt]));
}

/** keccak256 of the clone init code, per implementation: the same for every order of a factory. */
const initCodeHashes = new Map<string, Hex>();

function cloneInitCodeHash(implementation: Address): Hex {
  const key = implementation.toLowerCase();
  let hash = initCodeHashes.get(key);
  if (!hash) initCodeHashes.set(key, (hash = keccak256(cloneInitCode(implementation))));
  return hash;
}

/**
 * Off-chain equivalent of DepositFactory.computeAddress(destination, salt) (checksummed): the
 * CREATE2 address keccak256(0xff ++ factory ++ keccak256(abi.encode(destination, salt)) ++
 * keccak256(initCode))[12:], as viem's getContractAddress computes it (`depositAddressViaViem`,
 * which tests/unit/chains/deposit-address.test.ts checks it against), on bytes throughout: three
 * keccaks and no hex round trips, since every order creation computes one.
 */
export function computeDepositAddress(params: { factory: Address; implementation: Address; destination: Address; salt: Hex }): Address {
  assertBytes32(params.salt, "orderSalt");
  const encoded = new Uint8Array(64); // abi.encode(address, bytes32): the address right-aligned in its word
  encoded.set(addressBytes(params.destination), 12);
  encoded.set(hexBytes(params.salt, 32), 32);
  const preimage = new Uint8Array(85);
  preimage[0] = 0xff;
  preimage.set(addressBytes(params.factory), 1);
  preimage.set(keccak256(encoded, "bytes"), 21);
  preimage.set(cloneInitCodeHashBytes(params.implementation), 53);
  return checksummed(keccak256(preimage, "bytes").subarray(12));
}

/** The same through viem's general helpers (the reference the fast path is tested against). */
export function depositAddressViaViem(params: { factory: Address; implementation: Address; destination: Address; salt: Hex }): Address {
  return getContractAddress({
    opcode: "CREATE2",
    from: params.factory,
    salt: depositSalt(params.destination, params.salt),
    bytecodeHash: cloneInitCodeHash(params.implementation),
  });
}

const initCodeHashBytes = new Map<string, Uint8Array>();

function cloneInitCodeHashBytes(implementation: Address): Uint8Array {
  const key = implementation.toLowerCase();
  let hash = initCodeHashBytes.get(key);
  if (!hash) initCodeHashBytes.set(key, (hash = hexBytes(cloneInitCodeHash(implementation), 32)));
  return hash;
}

function addressBytes(address: string): Uint8Array {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`Address "${address}" is invalid.`);
  return hexBytes(address, 20);
}

/** `0x` + 2·size hex digits (already checked) as bytes. */
function hexBytes(hex: string, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = parseInt(hex.substr(2 + 2 * i, 2), 16);
  return out;
}

/** EIP-55: a hex digit is upper case where the keccak of the lower-case address has a nibble ≥ 8. */
function checksummed(address: Uint8Array): Address {
  let lower = "";
  for (const byte of address) lower += byte.toString(16).padStart(2, "0");
  const hash = keccak256(new TextEncoder().encode(lower), "bytes");
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as Address;
}

/** A fresh random 32-byte order salt. */
export function newOrderSalt(): Hex {
  return bytesToHex(randomBytesPooled(32));
}
