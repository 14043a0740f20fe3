import "server-only";
import { createServer } from "node:net";
import { createPublicClient, getAddress, http } from "viem";
import { env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { processSlot } from "@/lib/process-singleton";
import { devnetContracts, listBlockchains, setDevnetRpcUrl } from "./catalog";
import {
  deployDepositFactoryV2,
  deployDevnetPriceFeeds,
  deploySubscriptionFactory,
  deployGatewayContracts,
  devnetAccounts,
  readDevnetIdentity,
  startDetachedDevnet,
} from "./devnet";
import { devnetLogFile, liveRecordedDevnet, stopRecordedDevnet, withDevnetStartLock, writeDevnetRecord } from "./devnet-record";
import { isRpcUnreachable } from "./serial-sender";

/** Devnet roles: account 0 only deploys (so contract addresses stay fixed), 1 is the faucet, 2 the sweeper, 4 the gasless relayer. */
export const devnetFaucet = devnetAccounts[1];
export const devnetSweeper = devnetAccounts[2];
export const devnetRelayer = devnetAccounts[4];

export type SandboxDevnet = {
  rpcUrl: string;
  /** started: this server started it; attached: it was already running (the record's devnet); external: DEVNET_RPC_URL. */
  source: "started" | "attached" | "external";
};

const startedDevnet = processSlot<Promise<SandboxDevnet>>("sandboxDevnet");

/** Deploys the factory and test tokens unless they are already there (a devnet that outlived a restart of the app). */
export async function ensureGatewayContracts(rpcUrl: string): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const code = await client.getCode({ address: devnetContracts.factory });
  if (code && code !== "0x") {
    // A devnet from before the price feeds existed: add them (they are the deployer's next transactions).
    const feedCode = await client.getCode({ address: devnetContracts.priceFeeds["ETH/USD"] });
    if (!feedCode || feedCode === "0x") {
      const { priceFeeds } = await deployDevnetPriceFeeds({ rpcUrl });
      if (getAddress(priceFeeds["ETH/USD"]) !== devnetContracts.priceFeeds["ETH/USD"]) {
        throw new Error("Devnet price feeds landed at unexpected addresses: the deployer account was used for something else.");
      }
    }
    // A devnet from before DepositFactoryV2 (issue 30): add it, the deployer's next transaction.
    const factoryV2Code = await client.getCode({ address: devnetContracts.factoryV2 });
    if (!factoryV2Code || factoryV2Code === "0x") {
      const { factoryV2 } = await deployDepositFactoryV2({ rpcUrl });
      if (getAddress(factoryV2) !== devnetContracts.factoryV2) {
        throw new Error("DepositFactoryV2 landed at an unexpected address: the deployer account was used for something else.");
      }
    }
    // A devnet from before subscriptions: add their factory, the deployer's next transaction.
    const subscriptionFactoryCode = await client.getCode({ address: devnetContracts.subscriptionFactory });
    if (subscriptionFactoryCode && subscriptionFactoryCode !== "0x") return;
    const { subscriptionFactory } = await deploySubscriptionFactory({ rpcUrl });
    if (getAddress(subscriptionFactory) !== devnetContracts.subscriptionFactory) {
      throw new Error("SubscriptionFactory landed at an unexpected address: the deployer account was used for something else.");
    }
    return;
  }
  const deployed = await deployGatewayContracts({ rpcUrl });
  if (
    getAddress(deployed.factory) !== devnetContracts.factory ||
    getAddress(deployed.factoryV2) !== devnetContracts.factoryV2 ||
    getAddress(deployed.subscriptionFactory) !== devnetContracts.subscriptionFactory ||
    getAddress(deployed.tokens.USDC) !== devnetContracts.USDC ||
    Object.entries(deployed.priceFeeds).some(
      ([pair, address]) => getAddress(address) !== devnetContracts.priceFeeds[pair as keyof typeof devnetContracts.priceFeeds],
    )
  ) {
    throw new Error("Devnet contracts landed at unexpected addresses: the deployer account was used before deployment.");
  }
}

