import { beforeAll, describe, expect, test } from "vitest";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as simulate } from "@/app/api/pay/[orderId]/simulate/route";
import { findToken } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { sendFromFaucet } from "@/lib/sandbox/devnet-tools";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { inOneRateWindow } from "../../helpers/rate-window";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant({ shop_name: "Sim Shop" });
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 3 });
});

const tick = () => watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")));

async function view(orderId: string) {
  await tick();
  const res = await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

function simulateCall(orderId: string, kind: unknown, ip = "198.51.100.20") {
  return call(simulate, "POST", `/api/pay/${orderId}/simulate/`, { params: { orderId }, body: { kind }, ip });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

describe("POST /api/pay/{order_id}/simulate/", () => {
  test("full: a real devnet transfer, then confirmations mined one block at a time until confirmed", async () => {
    const order = await createOrder(merchant, { amount: "4.5", currency: "USDC", redirect_url: "https://shop.example.com/done" });
    const res = await simulateCall(order.order_id, "full");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ kind: "full", amount: "4.5", currency: "USDC", blocks_to_mine: 2 });
    expect(res.body.data.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const seen = await view(order.order_id);
    expect(seen.status).toBe("processing");
    expect(seen.confirmations).toBe(1);
    expect(seen.transaction_hash).toBe(res.body.data.transaction_hash);
    expect(seen.redirect_url).toBeNull();

    const confirmed = await until(
      () => view(order.order_id),
      (o) => o.status === "confirmed",
    );
    expect(confirmed).toMatchObject({ status: "confirmed", amount_received: "4.5", amount_missing: "0", redirect_url: "https://shop.example.com/done" });
    expect(confirmed.confirmations).toBeGreaterThanOrEqual(3);
    // The devnet has no explorer.
    expect(confirmed.transaction_url).toBeNull();

    const again = await simulateCall(order.order_id, "full");
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
  });

  test("partial: half of what is missing, the order stays pending and shows what is left", async () => {
    const order = await createOrder(merchant, { amount: "10", currency: "USDT" });
    const res = await simulateCall(order.order_id, "partial");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ amount: "5", blocks_to_mine: 0 });
    const seen = await view(order.order_id);
    expect(seen).toMatchObject({ status: "pending", amount_received: "5", amount_missing: "5" });

    // Again: half of the remaining 5 (the scanner has seen the first).
    expect((await simulateCall(order.order_id, "partial")).body.data.amount).toBe("2.5");
    expect(await view(order.order_id)).toMatchObject({ amount_received: "7.5", amount_missing: "2.5" });
  });

  test("native coin: full pays the exact amount in wei", async () => {
    const order = await createOrder(merchant, { amount: "0.0123", currency: "ETH" });
    const res = await simulateCall(order.order_id, "full");
    expect(res.status).toBe(201);
    expect(res.body.data.amount).toBe("0.0123");
    const seen = await view(order.order_id);
    expect(seen.amount_received).toBe("0.0123");
    expect(["processing", "confirmed"]).toContain(seen.status);
  });

  test("mine: mines the confirmations a wallet payment still needs", async () => {
    const order = await createOrder(merchant, { amount: "1", currency: "USDC" });
    // Paid by other means (as a browser wallet would): nothing mines the following blocks.
    const chain = net.chain("base");
    await sendFromFaucet(chain, findToken(chain, "USDC")!, order.receiving_address, 1_000_000n);
    expect(await view(order.order_id)).toMatchObject({ status: "processing", confirmations: 1 });

    const mined = await simulateCall(order.order_id, "mine");
    expect(mined.status, JSON.stringify(mined.body)).toBe(201);
    expect(mined.body.data).toMatchObject({ kind: "mine", transaction_hash: null, blocks_to_mine: 2 });
    const confirmed = await until(
      () => view(order.order_id),
      (o) => o.status === "confirmed",
    );
    expect(confirmed.status).toBe("confirmed");
    expect((await simulateCall(order.order_id, "mine")).status).toBe(409);
  });

  test("bad kinds are 400, numeric and unknown ids 404", async () => {
    const order = await createOrder(merchant);
    const bad = await simulateCall(order.order_id, "everything");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    expect(bad.body.error.details.kind).toBeDefined();
    for (const key of [String(order.id), "ORD-unknown0000000000"]) {
      const res = await simulateCall(key, "full");
      expect(res.status, key).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
  });

  test("is limited per client address", async () => {
    const last = await inOneRateWindow(async () => {
      let res = await simulateCall("ORD-unknown0000000000", "full", "198.51.100.99");
      for (let i = 0; i < 120 && res.status !== 429; i++) res = await simulateCall("ORD-unknown0000000000", "full", "198.51.100.99");
      return res;
    });
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe("RATE_LIMITED");
    expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
    // Another address is not affected.
    expect((await simulateCall("ORD-unknown0000000000", "full", "198.51.100.98")).status).toBe(404);
  });
});
