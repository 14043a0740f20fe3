/** Issue 13 item 7: a payout address changes only with a login, is recorded and announced (wallet.updated). */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as createEndpointRoute } from "@/app/api/webhook-endpoints/route";
import { POST as postWallet } from "@/app/api/merchant-wallets/route";
import { PUT as putWallet } from "@/app/api/merchant-wallets/[id]/route";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { listAccountEvents } from "@/lib/webhooks/queries";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, randomAddress } from "../../helpers/factories";
import { call } from "../../helpers/request";
import { signInAs } from "../../dashboard/session";
import { settlePending, startReceiver, type Receiver } from "../../webhooks/support";

const { addWalletAction, updateWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");

const database = setupTestDatabase();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await settlePending(database.db);
  await receiver.close();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("payout address changes", () => {
  test("an API key, even with manage_wallets, cannot add or change a payout address; it may still change the threshold", async () => {
    const m = await createMerchant();
    const { key } = await createApiKeyFor(m, { preset: "full_access" });
    const add = await call(postWallet, "POST", "/api/merchant-wallets/", { token: key, body: { blockchain: 2, wallet_address: randomAddress() } });
    expect(add.status).toBe(403);
    expect(add.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");

    const wallet = (await call(postWallet, "POST", "/api/merchant-wallets/", { token: m.access, body: { blockchain: 2, wallet_address: randomAddress() } }))
      .body.data;
    const id = String(wallet.id);
    const change = await call(putWallet, "PUT", "/api/x/", { token: key, params: { id }, body: { wallet_address: randomAddress() } });
    expect(change.status).toBe(403);
    const threshold = await call(putWallet, "PUT", "/api/x/", { token: key, params: { id }, body: { confirmation_threshold: 5 } });
    expect(threshold.status).toBe(200);
    expect(threshold.body.data.wallet_address).toBe(wallet.wallet_address);
  });

  test("additions and changes with a login are recorded; a change is sent as wallet.updated to every active endpoint, whatever it subscribed to", async () => {
    const m = await createMerchant();
    const endpoint = await call(createEndpointRoute, "POST", "/api/webhook-endpoints/", {
      token: m.access,
      body: { url: receiver.url("/wallet"), events: ["payment.confirmed"] },
    });
    expect(endpoint.status).toBe(201);
    const first = randomAddress();
    const wallet = (await call(postWallet, "POST", "/api/merchant-wallets/", { token: m.access, body: { blockchain: 2, wallet_address: first } })).body.data;
    const second = randomAddress();
    const put = await call(putWallet, "PUT", "/api/x/", {
      token: m.access,
      params: { id: String(wallet.id) },
      body: { wallet_address: second, reauth: { password: m.password } },
    });
    expect(put.status).toBe(200);

    const events = await listAccountEvents(database.db, m.id);
    const dataOf = (e: (typeof events)[number]) => e.data as { change?: string; previous_address?: string | null };
    expect(events.map((e) => [e.type, dataOf(e).change, dataOf(e).previous_address, e.actor])).toEqual([
      ["wallet.updated", "created", null, "access_token"],
      ["wallet.updated", "address_changed", wallet.wallet_address, "access_token"],
    ]);

    const before = receiver.requests.length;
    await deliverDueWebhooks(database.db);
    const sent = receiver.requests
      .slice(before)
      .filter((r) => r.path === "/wallet")
      .map((r) => JSON.parse(r.body));
    // The first wallet is recorded only; the change of its address is announced.
    expect(sent.map((b) => [b.event, b.data.change, b.data.previous_address])).toEqual([["wallet.updated", "address_changed", wallet.wallet_address]]);
    expect(sent[0].data.wallet.wallet_address).toBe(put.body.data.wallet_address);
  });

  test("the dashboard asks for the password again before a payout address is added or changed", async () => {
    const m = await createMerchant();
    signInAs(m);
    const address = randomAddress();
    const wrong = await addWalletAction(form({ blockchain: "2", wallet_address: address, password: "not my password" }));
    expect(wrong).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { password: [expect.any(String)] } } });
    const missing = await addWalletAction(form({ blockchain: "2", wallet_address: address }));
    expect(missing.ok).toBe(false);
    const added = await addWalletAction(form({ blockchain: "2", wallet_address: address, password: m.password }));
    if (!added.ok) throw new Error(JSON.stringify(added));
    const id = String(added.data.id);
    // Threshold only: no password needed.
    expect((await updateWalletAction(form({ id, wallet_address: added.data.wallet_address, confirmation_threshold: "4" }))).ok).toBe(true);
    const change = await updateWalletAction(form({ id, wallet_address: randomAddress(), confirmation_threshold: "4" }));
    expect(change).toMatchObject({ ok: false, error: { details: { password: [expect.any(String)] } } });
    expect((await updateWalletAction(form({ id, wallet_address: randomAddress(), confirmation_threshold: "4", password: m.password }))).ok).toBe(true);
    expect((await listAccountEvents(database.db, m.id)).map((e) => e.actor)).toEqual(["session", "session"]);
    signInAs(null);
  });
});
