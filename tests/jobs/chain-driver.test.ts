import { afterAll, describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { parseAbi } from "viem";
import { devnetContracts, findBlockchainBySlug } from "@/lib/chains/catalog";
import { chainTasks, kickOnNewHeads, quietChainPollMs } from "@/lib/chains/chain-tasks";
import { chainClient } from "@/lib/chains/clients";
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
    await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, { token: merchant.access, params: { orderId: order.order_id }, body: {} });
    await waitForStatus(merchant, order.order_id, "processing");
    await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 2 } });
    await waitForStatus(merchant, order.order_id, "confirmed");

    const client = chainClient(findBlockchainBySlug("base")!);
    const balance = () => client.readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [wallet.wallet_address] });
    const started = Date.now();
    while ((await balance()) !== 9_000_000n && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(await balance()).toBe(9_000_000n);
  });

  test("a quiet chain's watcher sleeps until the backstop; a new block brings back its poll interval", async () => {
    unwire?.(); // the driver of the test above would take the new block first
    await driver?.stop();
    unwire = driver = undefined;
    const base = findBlockchainBySlug("base")!;
    const watch = chainTasks().find((task) => task.name === taskNames.watchChain("base"))!;
    const merchant = await createMerchant();
    let result = await watch.run(testDb.db, {});
    for (let i = 0; i < 5 && result?.nextRunInMs !== quietChainPollMs; i++) result = await watch.run(testDb.db, {});
    expect(result).toEqual({ nextRunInMs: quietChainPollMs }); // newHeads (the devnet's WebSocket) wakes it instead
    await call(sandboxMine, "POST", "/api/sandbox/mine/", { token: merchant.access, body: { blocks: 1 } });
    expect(await watch.run(testDb.db, {})).toEqual({ nextRunInMs: base.pollIntervalMs });
  });
});
