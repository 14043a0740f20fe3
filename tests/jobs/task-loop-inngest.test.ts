import { InngestTestEngine } from "@inngest/test";
import { describe, expect, test } from "vitest";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { startTaskLoops, taskLoop } from "@/lib/engine/inngest/functions";
import { startTaskLoopsFunction, taskLoopFunction, taskLoopFunctionId } from "@/lib/jobs/inngest/task-loop";
import { taskNames } from "@/lib/jobs/kick";
import { defineTask, type AnyTask } from "@/lib/jobs/tasks";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createOrder, createWallet } from "../helpers/factories";
import { call } from "../helpers/request";

setupTestDatabase();
setupTestDevnet();

const loopEvent = (task: string, consecutiveErrors?: number) => ({
  name: "gateway/task.loop-requested",
  data: consecutiveErrors === undefined ? { task } : { task, consecutiveErrors },
});
const mockedSideSteps = () => [
  { id: "wait", handler: () => undefined },
  { id: "schedule-next", handler: () => ({ ids: ["next"] }) },
];

describe("Inngest driver: the task loop", () => {
  test("a chain's watcher scans the real devnet, moves the order, sleeps what its run named and schedules its next run", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { amount: "4", currency: "USDC", blockchain: "base" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
      body: {},
    });
    expect(paid.status).toBe(201);

    const engine = new InngestTestEngine({ function: taskLoop });
    // The durable sleep and the event send are Inngest's side; the run step runs for real.
    const { result, ctx } = await engine.execute({ events: [loopEvent(taskNames.watchChain("base"))], steps: mockedSideSteps() });
    // A busy chain polls at its own interval (250 ms on the devnet), as under the local driver.
    expect(result).toMatchObject({ skipped: false, ok: true, sleepMs: 250, consecutiveErrors: 0, backingOff: false });
    expect(ctx.step.sleep).toHaveBeenCalledWith("wait", "250ms");
    expect(ctx.step.sendEvent).toHaveBeenCalledWith(
      "schedule-next",
      expect.objectContaining({ name: "gateway/task.loop-requested", data: { task: taskNames.watchChain("base"), consecutiveErrors: 0 } }),
    );

    const seen = await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } });
    expect(seen.body.data.status).toBe("confirmed");
  });

  test("a task the registry does not run in a loop is skipped without rescheduling", async () => {
    const engine = new InngestTestEngine({ function: taskLoop });
    const { result, ctx } = await engine.execute({ events: [loopEvent("watch-chain-nope")] });
    expect(result).toMatchObject({ skipped: true });
    expect(ctx.step.sendEvent).not.toHaveBeenCalled();
  });

  test("the cron starter asks every chain's watcher to loop", async () => {
    const engine = new InngestTestEngine({ function: startTaskLoops });
    const { result, ctx } = await engine.execute({
      events: [{ name: "inngest/scheduled.timer", data: {} }],
      steps: [{ id: "start", handler: () => ({ ids: [] }) }],
    });
    const watchers = ["ethereum", "base", "polygon", "arbitrum", "optimism"].map((slug) => taskNames.watchChain(slug));
    expect(ctx.step.sendEvent).toHaveBeenCalledWith(
      "start",
      expect.arrayContaining([expect.objectContaining({ data: { task: taskNames.watchChain("base") } })]),
    );
    expect(result).toEqual({ started: watchers });
  });

  test("a run that throws is caught and counted, and the loop sleeps the local driver's backoff for the streak", async () => {
    let failing = true;
    const flaky: AnyTask = defineTask({
      name: "flaky",
      intervalMs: 5_000,
      inngestFunction: taskLoopFunctionId,
      async run() {
        if (failing) throw new Error("provider down");
        return { nextRunInMs: 700 };
      },
    });
    const backoff = { baseMs: 1_000, capMs: 30_000 };
    const fn = taskLoopFunction(() => [flaky], { backoff });
    // A fresh test engine per run: one engine replays a step's first result.
    const loop = { execute: (options: Parameters<InngestTestEngine["execute"]>[0]) => new InngestTestEngine({ function: fn }).execute(options) };

    // Third failure in a row: 4 s with up to 20 % jitter below (lib/jobs/run-policy.ts).
    const third = await loop.execute({ events: [loopEvent("flaky", 2)], steps: mockedSideSteps() });
    expect(third.result).toMatchObject({ skipped: false, ok: false, error: "provider down", consecutiveErrors: 3, backingOff: true });
    const sleepMs = (third.result as { sleepMs: number }).sleepMs;
    expect(sleepMs).toBeGreaterThanOrEqual(3_200);
    expect(sleepMs).toBeLessThanOrEqual(4_000);
    expect(third.ctx.step.sleep).toHaveBeenCalledWith("wait", `${sleepMs}ms`);
    expect(third.ctx.step.sendEvent).toHaveBeenCalledWith("schedule-next", expect.objectContaining({ data: { task: "flaky", consecutiveErrors: 3 } }));

    // Past the cap: never more than 30 s.
    const late = await loop.execute({ events: [loopEvent("flaky", 40)], steps: mockedSideSteps() });
    expect((late.result as { sleepMs: number }).sleepMs).toBeLessThanOrEqual(30_000);

    // A success ends the streak and sleeps what the run named.
    failing = false;
    const recovered = await loop.execute({ events: [loopEvent("flaky", 3)], steps: mockedSideSteps() });
    expect(recovered.result).toMatchObject({ ok: true, sleepMs: 700, consecutiveErrors: 0, backingOff: false });
  });

  test("a run past its deadline counts as a failure", async () => {
    const hanging: AnyTask = defineTask({
      name: "hanging",
      intervalMs: 1_000,
      runDeadlineMs: 50,
      inngestFunction: taskLoopFunctionId,
      run: (_db, { signal }) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined))),
    });
    const loop = new InngestTestEngine({ function: taskLoopFunction(() => [hanging], { backoff: { baseMs: 1_000, capMs: 30_000 } }) });
    const { result } = await loop.execute({ events: [loopEvent("hanging")], steps: mockedSideSteps() });
    expect(result).toMatchObject({ ok: false, consecutiveErrors: 1, backingOff: true });
    expect((result as { error: string }).error).toMatch(/deadline \(50 ms\)/);
  });

  test("only tasks that name the loop are started by its starter", async () => {
    const plain = defineTask({ name: "plain", intervalMs: 60_000, async run() {} });
    const looped = defineTask({ name: "looped", intervalMs: 1_000, inngestFunction: taskLoopFunctionId, async run() {} });
    const engine = new InngestTestEngine({ function: startTaskLoopsFunction(() => [plain, looped] as AnyTask[]) });
    const { result } = await engine.execute({
      events: [{ name: "inngest/scheduled.timer", data: {} }],
      steps: [{ id: "start", handler: () => ({ ids: [] }) }],
    });
    expect(result).toEqual({ started: ["looped"] });
  });
});
