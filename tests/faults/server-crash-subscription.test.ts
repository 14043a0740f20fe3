import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createPublicClient, createTestClient, erc20Abi, http as viemHttp, type Address, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { devnetContracts } from "@/lib/chains/catalog";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { permitTypedData } from "@/lib/chains/subscription-pull";
import { setupTestDevnet } from "../helpers/devnet";
import { randomAddress } from "../helpers/factories";
import { buildTimeoutMs, createServerDatabase, ensureBuilt, startServer, type ServerDatabase, type ServerProcess } from "../helpers/server";
import { http, printSummary, signUp, waitFor, type Account } from "./support";

// kill -9 of `next start` between the broadcast of a subscription charge and its receipt: the
// devnet does not mine while the gateway is up (automine off), the charge's transaction waits in
// the pool, the server dies, the chain mines it. After the restart the charge is recorded once,
// with that very transaction, and the chain holds exactly one charge of the period.

const authSecret = randomBytes(32).toString("base64url");
const devnet = setupTestDevnet();
let database: ServerDatabase;
let server: ServerProcess | undefined;
let merchant: Account;
const statuses: number[] = [];
const cap = 9_990_000n;

const serverEnv = () => ({
  AUTH_SECRET: authSecret,
  DEVNET: "start",
  DEVNET_RPC_URL: devnet.rpcUrl,
  JOBS_DRIVER: "local",
  RATE_LIMIT_STANDARD_PER_HOUR: "100000",
  LOG_LEVEL: "warn",
});

async function api(method: string, path: string, json?: unknown) {
  const res = await http(server!, method, path, { token: merchant.access, json });
  statuses.push(res.status);
  return res;
}

beforeAll(async () => {
  await ensureBuilt();
  database = await createServerDatabase();
}, buildTimeoutMs);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