/** Whether this deployment uses the local devnet at all (sandbox, and some slug without a testnet RPC). */
export function needsDevnet(): boolean {
  return env.GATEWAY_MODE === "sandbox" && listBlockchains().some((chain) => chain.isDevnet);
}

/**
 * Sandbox start: use DEVNET_RPC_URL, or re-attach to the devnet recorded in DEVNET_STATE_FILE when
 * it still answers as the recorded chain, or else start a detached `hardhat node` on DEVNET_PORT (a
 * free port if taken) and record it. The gateway contracts are deployed once per chain (found again
 * on re-attach). All of it under a file lock next to the record, so instances starting together
 * end on one devnet with one set of contracts. A process-wide singleton. The devnet outlives the
 * server (a crash, a restart, Ctrl-C of `npm run dev`); `npm run devnet:stop` stops it.
 */
export function startSandboxDevnet(): Promise<SandboxDevnet> {
  const running = startedDevnet.get();
  if (running) return running;
  const starting = withDevnetStartLock(env.DEVNET_STATE_FILE, async (): Promise<SandboxDevnet> => {
    if (env.DEVNET_RPC_URL) {
      await ensureGatewayContracts(env.DEVNET_RPC_URL);
      return { rpcUrl: env.DEVNET_RPC_URL, source: "external" };
    }
    const recorded = await liveRecordedDevnet(env.DEVNET_STATE_FILE);
    if (recorded) {
      try {
        await ensureGatewayContracts(recorded.rpcUrl);
        return { rpcUrl: recorded.rpcUrl, source: "attached" };
      } catch (error) {
        if (isRpcUnreachable(error)) throw error;
        // Contracts at other addresses: a start cut short mid-deploy (the record is written first). Replace it.
        log.warn("the recorded sandbox devnet has unusable contracts; starting a fresh one", describeError(error));
      }
    }
    // The recorded devnet is gone or no longer that chain: stop it if it is ours and hung, forget it.
    await stopRecordedDevnet(env.DEVNET_STATE_FILE);
    const logFile = devnetLogFile(env.DEVNET_STATE_FILE);
    // A busy port could be answered by someone else's node: only use it when it is free.
    const started = (await portIsFree(env.DEVNET_PORT))
      ? await startDetachedDevnet({ port: env.DEVNET_PORT, logFile }).catch(() => startDetachedDevnet({ logFile }))
      : await startDetachedDevnet({ logFile });
    // Recorded before the deploys, so that whatever happens to this server from here on, the devnet can be found (and stopped).
    const identity = await readDevnetIdentity(started.rpcUrl, 10_000);
    if (!identity) {
      try {
        process.kill(started.pid, "SIGKILL");
      } catch {
        // already gone
      }
      throw new Error(`The devnet on ${started.rpcUrl} stopped answering`);
    }
    writeDevnetRecord(env.DEVNET_STATE_FILE, {
      pid: started.pid,
      port: started.port,
      rpcUrl: started.rpcUrl,
      ...identity,
      startedAt: new Date().toISOString(),
    });
    try {
      await ensureGatewayContracts(started.rpcUrl);
    } catch (error) {
      await stopRecordedDevnet(env.DEVNET_STATE_FILE);
      throw error;
    }
    return { rpcUrl: started.rpcUrl, source: "started" };
  })
    .then((devnet) => {
      setDevnetRpcUrl(devnet.rpcUrl);
      log.info("sandbox devnet ready", {
        rpc_url: devnet.rpcUrl,
        source: devnet.source,
        factory: devnetContracts.factory,
        factory_v2: devnetContracts.factoryV2,
        usdc: devnetContracts.USDC,
        usdt: devnetContracts.USDT,
      });
      return devnet;
    })
    .catch((error) => {
      startedDevnet.set(undefined);
      throw error;
    });
  return startedDevnet.set(starting);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
