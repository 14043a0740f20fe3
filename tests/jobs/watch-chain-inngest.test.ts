import { InngestTestEngine } from "@inngest/test";
import { describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { startChainWatches, watchChain } from "@/lib/jobs/inngest/functions/watch-chain";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet } from "../helpers/factories";
import { call } from "../helpers/request";

setupTestDatabase();
setupTestDevnet();

describe("Inngest driver: watch-chain", () => {
  test("one run scans the real devnet, moves the order, sleeps the poll interval and schedules its next run", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { amount: "4", currency: "USDC", blockchain: "base" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(paid.status).toBe(201);

    const engine = new InngestTestEngine({ function: watchChain });
    // the durable sleep and the event send are Inngest's side; the tick step runs for real
    const { result, ctx } = await engine.execute({
      events: [{ name: "gateway/chain.watch-requested", data: { slug: "base" } }],
      steps: [
        { id: "wait", handler: () => undefined },
        { id: "schedule-next", handler: () => ({ ids: ["next"] }) },
      ],
    });
    expect(result).toMatchObject({ skipped: false, transfers: 1, transitions: 2, pollIntervalMs: 250 });
    expect(ctx.step.sleep).toHaveBeenCalledWith("wait", "250ms");
    expect(ctx.step.sendEvent).toHaveBeenCalledWith("schedule-next", expect.objectContaining({ name: "gateway/chain.watch-requested", data: { slug: "base" } }));

    const seen = await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } });
    expect(seen.body.data.status).toBe("confirmed");
  });

  test("a chain without an RPC URL is skipped without rescheduling", async () => {
    const engine = new InngestTestEngine({ function: watchChain });
    const { result, ctx } = await engine.execute({ events: [{ name: "gateway/chain.watch-requested", data: { slug: "nope" } }] });
    expect(result).toMatchObject({ skipped: true });
    expect(ctx.step.sendEvent).not.toHaveBeenCalled();
  });

  test("the cron starter asks every chain with an RPC URL to watch", async () => {
    const engine = new InngestTestEngine({ function: startChainWatches });
    const { result, ctx } = await engine.execute({
      events: [{ name: "inngest/scheduled.timer", data: {} }],
      steps: [{ id: "start", handler: () => ({ ids: [] }) }],
    });
    expect(ctx.step.sendEvent).toHaveBeenCalledWith("start", expect.arrayContaining([expect.objectContaining({ data: { slug: "base" } })]));
    expect(result).toEqual({ started: ["ethereum", "base", "polygon", "arbitrum", "optimism"] });
  });
});
