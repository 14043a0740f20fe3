import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { DELETE as deleteEndpoint } from "@/app/api/webhook-endpoints/[id]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { openDatabase, setDatabase, type Database } from "@/lib/db/client";
import { env } from "@/lib/env";
import { recordAttempt, recordAttempts } from "@/lib/webhooks/attempt-delivery";
import { sendWebhook } from "@/lib/webhooks/deliver";
import { deliverDueWebhooks, leaseMs } from "@/lib/webhooks/deliver-due-webhooks";
import { claimDueDeliveries } from "@/lib/webhooks/queries";
import { captureOutput } from "../helpers/capture-output";
import { backend, createMigratedPostgresDatabase, openTestPglite } from "../helpers/db";
import { createMerchant, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { attemptRows, deliveryRow, endpointRow, orderFor, recordEventFor, settlePending, startReceiver, type Receiver } from "./support";

// Own database setup: the PostgreSQL test needs the URL to hand to a second process.
let database: Database;
let url: string | undefined;
let drop: (() => Promise<void>) | undefined;
let receiver: Receiver;

beforeAll(async () => {
  if (backend === "postgres") {
    const migrated = await createMigratedPostgresDatabase();
    url = migrated.url;
    drop = migrated.drop;
  }
  database = url ? await openDatabase({ url }) : await openTestPglite();
  setDatabase(database);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await database.close();
  await drop?.();
});
afterEach(async () => {
  vi.useRealTimers();
  receiver.reply(() => ({ status: 200 }));
  await settlePending(database.db);
});

async function merchantWithEndpoint(pathName: string): Promise<{ merchant: TestMerchant; endpointId: number; secret: string }> {
  const merchant = await createMerchant();
  const res = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: receiver.url(pathName) } });
  return { merchant, endpointId: res.body.data.id, secret: res.body.data.secret };
}

/** The log lines `fn` writes, whatever LOG_LEVEL the run was started with. */
async function logged<T>(fn: () => Promise<T>) {
  const level = env.LOG_LEVEL;
  env.LOG_LEVEL = "info";
  try {
    return await captureOutput(fn);
  } finally {
    env.LOG_LEVEL = level;
  }
}

function pastTheLease() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(Date.now() + leaseMs() + 1000));
}

