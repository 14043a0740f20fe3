import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { createPublicClient, createWalletClient, defineChain, getAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetFeedDecimals, devnetFeeds, type DevnetFeedPair } from "@/lib/chains/catalog";
import {
  depositFactoryArtifact,
  depositFactoryV2Artifact,
  mockAggregatorArtifact,
  subscriptionFactoryArtifact,
  tetherTokenDevnetArtifact,
  testTokenArtifact,
} from "@/lib/chains/contract-artifacts";

/**
 * viem's `hardhat` chain, written out: importing it from "viem/chains" loads every chain viem
 * knows (~0.5 s per process, paid by each test file and script that reaches this module).
 */
export const devnetChain = defineChain({
  id: 31_337,
  name: "Hardhat",
  nativeCurrency: { decimals: 18, name: "Ether", symbol: "ETH" },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

/** The first ten accounts of the "test test … junk" mnemonic; hardhat funds each with 10000 ETH. */
export const devnetAccounts = [
  { address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" },
  { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" },
  { address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a" },
  { address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906", privateKey: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6" },
  { address: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65", privateKey: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a" },
  { address: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", privateKey: "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba" },
  { address: "0x976EA74026E726554dB657fA54763abd0C3a0aa9", privateKey: "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e" },
  { address: "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955", privateKey: "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356" },
  { address: "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f", privateKey: "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97" },
  { address: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720", privateKey: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6" },
] as const satisfies readonly { address: Address; privateKey: Hex }[];

export const DEVNET_DEPLOYER_PRIVATE_KEY = devnetAccounts[0].privateKey;

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const LOG_LIMIT_CHARS = 64 * 1024;

export type Devnet = {
  rpcUrl: string;
  port: number;
  stop(): Promise<void>;
  process: ChildProcess;
  /** The last 64 KiB of the node's stdout and stderr. */
  logs(): string;
};

export type StartDevnetOptions = {
  port?: number;
  host?: "127.0.0.1";
  /** Repository root holding node_modules/hardhat and devnet/; defaults to the working directory. */
  rootDir?: string;
};

// One exit hook for all devnets, so a crashed or forgetful parent never leaves nodes behind.
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const c of liveChildren) c.kill("SIGKILL");
    });
  }
}

function findFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("Could not pick a free port"))));
    });
  });
}

async function answersChainId(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    if (!response.ok) return false;
    const body = (await response.json()) as { result?: unknown };
    return typeof body.result === "string";
  } catch {
    return false;
  }
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  if (await waitForExit(child, STOP_TIMEOUT_MS)) return;
  child.kill("SIGKILL");
  await waitForExit(child, STOP_TIMEOUT_MS);
}

function spawnHardhatNode(host: string, port: number, rootDir: string, options: { detached: boolean; stdio: StdioOptions }): ChildProcess {
  const cli = path.join(rootDir, "node_modules", "hardhat", "internal", "cli", "bootstrap.js");
  const config = path.join(rootDir, "devnet", "hardhat.config.cjs");
  return spawn(process.execPath, [cli, "--config", config, "node", "--hostname", host, "--port", String(port)], {
    cwd: rootDir,
    detached: options.detached,
    stdio: options.stdio,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", NO_COLOR: "1" },
  });
}

