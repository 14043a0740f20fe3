import { afterAll, describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { eq } from "drizzle-orm";
import { parseAbi } from "viem";
import { devnetContracts, findBlockchainBySlug } from "@/lib/chains/catalog";
import { chainTasks, kickOnNewHeads, quietChainBackstopMs, quietChainPollMs, quietChainSleepMs, quietSweepMs } from "@/lib/engine/tasks";
import { chainClient } from "@/lib/chains/clients";
import { sweeps } from "@/lib/db/schema";
import { registerKicker, taskNames } from "@/lib/jobs/kick";
import { startLocalDriver, type LocalDriver } from "@/lib/jobs/local/driver";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";

const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)"]);
const testDb = setupTestDatabase();
setupTestDevnet();

let driver: LocalDriver | undefined;
let unwire: (() => void) | undefined;
afterAll(async () => {
  unwire?.();
  await driver?.stop();
});

async function statusOf(merchant: TestMerchant, orderId: string): Promise<string> {
  return (await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } })).body.data.status;
}

async function waitForStatus(merchant: TestMerchant, orderId: string, status: string, timeoutMs = 15_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await statusOf(merchant, orderId)) === status) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`order ${orderId} did not reach ${status}; it is ${await statusOf(merchant, orderId)}`);
}

describe("local driver with the chain tasks", () => {
  test("scans on its own: sandbox pay → processing, mining → confirmed, then swept", async () => {
    // What the server's start does: the driver registers as the kicker, new heads kick the watchers.
    driver = startLocalDriver(chainTasks(), { db: testDb.db });
    const unregister = registerKicker(driver);
    const unsubscribe = kickOnNewHeads();
    unwire = () => {
      unsubscribe();
      unregister();
    };
    expect(driver.taskNames).toEqual(expect.arrayContaining(["watch-chain-base", "sweep-deposits", "housekeeping"]));

    const merchant = await createMerchant();
    const wallet = await createWallet(merchant, { blockchain: 2, confirmation_threshold: 3 });
    const order = await createOrder(merchant, { amount: "9", currency: "USDC", blockchain: "base" });
    await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    await waitForStatus(merchant, order.order_id, "processing");
    await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 2 } });
    await waitForStatus(merchant, order.order_id, "confirmed");

    const client = chainClient(findBlockchainBySlug("base")!);
    const balance = () => client.readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [wallet.wallet_address] });
    const started = Date.now();
    while ((await balance()) !== 9_000_000n && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(await balance()).toBe(9_000_000n);
  });

  test("a quiet chain's watcher sleeps until the backstop, or its first pending deadline; a new block brings back its poll interval; a head newHeads missed, its poll interval", async () => {
    unwire?.(); // the driver of the test above would take the new block first
    await driver?.stop();
    driver = undefined;
    unwire = kickOnNewHeads(); // heads announced, nobody kicked: this test runs the watcher itself
    const base = findBlockchainBySlug("base")!;
    const watch = chainTasks().find((task) => task.name === taskNames.watchChain("base"))!;
    const merchant = await createMerchant();
    let result = await watch.run(testDb.db, {});
    for (let i = 0; i < 20 && result?.nextRunInMs !== quietChainBackstopMs; i++) {
      await new Promise((r) => setTimeout(r, 100));
      result = await watch.run(testDb.db, {});
    }
    expect(result).toEqual({ nextRunInMs: quietChainBackstopMs }); // nothing pending: newHeads (the devnet's WebSocket) wakes it instead

    // A pending order: the watcher wakes just after its deadline, which no block would announce.
    await createWallet(merchant, { blockchain: 2 });
    const expiresAt = new Date(Date.now() + 20_000);
    await createOrder(merchant, { amount: "1", currency: "USDC", blockchain: "base", expires_at: expiresAt.toISOString() });
    const before = Date.now();
    const asleep = (await watch.run(testDb.db, {}))?.nextRunInMs ?? 0;
    expect(asleep).toBeGreaterThan(10_000);
    expect(asleep).toBeLessThanOrEqual(expiresAt.getTime() - before + 500);

    await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 1 } });
    expect(await watch.run(testDb.db, {})).toEqual({ nextRunInMs: base.pollIntervalMs });

    // The subscription goes down and a block comes: no announcement will wake the watcher, so it polls at the chain's interval.
    unwire();
    unwire = undefined;
    await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 1 } });
    expect(await watch.run(testDb.db, {})).toEqual({ nextRunInMs: base.pollIntervalMs });
    expect(await watch.run(testDb.db, {})).toEqual({ nextRunInMs: base.pollIntervalMs });
  });

  test("an order whose window closes before the watcher's backstop wakes it: it expires on time with no block mined", async () => {
    const watch = chainTasks().find((task) => task.name === taskNames.watchChain("base"))!;
    let lastSleep: number | undefined;
    const observed = {
      ...watch,
      run: async (...args: Parameters<typeof watch.run>) => {
        const result = await watch.run(...args);
        lastSleep = result?.nextRunInMs;
        return result;
      },
    };
    driver = startLocalDriver([observed], { db: testDb.db });
    const unregister = registerKicker(driver);
    // Heads announced (the devnet's WebSocket): a quiet watcher sleeps long, and only the deadline can wake it.
    const stopHeads = kickOnNewHeads();
    unwire = () => {
      unregister();
      stopHeads();
    };
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    // Asleep well past the window below (until the backstop or the order of the test above):
    // without the wake the order would be judged that much late.
    const started = Date.now();
    while (!(lastSleep! >= 8_000) && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 50));
    expect(lastSleep).toBeGreaterThanOrEqual(8_000);

    const order = await createOrder(merchant, { amount: "1", currency: "USDC", blockchain: "base", expires_at: new Date(Date.now() + 2_000).toISOString() });
    expect(await waitForStatus(merchant, order.order_id, "expired", 6_000)).toBeLessThan(6_000);
  });

  test("an idle sweeper sleeps until its next retry falls due, at most a minute", async () => {
    const sweeper = chainTasks().find((task) => task.name === taskNames.sweepDeposits)!;
    expect(await sweeper.run(testDb.db, {})).toEqual({ nextRunInMs: quietSweepMs }); // the first test's sweep is done: nothing pending

    // The first test's sweep as if its last attempt had failed: retried in 5 s, not a minute.
    const [retry] = await testDb.db
      .update(sweeps)
      .set({ status: "pending", nextAttemptAt: new Date(Date.now() + 5_000) })
      .where(eq(sweeps.status, "succeeded"))
      .returning();
    expect(retry).toBeDefined();
    const asleep = (await sweeper.run(testDb.db, {}))?.nextRunInMs ?? 0;
    expect(asleep).toBeGreaterThanOrEqual(1_000);
    expect(asleep).toBeLessThanOrEqual(5_000);
    await testDb.db.update(sweeps).set({ status: "succeeded" }).where(eq(sweeps.id, retry!.id));
  });

  test("quietChainSleepMs: the backstop without a deadline, until just past a coming one, the poll interval past one", () => {
    const now = 1_000_000;
    expect(quietChainSleepMs(null, now)).toBe(quietChainBackstopMs);
    expect(quietChainSleepMs(new Date(now + 10_000), now)).toBe(10_500);
    expect(quietChainSleepMs(new Date(now + 10 * 60_000), now)).toBe(quietChainBackstopMs);
    expect(quietChainSleepMs(new Date(now + 100), now)).toBe(1_000);
    expect(quietChainSleepMs(new Date(now - 1), now)).toBe(quietChainPollMs);
  });
});
