/**
 * Issue 53: one gateway key sends sweeps, subscription charges, their contracts' deploys and relayed
 * permits. Two senders must never pick one nonce, whether they are two tasks of one process or two
 * instances on one database (docs/adr/0058-one-nonce-picker-per-key.md). On the real devnet, with
 * automine (a transaction is mined the moment it is accepted, so a second one with its nonce is
 * refused: "nonce too low").
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { and, eq } from "drizzle-orm";
import { createPublicClient, erc20Abi, http, parseEther, type Address } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as postPlan } from "@/app/api/subscription-plans/route";
import { POST as postSubscription } from "@/app/api/subscriptions/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { testTokenArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts, devnetChain } from "@/lib/chains/devnet";
import { devnetSweeper } from "@/lib/chains/sandbox-devnet";
import { sweepConfirmedDeposits, type SweepSending } from "@/lib/chains/sweeper";
import { openDatabase, type Database } from "@/lib/db/client";
import { sentTransactions } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { chargeDueSubscriptions } from "@/lib/subscriptions/charge";
import { captureOutput } from "../helpers/capture-output";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress } from "../helpers/factories";
import { call } from "../helpers/request";
import { privatePostgresAvailable, startPrivatePostgres, type PrivatePostgres } from "../faults/private-postgres";

const testDb = setupTestDatabase();
const net = setupTestDevnet();
const base = () => net.chain("base");
const client = () => createPublicClient({ chain: devnetChain, transport: http(net.rpcUrl), pollingInterval: 50 });
const root = path.resolve(__dirname, "../..");
const sweeperAddress = privateKeyToAddress(devnetSweeper.privateKey).toLowerCase();

/** A confirmed native payment whose deposit the sweeper is due to flush. */
async function confirmedOrder() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
  const order = await createOrder(merchant, { amount: "0.5", currency: "ETH", blockchain: "base" });
  const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
    token: merchant.access,
    params: { orderId: order.order_id },
    body: {},
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  await watchChainTick(testDb.db, base(), chainClient(base()));
  const seen = await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } });
  expect(seen.body.data.status).toBe("confirmed");
  return order;
}

