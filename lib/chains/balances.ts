import "server-only";
import type { Address, Hex, PublicClient } from "viem";
import type { Blockchain } from "./catalog";

/** A constructor's answer is the code it deploys, at most 24,576 bytes (EIP-170): 768 balances. */
export const balancesPerCall = 700;

/**
 * A contract-creation eth_call (nothing is deployed) whose constructor returns the balance of each
 * 32-byte address word appended to it: `codecopy` the words to memory, replace each by
 * `balance(word)`, return them. Any node answers it (no Multicall3 needed), one call for
 * `balancesPerCall` addresses.
 *
 *   0x00 PUSH2 0x28  CODESIZE  SUB          size = codesize - 40 (the words after this program)
 *   0x05 DUP1  PUSH2 0x28  PUSH1 0  CODECOPY  memory[0, size) = code[40, 40 + size)
 *   0x0c PUSH1 0                             i = 0
 *   0x0e JUMPDEST DUP2 DUP2 LT ISZERO PUSH2 0x23 JUMPI   while i < size
 *   0x17 DUP1 MLOAD BALANCE DUP2 MSTORE                    memory[i] = balance(memory[i])
 *   0x1c PUSH1 32 ADD PUSH2 0x0e JUMP                      i += 32
 *   0x23 JUMPDEST POP PUSH1 0 RETURN         return memory[0, size)
 */
export const balanceReaderCode = "0x61002838038061002860003960005b8181101561002357805131815260200161000e565b506000f3" as Hex;

export async function readBalances(client: PublicClient, chain: Blockchain, addresses: Address[], blockNumber: bigint): Promise<bigint[]> {
  const balances: bigint[] = [];
  for (let i = 0; i < addresses.length; i += balancesPerCall) {
    const chunk = addresses.slice(i, i + balancesPerCall);
    const words = chunk.map((address) => address.slice(2).toLowerCase().padStart(64, "0")).join("");
    const { data } = await client.call({ data: `${balanceReaderCode}${words}` as Hex, blockNumber });
    const hex = (data ?? "0x").slice(2);
    if (hex.length !== chunk.length * 64) throw new Error(`balance read on ${chain.slug} answered ${hex.length / 64} words for ${chunk.length} addresses`);
    for (let j = 0; j < chunk.length; j++) balances.push(BigInt("0x" + hex.slice(j * 64, (j + 1) * 64)));
  }
  return balances;
}