/** Waits until the node at `rpcUrl` answers; stops `child` and throws (with `logs()`) when it exits, fails to spawn or takes too long. */
async function waitUntilAnswering(child: ChildProcess, rpcUrl: string, logs: () => string): Promise<void> {
  let spawnError: Error | undefined;
  child.once("error", (error) => {
    spawnError = error;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answersChainId(rpcUrl))) {
    const exited = child.exitCode !== null || child.signalCode !== null;
    if (spawnError || exited || Date.now() > deadline) {
      await stopChild(child);
      const reason = spawnError
        ? `failed to spawn: ${spawnError.message}`
        : exited
          ? `exited early (code ${child.exitCode}, signal ${child.signalCode})`
          : `did not answer within ${READY_TIMEOUT_MS} ms`;
      throw new Error(`Hardhat devnet on ${rpcUrl} ${reason}\n${logs().slice(-4_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startOnce(host: string, port: number, rootDir: string): Promise<Devnet> {
  const child = spawnHardhatNode(host, port, rootDir, { detached: false, stdio: ["ignore", "pipe", "pipe"] });
  trackChild(child);

  // Always consume both pipes: a child writing to a full pipe would block forever.
  let log = "";
  const append = (chunk: Buffer) => {
    log += chunk.toString("utf8");
    if (log.length > LOG_LIMIT_CHARS) log = log.slice(-LOG_LIMIT_CHARS);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);

  const rpcUrl = `http://${host}:${port}`;
  await waitUntilAnswering(child, rpcUrl, () => log);
  return {
    rpcUrl,
    port,
    process: child,
    stop: () => stopChild(child),
    logs: () => log,
  };
}

/** Starts `hardhat node` (chain id 31337) as a child process and waits until it answers RPC. */
export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const host = options.host ?? "127.0.0.1";
  const rootDir = options.rootDir ?? process.cwd();
  if (options.port !== undefined) return startOnce(host, options.port, rootDir);

  // A port found free may be taken before hardhat binds it; retry with a new one.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(host, await findFreePort(host), rootDir);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** A devnet started with `startDetachedDevnet`: not this process's child in any way that ties their lives together. */
export type DetachedDevnet = { rpcUrl: string; port: number; pid: number };

/**
 * Starts `hardhat node` in its own session (detached, unref'd, stderr appended to `logFile`, stdout
 * dropped: it logs every RPC call), so it outlives this process: a crash, `kill -9` or Ctrl-C of
 * the server leaves the chain running for the next server to re-attach to. Stopping it is the
 * caller's business (`stopRecordedDevnet` in lib/chains/devnet-record.ts).
 */
export async function startDetachedDevnet(options: {
  logFile: string;
  port?: number;
  host?: "127.0.0.1";
  rootDir?: string;
  /** Stay in this process's group (not a session of its own), so a Ctrl-C of the terminal stops it too. */
  sameProcessGroup?: boolean;
}): Promise<DetachedDevnet> {
  const host = options.host ?? "127.0.0.1";
  const rootDir = options.rootDir ?? process.cwd();
  const attempt = async (port: number): Promise<DetachedDevnet> => {
    const logFd = openSync(options.logFile, "a");
    let child: ChildProcess;
    try {
      child = spawnHardhatNode(host, port, rootDir, { detached: !options.sameProcessGroup, stdio: ["ignore", "ignore", logFd] });
    } finally {
      closeSync(logFd);
    }
    child.unref();
    const rpcUrl = `http://${host}:${port}`;
    await waitUntilAnswering(child, rpcUrl, () => readLogTail(options.logFile));
    if (child.pid === undefined) throw new Error(`Hardhat devnet on ${rpcUrl} has no pid`);
    return { rpcUrl, port, pid: child.pid };
  };
  if (options.port !== undefined) return attempt(options.port);
  let lastError: unknown;
  for (let tries = 0; tries < 3; tries++) {
    try {
      return await attempt(await findFreePort(host));
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function readLogTail(file: string): string {
  try {
    return readFileSync(file, "utf8").slice(-4_000);
  } catch {
    return "";
  }
}

/** What makes one devnet run distinguishable from another: chain id, genesis block hash, and hardhat's per-run instance id. */
export type DevnetIdentity = { chainId: number; genesisHash: Hex; instanceId: Hex | null };

/** Asks the node at `rpcUrl` who it is; null when it does not answer (or not like an EVM node). */
export async function readDevnetIdentity(rpcUrl: string, timeoutMs = 2_000): Promise<DevnetIdentity | null> {
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    return ((await response.json()) as { result?: unknown }).result;
  };
  try {
    const [chainId, genesis, metadata] = await Promise.all([
      call("eth_chainId", []),
      call("eth_getBlockByNumber", ["0x0", false]),
      // hardhat only; other nodes answer with an error (undefined here).
      call("hardhat_metadata", []),
    ]);
    const genesisHash = (genesis as { hash?: unknown } | undefined)?.hash;
    if (typeof chainId !== "string" || typeof genesisHash !== "string") return null;
    const instanceId = (metadata as { instanceId?: unknown } | undefined)?.instanceId;
    return { chainId: Number(chainId), genesisHash: genesisHash as Hex, instanceId: typeof instanceId === "string" ? (instanceId as Hex) : null };
  } catch {
    return null;
  }
}

export type GatewayContracts = {
  factory: Address;
  implementation: Address;
  /** DepositFactoryV2 (issue 30), deployed after the price feeds. */
  factoryV2: Address;
  /** SubscriptionFactory, deployed after DepositFactoryV2. */
  subscriptionFactory: Address;
  tokens: { USDC: Address; USDT: Address };
  /** MockAggregator price feeds, by pair ("ETH/USD"). */
  priceFeeds: Record<DevnetFeedPair, Address>;
};

/** Deploys DepositFactory, 6-decimal USDC (with EIP-3009) and USDT (mainnet USDT's behaviour) test tokens and the price feeds, waiting for each receipt. */
export async function deployGatewayContracts(options: { rpcUrl: string; deployerPrivateKey?: Hex }): Promise<GatewayContracts> {
  const account = privateKeyToAccount(options.deployerPrivateKey ?? DEVNET_DEPLOYER_PRIVATE_KEY);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain: devnetChain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain: devnetChain, transport });

  async function waitForDeployment(hash: Hex, label: string): Promise<Address> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) {
      throw new Error(`Deploying ${label} failed (tx ${hash})`);
    }
    return getAddress(receipt.contractAddress);
  }

  const factory = await waitForDeployment(
    await walletClient.deployContract({
      abi: depositFactoryArtifact.abi,
      bytecode: depositFactoryArtifact.bytecode,
    }),
    "DepositFactory",
  );
  const USDC = await waitForDeployment(
    await walletClient.deployContract({
      abi: testTokenArtifact.abi,
      bytecode: testTokenArtifact.bytecode,
      args: ["USD Coin", "USDC", 6],
    }),
    "USDC",
  );
  // USDT with mainnet USDT's quirks (no return values, approve from zero, fee, blocklist): contracts/TetherTokenDevnet.sol.
  const USDT = await waitForDeployment(
    await walletClient.deployContract({
      abi: tetherTokenDevnetArtifact.abi,
      bytecode: tetherTokenDevnetArtifact.bytecode,
      args: ["Tether USD", "USDT", 6],
    }),
    "USDT",
  );
  const { priceFeeds } = await deployDevnetPriceFeeds(options);
  const { factoryV2 } = await deployDepositFactoryV2(options);
  const { subscriptionFactory } = await deploySubscriptionFactory(options);
  const implementation = await publicClient.readContract({
    address: factory,
    abi: depositFactoryArtifact.abi,
    functionName: "implementation",
  });

  return { factory, implementation: getAddress(implementation), factoryV2, subscriptionFactory, tokens: { USDC, USDT }, priceFeeds };
}

/** Deploys SubscriptionFactory from the deployer (after DepositFactoryV2), waiting for the receipt. */
export async function deploySubscriptionFactory(options: { rpcUrl: string; deployerPrivateKey?: Hex }): Promise<{ subscriptionFactory: Address }> {
  const account = privateKeyToAccount(options.deployerPrivateKey ?? DEVNET_DEPLOYER_PRIVATE_KEY);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain: devnetChain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain: devnetChain, transport });
  const hash = await walletClient.deployContract({ abi: subscriptionFactoryArtifact.abi, bytecode: subscriptionFactoryArtifact.bytecode });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`Deploying SubscriptionFactory failed (tx ${hash})`);
  return { subscriptionFactory: getAddress(receipt.contractAddress) };
}