describe("at-least-once across a crash", () => {
  test("a worker that claims a delivery and dies mid-flight loses nothing: after the lease it goes out again, same webhook-id", async () => {
    const { merchant, endpointId, secret } = await merchantWithEndpoint("/crash");
    const order = await orderFor(merchant);
    const { deliveries } = await recordEventFor(database.db, merchant, order);
    const id = deliveries[0]!.id;
    const before = receiver.requests.length;

    // The doomed worker: claims, sends, and "crashes" before writing the outcome.
    const now = new Date();
    const claimed = (await claimDueDeliveries(database.db, now, new Date(now.getTime() + leaseMs()), 10))[0]?.delivery;
    expect(claimed!.id).toBe(id);
    const endpoint = await endpointRow(database.db, endpointId);
    await sendWebhook({ url: endpoint.url, body: claimed!.body, messageId: claimed!.messageId, secrets: [secret] });

    // While the lease holds, nobody else sends it.
    expect(await deliverDueWebhooks(database.db)).toBe(0);
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "pending", attempts: 1 });

    pastTheLease();
    expect(await deliverDueWebhooks(database.db)).toBe(1);
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers["webhook-id"]).toBe(sent[0]!.headers["webhook-id"]);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await attemptRows(database.db, id)).toHaveLength(1); // the crashed attempt left no log
  });

  test("a worker that outlived its lease cannot overwrite the newer outcome", async () => {
    const { merchant, endpointId } = await merchantWithEndpoint("/late");
    const order = await orderFor(merchant);
    const { deliveries } = await recordEventFor(database.db, merchant, order);
    const id = deliveries[0]!.id;
    const now = new Date();
    const slow = (await claimDueDeliveries(database.db, now, new Date(now.getTime() + 1000), 10))[0]?.delivery;
    pastTheLease();
    receiver.reply(() => ({ status: 503 }));
    expect(await deliverDueWebhooks(database.db)).toBe(1); // a second worker takes over: attempt 2, retry later
    const afterSecond = await deliveryRow(database.db, id);
    expect(afterSecond).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 503 });

    // The slow worker finally reports that its attempt 1 got 410 Gone: logged, but not applied.
    const result = {
      statusCode: 410,
      error: null,
      retryAfterMs: null,
      refused: false,
      attemptedAt: new Date(),
      durationMs: 12_000,
      requestHeaders: {},
      responseBody: "late",
    };
    const { result: late, lines } = await logged(() =>
      recordAttempt(database.db, slow!, 1, slow!.url, result, { status: "failed", reason: "HTTP 410", disableEndpoint: true }),
    );
    expect(late.applied).toBe(false);
    // Not silent: it means the webhook may have gone out twice.
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "error",
        msg: expect.stringMatching(/outcome matched no delivery/),
        delivery_id: id,
        attempt: 1,
        current_attempts: 2,
        current_status: "pending",
      }),
    );
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: 503, nextAttemptAt: afterSecond.nextAttemptAt });
    expect((await endpointRow(database.db, endpointId)).isActive).toBe(true);
    expect((await attemptRows(database.db, id)).map((a) => a.statusCode)).toEqual([503, 410]);

    // Nor can it overwrite a success.
    receiver.reply(() => ({ status: 200 }));
    vi.setSystemTime(new Date(Date.now() + 3600_000));
    await deliverDueWebhooks(database.db);
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "succeeded", attempts: 3 });
    expect((await recordAttempt(database.db, slow!, 1, slow!.url, result, { status: "failed", reason: "HTTP 410", disableEndpoint: true })).applied).toBe(
      false,
    );
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "succeeded" });
  });

  test("an endpoint deleted while its delivery is in flight: that outcome is dropped with a warning, the others in the same write are recorded", async () => {
    const doomed = await merchantWithEndpoint("/doomed");
    const kept = await merchantWithEndpoint("/kept");
    const doomedDelivery = (await recordEventFor(database.db, doomed.merchant, await orderFor(doomed.merchant))).deliveries[0]!;
    const keptDelivery = (await recordEventFor(database.db, kept.merchant, await orderFor(kept.merchant))).deliveries[0]!;
    const now = new Date();
    const claimed = (await claimDueDeliveries(database.db, now, new Date(now.getTime() + leaseMs()), 10)).map((c) => c.delivery);
    expect(claimed.map((d) => d.id).sort()).toEqual([doomedDelivery.id, keptDelivery.id].sort());
    await call(deleteEndpoint, "DELETE", `/api/webhook-endpoints/${doomed.endpointId}/`, {
      token: doomed.merchant.access,
      params: { id: String(doomed.endpointId) },
    });

    const ok = { statusCode: 200, error: null, retryAfterMs: null, refused: false, attemptedAt: now, durationMs: 5, requestHeaders: {}, responseBody: "" };
    const { result: applied, lines } = await logged(() =>
      recordAttempts(
        database.db,
        claimed.map((delivery) => ({ delivery, attemptNumber: 1, url: delivery.url, result: ok, next: { status: "succeeded" as const } })),
      ),
    );
    expect([...applied]).toEqual([keptDelivery.id]);
    expect(await deliveryRow(database.db, keptDelivery.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await attemptRows(database.db, keptDelivery.id)).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "warn", msg: expect.stringMatching(/deleted while its attempt was in flight/), delivery_id: doomedDelivery.id }),
    );
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
  });

  test.skipIf(backend !== "postgres")("a worker process killed with SIGKILL during delivery: a restarted worker delivers it, same webhook-id", async () => {
    const { merchant } = await merchantWithEndpoint("/killed");
    const order = await orderFor(merchant);
    const { deliveries } = await recordEventFor(database.db, merchant, order);
    const id = deliveries[0]!.id;
    const before = receiver.requests.length;
    receiver.reply(() => ({ hang: true })); // keep the worker's request in flight

    const root = path.resolve(__dirname, "../..");
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(__dirname, "fixtures/delivery-worker.ts"), url!], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", GATEWAY_MODE: "sandbox", NODE_ENV: "test", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(String(signal ?? code))));
    try {
      await receiver.waitFor(before + 1, 60_000);
    } catch (error) {
      child.kill("SIGKILL");
      throw new Error(`worker never delivered: ${String(error)}\n${output}`);
    }
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(output).not.toContain("finished");

    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    receiver.reply(() => ({ status: 200 }));
    expect(await deliverDueWebhooks(database.db)).toBe(0); // still leased to the dead worker
    pastTheLease();
    expect(await deliverDueWebhooks(database.db)).toBe(1);
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers["webhook-id"]).toBe(deliveries[0]!.messageId);
    expect(sent[0]!.headers["webhook-id"]).toBe(deliveries[0]!.messageId);
    expect(await deliveryRow(database.db, id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});
