/** Issue 13 item 5: the shared sandbox devnet has per-merchant hourly budgets and per-call caps. */
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { POST as faucet } from "@/app/api/sandbox/faucet/route";
import { POST as mine } from "@/app/api/sandbox/mine/route";
import { env } from "@/lib/env";
import { isMining, simulatePayment } from "@/lib/sandbox/simulate-payment";
import { maxSimulatedBlocks } from "@/lib/sandbox/usage-limits";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
setupTestDevnet();

const limits = { mine: env.SANDBOX_MINE_BLOCKS_PER_HOUR, faucet: env.SANDBOX_FAUCET_SENDS_PER_HOUR, publicMine: env.SANDBOX_PUBLIC_MINE_BLOCKS_PER_HOUR };
afterEach(() => {
  env.SANDBOX_MINE_BLOCKS_PER_HOUR = limits.mine;
  env.SANDBOX_FAUCET_SENDS_PER_HOUR = limits.faucet;
  env.SANDBOX_PUBLIC_MINE_BLOCKS_PER_HOUR = limits.publicMine;
});

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant();
});

describe("sandbox devnet budgets", () => {
  test("mined blocks are counted per merchant per hour; over the budget is 429 with retry_after", async () => {
    env.SANDBOX_MINE_BLOCKS_PER_HOUR = 5;
    const m = await createMerchant();
    const first = await call(mine, "POST", "/api/sandbox/mine/", { token: m.access, body: { blocks: 3 } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await call(mine, "POST", "/api/sandbox/mine/", { token: m.access, body: { blocks: 3 } });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error: { code: "RATE_LIMITED" }, retry_after: expect.any(Number) });
    // Another merchant has its own budget.
    const other = await createMerchant();
    expect((await call(mine, "POST", "/api/sandbox/mine/", { token: other.access, body: { blocks: 3 } })).status).toBe(200);
  });

  test("100 mines and 100 faucet sends at once: the budgets hold (issue 49 item 5)", async () => {
    env.SANDBOX_MINE_BLOCKS_PER_HOUR = 5;
    env.SANDBOX_FAUCET_SENDS_PER_HOUR = 3;
    const m = await createMerchant();
    const tally = (answers: { status: number }[]) =>
      answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});
    const mines = await Promise.all(Array.from({ length: 100 }, () => call(mine, "POST", "/api/sandbox/mine/", { token: m.access, body: { blocks: 1 } })));
    expect(tally(mines)).toEqual({ 200: 5, 429: 95 });
    const drips = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(faucet, "POST", "/api/sandbox/faucet/", {
          token: m.access,
          body: { address: randomAddress(), currency: "USDC", amount: "1", blockchain: "base" },
        }),
      ),
    );
    expect(tally(drips)).toEqual({ 200: 3, 429: 97 });
  });

  test("faucet: at most 100,000 token units (10 of the native coin) per call, and a number of sends per hour", async () => {
    const big = await call(faucet, "POST", "/api/sandbox/faucet/", {
      token: merchant.access,
      body: { address: randomAddress(), currency: "USDC", amount: "1000000", blockchain: "base" },
    });
    expect(big.status).toBe(400);
    expect(big.body.error.details.amount[0]).toMatch(/At most 100000 USDC/);
    const eth = await call(faucet, "POST", "/api/sandbox/faucet/", {
      token: merchant.access,
      body: { address: randomAddress(), currency: "ETH", amount: "11", blockchain: "base" },
    });
    expect(eth.status).toBe(400);

    env.SANDBOX_FAUCET_SENDS_PER_HOUR = 2;
    const m = await createMerchant();
    for (let i = 0; i < 2; i++) {
      const res = await call(faucet, "POST", "/api/sandbox/faucet/", {
        token: m.access,
        body: { address: randomAddress(), currency: "USDC", amount: "5", blockchain: "base" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const over = await call(faucet, "POST", "/api/sandbox/faucet/", {
      token: m.access,
      body: { address: randomAddress(), currency: "USDC", amount: "5", blockchain: "base" },
    });
    expect(over.status).toBe(429);
  });

  test("the public simulate mines at most a few blocks per call, charged to the order's merchant's public budget", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2, confirmation_threshold: 10_000 });
    const order = await createOrder(m, { amount: "1", currency: "USDC" });
    const paid = await simulatePayment(testDb.db, order.order_id, "full", 5);
    expect(paid.blocks_to_mine).toBe(maxSimulatedBlocks);
    // Until the background run has mined its blocks (a call while it runs starts nothing and spends nothing).
    for (const deadline = Date.now() + 30_000; isMining(order.order_id);) {
      if (Date.now() > deadline) throw new Error("the simulated mining did not finish within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    env.SANDBOX_PUBLIC_MINE_BLOCKS_PER_HOUR = maxSimulatedBlocks + 5;
    await expect(simulatePayment(testDb.db, order.order_id, "mine", 5)).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });
});