/** Deploys DepositFactoryV2 from the deployer (after the price feeds), waiting for the receipt. */
export async function deployDepositFactoryV2(options: { rpcUrl: string; deployerPrivateKey?: Hex }): Promise<{ factoryV2: Address }> {
  const account = privateKeyToAccount(options.deployerPrivateKey ?? DEVNET_DEPLOYER_PRIVATE_KEY);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain: devnetChain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain: devnetChain, transport });
  const hash = await walletClient.deployContract({ abi: depositFactoryV2Artifact.abi, bytecode: depositFactoryV2Artifact.bytecode });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`Deploying DepositFactoryV2 failed (tx ${hash})`);
  return { factoryV2: getAddress(receipt.contractAddress) };
}

/** Deploys the MockAggregator price feeds (catalog devnetFeeds, in order) from the deployer, waiting for each receipt. */
export async function deployDevnetPriceFeeds(options: { rpcUrl: string; deployerPrivateKey?: Hex }): Promise<{ priceFeeds: Record<DevnetFeedPair, Address> }> {
  const account = privateKeyToAccount(options.deployerPrivateKey ?? DEVNET_DEPLOYER_PRIVATE_KEY);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain: devnetChain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain: devnetChain, transport });
  const priceFeeds = {} as Record<DevnetFeedPair, Address>;
  for (const feed of devnetFeeds) {
    const hash = await walletClient.deployContract({
      abi: mockAggregatorArtifact.abi,
      bytecode: mockAggregatorArtifact.bytecode,
      args: [devnetFeedDecimals, feed.pair.replace("/", " / "), feed.answer],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`Deploying the ${feed.pair} feed failed (tx ${hash})`);
    priceFeeds[feed.pair] = getAddress(receipt.contractAddress);
  }
  return { priceFeeds };
}
