import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setupFacts } from "@/lib/dashboard/overview";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { startReceiver, type Receiver } from "../webhooks/support";
import { signInAs } from "./session";

const { createEndpointAction, sendTestAction } = await import("@/app/(dashboard)/dashboard/webhooks/actions");

const database = setupTestDatabase();
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

function form(fields: Record<string, string | number>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, String(value));
  return data;
}

/** A loopback port nothing listens on: bound, read, closed. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}

async function addEndpoint(url: string): Promise<number> {
  const created = await createEndpointAction(form({ url }));
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  return (created.data as { id: number }).id;
}

describe("dashboard webhooks: the test event's result, and the setup checklist", () => {
  test("an unreachable endpoint: the test reports not delivered with the error, and the checklist step stays to do", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    const id = await addEndpoint(await closedPortUrl());
    expect(await setupFacts(database.db, merchant.id)).toMatchObject({ webhookEndpointAdded: true, webhookEndpointDelivered: false });

    const result = await sendTestAction(form({ id, event: "payment.confirmed" }));
    expect(result).toMatchObject({ ok: true, data: { succeeded: false, status_code: null, error: expect.any(String) } });
    expect(await setupFacts(database.db, merchant.id)).toMatchObject({ webhookEndpointAdded: true, webhookEndpointDelivered: false });
  });

  test("an endpoint answering 500 is not done either; the same endpoint answering 200 ticks the step", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    const id = await addEndpoint(receiver.url("/checklist"));

    receiver.reply(() => ({ status: 500, body: "boom" }));
    const failed = await sendTestAction(form({ id, event: "payment.confirmed" }));
    expect(failed).toMatchObject({ ok: true, data: { succeeded: false, status_code: 500 } });
    expect((await setupFacts(database.db, merchant.id)).webhookEndpointDelivered).toBe(false);

    receiver.reply(() => ({ status: 204 }));
    const delivered = await sendTestAction(form({ id, event: "payment.pending" }));
    expect(delivered).toMatchObject({
      ok: true,
      data: { succeeded: true, status_code: 204, error: null, duration_ms: expect.any(Number), attempted_at: expect.any(String) },
    });
    expect((await setupFacts(database.db, merchant.id)).webhookEndpointDelivered).toBe(true);

    // Another merchant's success never ticks this one's checklist.
    const other = await createMerchant();
    expect(await setupFacts(database.db, other.id)).toMatchObject({ webhookEndpointAdded: false, webhookEndpointDelivered: false });
  });

  test("another merchant cannot send a test to this merchant's endpoint", async () => {
    const owner = await createMerchant();
    signInAs(owner);
    const id = await addEndpoint(receiver.url("/owned"));
    signInAs(await createMerchant());
    expect(await sendTestAction(form({ id, event: "payment.confirmed" }))).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
  });
});
