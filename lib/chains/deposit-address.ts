import {
  bytesToHex,
  concat,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  keccak256,
  type Address,
  type Hex,
} from "viem";

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
  return keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [getAddress(destination), orderSalt]),
  );
}

/** keccak256 of the clone init code, per implementation: the same for every order of a factory. */
const initCodeHashes = new Map<string, Hex>();

function cloneInitCodeHash(implementation: Address): Hex {
  const key = implementation.toLowerCase();
  let hash = initCodeHashes.get(key);
  if (!hash) initCodeHashes.set(key, (hash = keccak256(cloneInitCode(implementation))));
  return hash;
}

/** Off-chain equivalent of DepositFactory.computeAddress(destination, salt) (checksummed). */
export function computeDepositAddress(params: {
  factory: Address;
  implementation: Address;
  destination: Address;
  salt: Hex;
}): Address {
  return getContractAddress({
    opcode: "CREATE2",
    from: params.factory,
    salt: depositSalt(params.destination, params.salt),
    bytecodeHash: cloneInitCodeHash(params.implementation),
  });
}

/** A fresh random 32-byte order salt. */
export function newOrderSalt(): Hex {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}
