import { InngestTestEngine, mockCtx } from "@inngest/test";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { inngest } from "@/lib/jobs/inngest/client";
import { dispatchDueDeliveries, inngestKicker } from "@/lib/engine/inngest/dispatch";
import { deliverWebhook } from "@/lib/engine/inngest/deliver-webhook";
import { functions } from "@/lib/engine/inngest/functions";
import { kick, notifyDeliveriesDue, registerKicker, taskNames } from "@/lib/jobs/kick";
import { registeredTasks } from "@/lib/engine/registry";
import { deliverOnce } from "@/lib/webhooks/deliver-one";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import {
  attemptRows,
  deliveryRow,
  endpointRow,
  orderFor,
  recordEventFor,
  settlePending,
  specSignatureOk,
  startReceiver,
  type Receiver,
} from "../webhooks/support";

const database = setupTestDatabase();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
afterEach(async () => {
  receiver.reply(() => ({ status: 200 }));
  await settlePending(database.db);
});

// A fresh engine per run: an engine remembers step results between executions.
const engine = { execute: (options: Parameters<InngestTestEngine["execute"]>[0]) => new InngestTestEngine({ function: deliverWebhook }).execute(options) };
const due = (deliveryId: number) => ({ events: [{ name: "gateway/webhook.delivery-due", data: { deliveryId } }] as [any] });

async function deliveryFor(pathName: string): Promise<{ merchant: TestMerchant; id: number; messageId: string; secret: string; endpointId: number }> {
  const merchant = await createMerchant();
  const endpoint = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url(pathName) } });
  const order = await orderFor(merchant);
  const { deliveries } = await recordEventFor(database.db, merchant, order);
  return { merchant, id: deliveries[0]!.id, messageId: deliveries[0]!.messageId, secret: endpoint.body.data.secret, endpointId: endpoint.body.data.id };
}

describe("Inngest driver: deliver-webhook (one function run per delivery)", () => {
  test("delivers in a step named 'attempt' and logs the attempt", async () => {
    const { id, secret } = await deliveryFor("/inngest-ok");
    const before = receiver.requests.length;
    const { result, ctx } = await engine.execute(due(id));
    expect(result).toMatchObject({ outcome: "succeeded", attempt: 1, statusCode: 200 });
    expect(ctx.step.run).toHaveBeenCalledWith("attempt", expect.any(Function));
    const [request] = receiver.requests.slice(before);
    expect(specSignatureOk(request!.body, request!.headers["x-webhook-signature"], secret)).toBe(true);
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await attemptRows(database.db, id)).toHaveLength(1);
  });

  test("a 500 throws from the step with the schedule's delay (Inngest retries it); the retry is another logged attempt, same webhook-id", async () => {
    const { id, messageId } = await deliveryFor("/inngest-flaky");
    receiver.reply(() => ({ status: 500, body: "nope" }));
    const before = receiver.requests.length;
    const failed = await engine.execute(due(id));
    expect(failed.error).toBeDefined();
    expect(String((failed.error as Error).message ?? failed.error)).toMatch(/attempt 1: HTTP 500/);
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, nextAttemptAt: null });

    receiver.reply(() => ({ status: 200 }));
    const retried = await engine.execute(due(id)); // what Inngest does on its retry
    expect(retried.result).toMatchObject({ outcome: "succeeded", attempt: 2 });
    expect(receiver.requests.slice(before).map((r) => r.headers["webhook-id"])).toEqual([messageId, messageId]);
    expect((await attemptRows(database.db, id)).map((a) => a.statusCode)).toEqual([500, 200]);
  });

  test("Retry-After from a 429 becomes the retry delay", async () => {
    const { id } = await deliveryFor("/inngest-429");
    receiver.reply(() => ({ status: 429, headers: { "retry-after": "120" } }));
    const run = await engine.execute(due(id));
    expect(run.error).toMatchObject({ name: "RetryAfterError", message: "attempt 1: HTTP 429" });
    // The delay it carries is what the shared rules computed for this attempt:
    expect(await deliverOnce(database.db, id)).toMatchObject({ outcome: "retry", attempt: 2, delayMs: 120_000 });
  });

  test("after the schedule's last retry the step settles the delivery as failed instead of throwing", async () => {
    const { id } = await deliveryFor("/inngest-down");
    receiver.reply(() => ({ status: 503 }));
    for (let attempt = 1; attempt <= 10; attempt++) expect((await engine.execute(due(id))).error).toMatchObject({ name: "RetryAfterError" });
    const last = await engine.execute(due(id));
    expect(last.error).toBeUndefined();
    expect(last.result).toMatchObject({ outcome: "failed", attempt: 11 });
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "failed", attempts: 11 });
    expect(await attemptRows(database.db, id)).toHaveLength(11);
  });

  test("410 settles as failed without throwing, and disables the endpoint", async () => {
    const { id, endpointId } = await deliveryFor("/inngest-gone");
    receiver.reply(() => ({ status: 410 }));
    const { result, error } = await engine.execute(due(id));
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ outcome: "failed" });
    expect((await endpointRow(database.db, endpointId)).isActive).toBe(false);
  });

  test("a settled delivery is left alone (a duplicate event does nothing)", async () => {
    const { id } = await deliveryFor("/inngest-dup");
    await engine.execute(due(id));
    const before = receiver.requests.length;
    const { result } = await engine.execute(due(id));
    expect(result).toEqual({ outcome: "nothing_to_do", status: "succeeded" });
    expect(receiver.requests.length).toBe(before);
  });

  test("onFailure marks a pending delivery failed, and never overwrites one that succeeded", async () => {
    const failureFn = inngest.createFunction(
      { id: "deliver-webhook-failure-under-test", triggers: [{ event: "inngest/function.failed" }] },
      deliverWebhook.opts.onFailure!,
    );
    const failureEngine = {
      execute: (options: Parameters<InngestTestEngine["execute"]>[0]) =>
        new InngestTestEngine({ function: failureFn, transformCtx: (ctx) => ({ ...mockCtx(ctx), error: new Error("retries exhausted") }) }).execute(options),
    };
    const failed = (deliveryId: number) => ({
      events: [
        {
          name: "inngest/function.failed",
          data: {
            event: { name: "gateway/webhook.delivery-due", data: { deliveryId } },
            error: { message: "retries exhausted", name: "Error" },
            function_id: "deliver-webhook",
            run_id: "01TEST",
          },
        },
      ] as [any],
    });

    const pending = await deliveryFor("/inngest-exhausted");
    receiver.reply(() => ({ status: 500 }));
    await engine.execute(due(pending.id));
    const { result } = await failureEngine.execute(failed(pending.id));
    expect(result).toEqual({ marked: true });
    const row = await deliveryRow(database.db, pending.id);
    expect(row).toMatchObject({ status: "failed" });
    expect(row.lastError).toMatch(/Gave up: retries exhausted/);

    receiver.reply(() => ({ status: 200 }));
    const done = await deliveryFor("/inngest-done");
    await engine.execute(due(done.id));
    expect((await failureEngine.execute(failed(done.id))).result).toEqual({ marked: false });
    expect(await deliveryRow(database.db, done.id)).toMatchObject({ status: "succeeded" });
  });

  test("the serve route lists the functions", () => {
    expect(functions.map((fn) => fn.id())).toEqual([
      "deliver-webhook",
      "task-dispatch-webhook-deliveries",
      "task-loop",
      "start-task-loops",
      "task-retention",
      "task-fold-totals",
      "task-sweep-deposits",
      "task-settle-payouts",
      "task-housekeeping",
      "task-charge-subscriptions",
      "task-settle-invoices",
      "task-send-receipts",
    ]);
  });

  test("every registered task is served: by the function it names, or by a cron function of its own", () => {
    const served = functions.map((fn) => fn.id());
    const tasks = registeredTasks();
    expect(tasks.map((task) => task.name)).toEqual(
      // The invoice and receipt tasks too: a merge once left them out of the list (two returns), and no invoice was ever settled by a running server.
      expect.arrayContaining([
        taskNames.deliverWebhooks,
        taskNames.sweepDeposits,
        taskNames.housekeeping,
        "charge-subscriptions",
        "settle-invoices",
        "send-receipts",
      ]),
    );
    for (const task of tasks) expect(served).toContain(task.inngestFunction ?? `task-${task.name}`);
  });
});