test(
  "kill -9 between a subscription charge's broadcast and its receipt: after the restart one charge is recorded, with the transaction mined, and the chain holds one",
  { timeout: 480_000 },
  async () => {
    const chain = createPublicClient({ chain: devnetChain, transport: viemHttp(devnet.rpcUrl), pollingInterval: 50 });
    const miner = createTestClient({ mode: "hardhat", chain: devnetChain, transport: viemHttp(devnet.rpcUrl) });
    server = await startServer({ database, env: serverEnv() });
    merchant = await signUp(server);
    const merchantWallet = randomAddress();
    expect((await api("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: merchantWallet, confirmation_threshold: 2 })).status).toBe(201);
    const plan = await api("POST", "/api/subscription-plans/", { name: "Pro", blockchain: "base", currency: "USDC", amount: "9.99", interval_days: 30 });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);

    // A customer with USDC who signs one permit; the gateway deploys the pull contract with it.
    const customer = devnet.wallet(generatePrivateKey());
    const faucet = devnet.wallet(devnetAccounts[1].privateKey);
    await chain.waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
    await chain.waitForTransactionReceipt({
      hash: await faucet.writeContract({
        address: devnetContracts.USDC,
        abi: testTokenArtifact.abi,
        functionName: "mint",
        args: [customer.account.address, 100_000_000n],
      }),
    });
    const created = await api("POST", "/api/subscriptions/", { plan: plan.body.data.id, customer_address: customer.account.address });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sub = created.body.data;
    const deadline = Number((await chain.getBlock()).timestamp) + 3600;
    const nonce = await chain.readContract({
      address: devnetContracts.USDC,
      abi: testTokenArtifact.abi,
      functionName: "nonces",
      args: [customer.account.address],
    });
    const signature = await customer.account.signTypedData(
      permitTypedData(
        { name: "USD Coin", version: "2", chainId: devnetChain.id, verifyingContract: devnetContracts.USDC },
        { owner: customer.account.address, spender: sub.pull_address, value: BigInt(sub.authorization.value), nonce, deadline: BigInt(deadline) },
      ),
    );
    const pull = sub.pull_address as Address;
    const firstBlock = await chain.getBlockNumber();
    let chargeHash: Hex | undefined;
    // Blocks only when the test mines them from here: the charge waits in the pool while the gateway dies.
    await miner.setAutomine(false);
    try {
      const authorizing = api("POST", `/api/subscriptions/${sub.id}/authorize/`, { signature, deadline });
      const minedBefore = await chain.getTransactionCount({ address: devnetSweeper.address, blockTag: "latest" });
      await waitFor(
        "the permit's deployment broadcast",
        async () => (await chain.getTransactionCount({ address: devnetSweeper.address, blockTag: "pending" })) > minedBefore,
        60_000,
        100,
      );
      // Mined at or after the subscription's start (the chain's clock may trail the wall clock it was made by).
      const start = BigInt(Date.parse(sub.starts_at) / 1000);
      const latest = (await chain.getBlock()).timestamp;
      await miner.setNextBlockTimestamp({ timestamp: (latest > start ? latest : start) + 1n });
      await miner.mine({ blocks: 1 });
      const authorized = await authorizing;
      expect(authorized.status, `${JSON.stringify(authorized.body)}\n${server!.output().slice(-3000)}`).toBe(200);

      // The engine's next run (at most a minute away) broadcasts the charge, which is not mined.
      const deployed = await chain.getTransactionCount({ address: devnetSweeper.address, blockTag: "latest" });
      await waitFor(
        "the charge broadcast",
        async () => (await chain.getTransactionCount({ address: devnetSweeper.address, blockTag: "pending" })) > deployed,
        150_000,
        100,
      );
      const victim = server!;
      victim.child.kill("SIGKILL");
      expect(await victim.exited).toBe("SIGKILL");
      server = undefined;
      // The chain mines it while the gateway is down; its claim on the subscription runs out (ten minutes of chain time).
      await miner.increaseTime({ seconds: 11 * 60 });
      await miner.mine({ blocks: 1 });
      const block = await chain.getBlock({ blockTag: "latest", includeTransactions: true });
      chargeHash = block.transactions.find((tx) => tx.from.toLowerCase() === devnetSweeper.address.toLowerCase())?.hash;
      expect(chargeHash).toBeDefined();
    } finally {
      await miner.setAutomine(true);
    }

    server = await startServer({ database, env: serverEnv() });
    const started = Date.now();
    const view = await waitFor(
      "the charge recorded after the restart",
      async () => {
        const seen = (await api("GET", `/api/subscriptions/${sub.id}/`)).body.data;
        return seen?.charges?.some((c: { status: string }) => c.status === "pending" || c.status === "confirmed") ? seen : null;
      },
      150_000,
      250,
    );
    // Another run after the restart neither sends nor records it again.
    await miner.mine({ blocks: 2 });
    const settled = await waitFor(
      "the charge confirmed",
      async () => {
        const seen = (await api("GET", `/api/subscriptions/${sub.id}/`)).body.data;
        return seen?.charges?.[0]?.status === "confirmed" ? seen : null;
      },
      150_000,
      250,
    );

    // On chain: every transaction to the pull contract from the gateway's key since the subscription was made.
    const head = await chain.getBlockNumber();
    const chargesOnChain: Hex[] = [];
    for (let n = firstBlock + 1n; n <= head; n++) {
      const b = await chain.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of b.transactions) if (tx.to?.toLowerCase() === pull.toLowerCase()) chargesOnChain.push(tx.hash);
    }
    const balance = await chain.readContract({ address: devnetContracts.USDC, abi: erc20Abi, functionName: "balanceOf", args: [merchantWallet as Address] });
    printSummary("kill -9 between a subscription charge's broadcast and its receipt", {
      acknowledged: 1,
      found: settled.charges.length === 1 ? 1 : 0,
      lost: settled.charges.length === 0 ? 1 : 0,
      duplicated: Math.max(0, settled.charges.length - 1) + Math.max(0, chargesOnChain.length - 1),
      "5xx": statuses.filter((s) => s >= 500).length,
      known_after_s: Math.round((Date.now() - started) / 100) / 10,
    });
    expect(view.charges).toHaveLength(1);
    expect(settled.charges).toMatchObject([{ status: "confirmed", amount: "9.99", transaction_hash: chargeHash, confirmation_threshold: 2 }]);
    expect(settled.periods_charged).toBe(1);
    expect(settled.history.filter((e: { kind: string }) => e.kind === "charged")).toHaveLength(1);
    expect(chargesOnChain).toEqual([chargeHash]);
    expect(balance).toBe(cap);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  },
);
