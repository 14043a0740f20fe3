import "server-only";
import { createServer } from "node:net";
import { createPublicClient, getAddress, http } from "viem";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { devnetContracts, listBlockchains, setDevnetRpcUrl } from "./catalog";
import { deployDevnetPriceFeeds, deployGatewayContracts, devnetAccounts, startDevnet, type Devnet } from "./devnet";

/** Devnet roles: account 0 only deploys (so contract addresses stay fixed), 1 is the faucet, 2 the sweeper. */
export const devnetFaucet = devnetAccounts[1];
export const devnetSweeper = devnetAccounts[2];

const holder = globalThis as unknown as { __gatewaySandboxDevnet?: Promise<{ rpcUrl: string; devnet: Devnet | null }> };

/** Deploys the factory and test tokens unless they are already there (a devnet that outlived a restart of the app). */
export async function ensureGatewayContracts(rpcUrl: string): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const code = await client.getCode({ address: devnetContracts.factory });
  if (code && code !== "0x") {
    // A devnet from before the price feeds existed: add them (they are the deployer's next transactions).
    const feedCode = await client.getCode({ address: devnetContracts.priceFeeds["ETH/USD"] });
    if (feedCode && feedCode !== "0x") return;
    const { priceFeeds } = await deployDevnetPriceFeeds({ rpcUrl });
    if (getAddress(priceFeeds["ETH/USD"]) !== devnetContracts.priceFeeds["ETH/USD"]) {
      throw new Error("Devnet price feeds landed at unexpected addresses: the deployer account was used for something else.");
    }
    return;
  }
  const deployed = await deployGatewayContracts({ rpcUrl });
  if (
    getAddress(deployed.factory) !== devnetContracts.factory ||
    getAddress(deployed.tokens.USDC) !== devnetContracts.USDC ||
    Object.entries(deployed.priceFeeds).some(([pair, address]) => getAddress(address) !== devnetContracts.priceFeeds[pair as keyof typeof devnetContracts.priceFeeds])
  ) {
    throw new Error("Devnet contracts landed at unexpected addresses: the deployer account was used before deployment.");
  }
}

/** Whether this deployment uses the local devnet at all (sandbox, and some slug without a testnet RPC). */
export function needsDevnet(): boolean {
  return env.GATEWAY_MODE === "sandbox" && listBlockchains().some((chain) => chain.isDevnet);
}

/**
 * Sandbox start: use DEVNET_RPC_URL, or start `hardhat node` on DEVNET_PORT (a free port if taken),
 * deploy the contracts, and point the catalog at it. A process-wide singleton; the devnet child
 * is killed when the app exits.
 */
export function startSandboxDevnet(): Promise<{ rpcUrl: string; devnet: Devnet | null }> {
  holder.__gatewaySandboxDevnet ??= (async () => {
    let devnet: Devnet | null = null;
    let rpcUrl = env.DEVNET_RPC_URL;
    if (!rpcUrl) {
      // A busy port could be answered by someone else's node: only use it when it is free.
      devnet = (await portIsFree(env.DEVNET_PORT)) ? await startDevnet({ port: env.DEVNET_PORT }).catch(() => startDevnet()) : await startDevnet();
      rpcUrl = devnet.rpcUrl;
    }
    await ensureGatewayContracts(rpcUrl);
    setDevnetRpcUrl(rpcUrl);
    log.info("sandbox devnet ready", { rpc_url: rpcUrl, factory: devnetContracts.factory, usdc: devnetContracts.USDC, usdt: devnetContracts.USDT });
    return { rpcUrl, devnet };
  })().catch((error) => {
    holder.__gatewaySandboxDevnet = undefined;
    throw error;
  });
  return holder.__gatewaySandboxDevnet;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
