import { startDevnet } from "@/lib/chains/devnet";
import { ensureGatewayContracts } from "@/lib/chains/sandbox-devnet";
import { measureGaslessGas } from "@/lib/gasless/measure-gas";

/** `npm run bench -- gasless`: the relayed EIP-3009 transfer's gas against a plain ERC-20 transfer, on a fresh devnet. */
export async function runGaslessBench(): Promise<void> {
  const devnet = await startDevnet();
  try {
    await ensureGatewayContracts(devnet.rpcUrl);
    const gas = await measureGaslessGas(devnet.rpcUrl);
    const ratio = (value: bigint) => (Number(value) / Number(gas.plainTransfer)).toFixed(2);
    console.log("\n## Gasless payments (hardhat devnet, USDC test token with EIP-3009)");
    console.log("| transfer of 12.5 USDC to a new address | gas | × plain transfer |");
    console.log("|---|---|---|");
    console.log(`| plain ERC-20 transfer (customer pays the gas) | ${gas.plainTransfer} | 1.00 |`);
    console.log(`| transferWithAuthorization relayed by the gateway (customer pays nothing) | ${gas.relayedTransfer} | ${ratio(gas.relayedTransfer)} |`);
  } finally {
    await devnet.stop();
  }
}