describe("Inngest driver: dispatching due deliveries", () => {
  test("sends one event per due delivery with a deterministic id, then marks them handed over", async () => {
    const { id } = await deliveryFor("/dispatch");
    const sent: any[] = [];
    const count = await dispatchDueDeliveries(database.db, { send: async (events) => void sent.push(...events) });
    expect(count).toBeGreaterThanOrEqual(1);
    const mine = sent.filter((e) => e.data.deliveryId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      name: "gateway/webhook.delivery-due",
      data: { deliveryId: id },
      id: expect.stringMatching(new RegExp(`^webhook-delivery-${id}-\\d+$`)),
    });
    expect((await deliveryRow(database.db, id)).nextAttemptAt).toBeNull();
    // Already handed over: not sent twice.
    const again: any[] = [];
    await dispatchDueDeliveries(database.db, { send: async (events) => void again.push(...events) });
    expect(again.filter((e) => e.data.deliveryId === id)).toHaveLength(0);
  });

  test("if sending fails, nothing is marked and the next dispatch sends the same event id", async () => {
    const { id } = await deliveryFor("/dispatch-retry");
    await expect(dispatchDueDeliveries(database.db, { send: async () => Promise.reject(new Error("inngest down")) })).rejects.toThrow("inngest down");
    const first: any[] = [];
    await dispatchDueDeliveries(database.db, { send: async (events) => void first.push(...events) });
    const event = first.find((e) => e.data.deliveryId === id);
    expect(event).toBeDefined();
  });

  test("registered as the kicker, a recorded event's notifyDeliveriesDue() hands its delivery over at once; other kicks send nothing", async () => {
    const sent: any[] = [];
    const unregister = registerKicker(inngestKicker({ send: async (events) => void sent.push(...events) }));
    try {
      const { id } = await deliveryFor("/kicked");
      await kick(taskNames.sweepDeposits);
      await kick(taskNames.watchChain("base"));
      expect(sent).toHaveLength(0);
      await notifyDeliveriesDue();
      expect(sent.filter((e) => e.data.deliveryId === id)).toHaveLength(1);
      expect((await deliveryRow(database.db, id)).nextAttemptAt).toBeNull();
    } finally {
      unregister();
    }
  });
});
