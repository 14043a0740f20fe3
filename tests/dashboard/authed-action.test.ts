import { beforeEach, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { setupTestDatabase } from "../helpers/db";
import { createApiKeyFor, createMerchant, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "./session";

const { authedAction } = await import("@/lib/auth/authed-action");
const { addWalletAction, updateWalletAction } = await import("@/app/(dashboard)/dashboard/wallets/actions");
const { createApiKeyAction, revokeApiKeyAction } = await import("@/app/(dashboard)/dashboard/api-keys/actions");
const { GET: listWallets } = await import("@/app/api/merchant-wallets/route");

setupTestDatabase();

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
  return data;
}

let alice: TestMerchant;
let bob: TestMerchant;

beforeEach(async () => {
  alice ??= await createMerchant();
  bob ??= await createMerchant();
  signInAs(null);
});

describe("authedAction", () => {
  test("without a session the handler never runs and the result is INVALID_TOKEN", async () => {
    const handler = vi.fn(async () => "ran");
    const action = authedAction(z.object({}), handler);
    expect(await action({})).toEqual({ ok: false, error: { code: "INVALID_TOKEN", message: expect.any(String) } });
    expect(handler).not.toHaveBeenCalled();
  });

  test("bad input gives VALIDATION_ERROR with per-field details, before the handler", async () => {
    signInAs(alice);
    const handler = vi.fn(async () => "ran");
    const action = authedAction(z.object({ name: z.string().min(3, "Too short.") }), handler);
    const result = await action(form({ name: "ab" }));
    expect(result).toEqual({ ok: false, error: { code: "VALIDATION_ERROR", message: expect.any(String), details: { name: ["Too short."] } } });
    expect(handler).not.toHaveBeenCalled();
  });

  test("the handler gets the session's merchant, and its data comes back", async () => {
    signInAs(alice);
    const action = authedAction(z.object({ n: z.coerce.number() }), async ({ n }, ctx) => ({ n, merchantId: ctx.merchantId }));
    expect(await action(form({ n: "41" }))).toEqual({ ok: true, data: { n: 41, merchantId: alice.id } });
  });

  test("an ApiError keeps its code and message; anything else becomes a fixed INTERNAL_ERROR", async () => {
    signInAs(alice);
    const expected = authedAction(z.object({}), async () => {
      throw new ApiError("CONFLICT", "Already running.");
    });
    expect(await expected({})).toEqual({ ok: false, error: { code: "CONFLICT", message: "Already running." } });
    const unexpected = authedAction(z.object({}), async () => {
      throw new Error("connection string postgres://secret@db leaked");
    });
    const result = await unexpected({});
    expect(result).toEqual({ ok: false, error: { code: "INTERNAL_ERROR", message: "An unexpected error occurred." } });
    expect(JSON.stringify(result)).not.toContain("secret");
  });
});

describe("dashboard actions call the API's use-cases for the session's merchant", () => {
  test("adding a wallet from the form shows up in the API for that merchant only", async () => {
    signInAs(alice);
    const address = randomAddress();
    const added = await addWalletAction(
      form({ blockchain: "3", wallet_address: address.toLowerCase(), confirmation_threshold: "7", is_active: "on", password: alice.password }),
    );
    expect(added).toMatchObject({ ok: true, data: { blockchain: 3, wallet_address: address, confirmation_threshold: 7, is_active: true } });

    const mine = await call(listWallets, "GET", "/api/merchant-wallets/", { token: alice.access });
    expect(mine.body.results.map((w: { wallet_address: string }) => w.wallet_address)).toContain(address);
    const theirs = await call(listWallets, "GET", "/api/merchant-wallets/", { token: bob.access });
    expect(theirs.body.results).toEqual([]);

    // Same rules as the API: a second wallet on the chain is refused, a bad address names its field.
    expect(await addWalletAction(form({ blockchain: "3", wallet_address: randomAddress(), password: alice.password }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR" },
    });
    expect(await addWalletAction(form({ blockchain: "4", wallet_address: "0x123" }))).toMatchObject({
      ok: false,
      error: { code: "VALIDATION_ERROR", details: { wallet_address: [expect.any(String)] } },
    });
  });

  test("another merchant's wallet cannot be edited: NOT_FOUND, and it is unchanged", async () => {
    signInAs(alice);
    const added = await addWalletAction(form({ blockchain: "5", wallet_address: randomAddress(), is_active: "on", password: alice.password }));
    if (!added.ok) throw new Error(JSON.stringify(added));
    signInAs(bob);
    const attempt = await updateWalletAction(form({ id: String(added.data.id), wallet_address: randomAddress(), confirmation_threshold: "1" }));
    expect(attempt).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    const mine = await call(listWallets, "GET", "/api/merchant-wallets/", { token: alice.access });
    expect(mine.body.results.find((w: { id: number }) => w.id === added.data.id).wallet_address).toBe(added.data.wallet_address);
  });

  test("an API key made in the dashboard works on the API until revoked there; another merchant cannot revoke it", async () => {
    signInAs(alice);
    const created = await createApiKeyAction(form({ name: "dash key", preset: "read_only" }));
    if (!created.ok) throw new Error(JSON.stringify(created));
    expect(created.data.key).toMatch(/^sk_test_/);
    expect(created.data.permissions).toEqual(["read"]);
    expect((await call(listWallets, "GET", "/api/merchant-wallets/", { token: created.data.key })).status).toBe(200);

    signInAs(bob);
    expect(await revokeApiKeyAction({ id: String(created.data.id) })).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect((await call(listWallets, "GET", "/api/merchant-wallets/", { token: created.data.key })).status).toBe(200);

    signInAs(alice);
    expect(await revokeApiKeyAction({ id: String(created.data.id) })).toMatchObject({ ok: true, data: { revoked: true } });
    const refused = await call(listWallets, "GET", "/api/merchant-wallets/", { token: created.data.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("INVALID_TOKEN");
  });

  test("an expiry date in the past is refused on its field", async () => {
    signInAs(alice);
    const result = await createApiKeyAction(form({ name: "old", preset: "full_access", expires_at: "2000-01-01" }));
    expect(result).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { expires_at: [expect.any(String)] } } });
    // Keys made with a login token still list for the owner only (sanity of the shared table).
    await createApiKeyFor(alice);
  });
});
