/** Issue 24 items 2 and 3: the devnet budgets are charged in the use-cases, whoever calls; public simulate has its own. */
import { afterEach, describe, expect, test } from "vitest";
import { signInAs } from "../../dashboard/session";
import { env } from "@/lib/env";
import { simulatePayment } from "@/lib/sandbox/simulate-payment";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, randomAddress } from "../../helpers/factories";
import { call } from "../../helpers/request";

const { POST: mineRoute } = await import("@/app/api/sandbox/mine/route");
const { POST: faucetRoute } = await import("@/app/api/sandbox/faucet/route");
const { faucetAction, mineAction, payOrderAction } = await import("@/app/(dashboard)/dashboard/sandbox/actions");

const testDb = setupTestDatabase();
setupTestDevnet();

const limits = { ...env };
afterEach(() => {
  env.SANDBOX_MINE_BLOCKS_PER_HOUR = limits.SANDBOX_MINE_BLOCKS_PER_HOUR;
  env.SANDBOX_FAUCET_SENDS_PER_HOUR = limits.SANDBOX_FAUCET_SENDS_PER_HOUR;
  env.SANDBOX_PUBLIC_SENDS_PER_HOUR = limits.SANDBOX_PUBLIC_SENDS_PER_HOUR;
});

const drip = { currency: "ETH", amount: "10", blockchain: "base" };

describe("one budget per merchant, whoever calls", () => {
  test("after the API answered 429, the dashboard's mine, faucet and pay are refused too", async () => {
    env.SANDBOX_MINE_BLOCKS_PER_HOUR = 5;
    env.SANDBOX_FAUCET_SENDS_PER_HOUR = 1;
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    const order = await createOrder(m, { blockchain: "base", amount: "1", currency: "USDC" });
    signInAs(m);

    expect((await call(mineRoute, "POST", "/api/sandbox/mine/", { token: m.access, body: { blocks: 5 } })).status).toBe(200);
    expect((await call(mineRoute, "POST", "/api/sandbox/mine/", { token: m.access, body: { blocks: 1 } })).status).toBe(429);
    expect(await mineAction({ blocks: 1000 })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });

    expect((await call(faucetRoute, "POST", "/api/sandbox/faucet/", { token: m.access, body: { address: randomAddress(), ...drip } })).status).toBe(200);
    expect((await call(faucetRoute, "POST", "/api/sandbox/faucet/", { token: m.access, body: { address: randomAddress(), ...drip } })).status).toBe(429);
    for (let i = 0; i < 3; i++) expect(await faucetAction({ address: randomAddress(), ...drip })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
    expect(await payOrderAction({ order_id: order.order_id })).toMatchObject({ ok: false, error: { code: "RATE_LIMITED" } });
  });

  test("what the dashboard spends, the API cannot spend again", async () => {
    env.SANDBOX_FAUCET_SENDS_PER_HOUR = 1;
    const m = await createMerchant();
    signInAs(m);
    expect(await faucetAction({ address: randomAddress(), ...drip })).toMatchObject({ ok: true });
    expect((await call(faucetRoute, "POST", "/api/sandbox/faucet/", { token: m.access, body: { address: randomAddress(), ...drip } })).status).toBe(429);
  });
});

describe("the payment page's public simulate", () => {
  test("spends a budget of its own: strangers cannot drain the merchant's faucet", async () => {
    env.SANDBOX_PUBLIC_SENDS_PER_HOUR = 1;
    env.SANDBOX_FAUCET_SENDS_PER_HOUR = 1;
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2, confirmation_threshold: 1 });
    const first = await createOrder(m, { blockchain: "base", amount: "1", currency: "USDC" });
    const second = await createOrder(m, { blockchain: "base", amount: "1", currency: "USDC" });
    await simulatePayment(testDb.db, first.order_id, "partial", 1);
    await expect(simulatePayment(testDb.db, second.order_id, "partial", 1)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    // The merchant's own faucet budget is untouched.
    expect((await call(faucetRoute, "POST", "/api/sandbox/faucet/", { token: m.access, body: { address: randomAddress(), ...drip } })).status).toBe(200);
  });
});