/** A subscription due now whose customer approved its (not yet deployed) pull contract: its first charge sends a deploy and a charge. */
async function dueSubscription() {
  const merchant = await createMerchant();
  const merchantWallet = randomAddress();
  await createWallet(merchant, { wallet_address: merchantWallet });
  const plan = await call(postPlan, "POST", "/api/subscription-plans/", {
    token: merchant.access,
    body: { name: "Pro", blockchain: "base", currency: "USDC", amount: "9.99", interval_days: 30 },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const customer = net.wallet(generatePrivateKey());
  const faucet = net.wallet(devnetAccounts[1].privateKey);
  await client().waitForTransactionReceipt({ hash: await faucet.sendTransaction({ to: customer.account.address, value: 10n ** 17n }) });
  await client().waitForTransactionReceipt({
    hash: await faucet.writeContract({
      address: devnetContracts.USDC,
      abi: testTokenArtifact.abi,
      functionName: "mint",
      args: [customer.account.address, 100_000_000n],
    }),
  });
  const sub = await call(postSubscription, "POST", "/api/subscriptions/", {
    token: merchant.access,
    body: { plan: plan.body.data.id, customer_address: customer.account.address },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  await client().waitForTransactionReceipt({
    hash: await customer.writeContract({
      address: devnetContracts.USDC,
      abi: erc20Abi,
      functionName: "approve",
      args: [sub.body.data.pull_address, BigInt(sub.body.data.authorization.value)],
    }),
  });
  const start = BigInt(Date.parse(sub.body.data.starts_at) / 1000);
  if ((await client().getBlock()).timestamp < start) {
    await net.testClient().setNextBlockTimestamp({ timestamp: start });
    await net.testClient().mine({ blocks: 1 });
  }
  return { id: sub.body.data.id as string, merchantWallet };
}

describe("one key, several senders: no two pick the same nonce", () => {
  test.each<SweepSending>(["node", "managed"])(
    "a sweep (%s-picked nonces) and a subscription's deploy and charge, fired at the same moment from the gateway's key, all land",
    async (sending) => {
      const order = await confirmedOrder();
      const subscription = await dueSubscription();
      const before = await testDb.db.select().from(sentTransactions).where(eq(sentTransactions.sender, sweeperAddress));
      const { result, output } = await captureOutput(() =>
        Promise.all([
          sweepConfirmedDeposits(testDb.db, base(), chainClient(base()), new Date(Date.now() + 5_000), { sending }),
          chargeDueSubscriptions(testDb.db, base()),
        ]),
      );
      const [swept, charged] = result;
      expect(swept.swept, output).toContain(order.order_id);
      expect(charged.charged, output).toContain(subscription.id);
      expect(output).not.toMatch(/nonce too low|nonce too high|replacement|already known|did not complete/i);
      expect(await client().getBalance({ address: order.receiving_address as Address })).toBe(0n);
      expect(
        await client().readContract({
          address: devnetContracts.USDC,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [subscription.merchantWallet as Address],
        }),
      ).toBe(9_990_000n);
      // Each of the key's recorded transactions took its own nonce, and each was mined.
      const sent = (await testDb.db.select().from(sentTransactions).where(eq(sentTransactions.sender, sweeperAddress))).filter(
        (row) => !before.some((b) => b.id === row.id),
      );
      expect(sent.map((row) => row.purpose).sort()).toEqual(
        (sending === "managed" ? ["subscription_charge", "subscription_deploy", "sweep"] : ["subscription_charge", "subscription_deploy"]).sort(),
      );
      expect(sent.every((row) => row.status === "mined")).toBe(true);
      expect(new Set(sent.map((row) => row.nonce)).size).toBe(sent.length);
    },
  );

  describe.runIf(privatePostgresAvailable)("two instances on one PostgreSQL database", () => {
    let cluster: PrivatePostgres | undefined;
    let database: Database | undefined;
    afterAll(async () => {
      await database?.close();
      await cluster?.destroy();
    });

    /** One instance (a process of its own): sends `count` transfers from `key`; resolves with its exit code and output. */
    function instance(url: string, key: string, to: string, count: number, purposeBase: number): Promise<{ code: number | null; output: string }> {
      return new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [
            "--conditions=react-server",
            "--import",
            "tsx",
            path.join(__dirname, "fixtures/nonce-burst.ts"),
            url,
            net.rpcUrl,
            key,
            to,
            String(count),
            String(purposeBase),
          ],
          { cwd: root, env: { PATH: process.env.PATH ?? "", GATEWAY_MODE: "sandbox", NODE_ENV: "test", LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "pipe"] },
        );
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("exit", (code) => resolve({ code, output }));
      });
    }

    test("two processes sending from one key at once: every transaction lands with a nonce of its own, none refused", async () => {
      cluster = await startPrivatePostgres();
      database = await openDatabase({ url: cluster.url });
      const key = generatePrivateKey();
      const sender = privateKeyToAddress(key);
      await net.testClient().setBalance({ address: sender, value: parseEther("10") });
      const recipient = randomAddress() as Address;
      const count = 12;
      const [a, b] = await Promise.all([instance(cluster.url, key, recipient, count, 1), instance(cluster.url, key, recipient, count, 1_000)]);
      expect(a, a.output).toMatchObject({ code: 0 });
      expect(b, b.output).toMatchObject({ code: 0 });
      // A rebroadcast of a transaction the node had just mined (under load its lookup can miss it for a poll) is
      // refused as "nonce too low" and harmless; any other mention is a collision.
      const collisions = `${a.output}${b.output}`.split("\n").filter((line) => !line.includes('"msg":"rebroadcast failed"'));
      expect(collisions.join("\n")).not.toMatch(/nonce too low|replacement|must be sent again/i);
      expect(await client().getBalance({ address: recipient })).toBe(BigInt(2 * count));
      const rows = await database.db
        .select()
        .from(sentTransactions)
        .where(and(eq(sentTransactions.sender, sender.toLowerCase()), eq(sentTransactions.purpose, "nonce_race_test")));
      expect(rows).toHaveLength(2 * count);
      expect(rows.every((row) => row.status === "mined")).toBe(true);
      expect([...new Set(rows.map((row) => Number(row.nonce)))].sort((x, y) => x - y)).toEqual([...Array(2 * count).keys()]);
    });
  });
});
