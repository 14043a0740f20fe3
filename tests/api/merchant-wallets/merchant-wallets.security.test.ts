import { beforeAll, describe, expect, test } from "vitest";
import { GET, POST } from "@/app/api/merchant-wallets/route";
import { PUT } from "@/app/api/merchant-wallets/[id]/route";
import { setupTestDatabase } from "../../helpers/db";
import { createApiKeyFor, createMerchant, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

let alice: TestMerchant;
let bob: TestMerchant;
let aliceWallet: any;
beforeAll(async () => {
  alice = await createMerchant();
  bob = await createMerchant();
  aliceWallet = await createWallet(alice, { blockchain: 2 });
});

describe("merchant wallets are private to their merchant", () => {
  test("another merchant's wallet id is 404 on PUT and is left unchanged", async () => {
    const res = await call(PUT, "PUT", `/api/merchant-wallets/${aliceWallet.id}/`, {
      token: bob.access,
      params: { id: String(aliceWallet.id) },
      body: { wallet_address: randomAddress() },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    const list = await call(GET, "GET", "/api/merchant-wallets/", { token: alice.access });
    expect(list.body.results).toEqual([aliceWallet]);
  });

  test("the list never shows another merchant's wallets", async () => {
    const res = await call(GET, "GET", "/api/merchant-wallets/", { token: bob.access });
    expect(res.body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  test("one merchant's wallet does not block another's on the same blockchain", async () => {
    const res = await call(POST, "POST", "/api/merchant-wallets/", { token: bob.access, body: { blockchain: 2, wallet_address: aliceWallet.wallet_address } });
    expect(res.status).toBe(201);
  });
});

describe("credentials and permissions", () => {
  test("no credential or a bad one is 401 INVALID_TOKEN", async () => {
    for (const token of [undefined, "not-a-token"]) {
      const list = await call(GET, "GET", "/api/merchant-wallets/", { token });
      const create = await call(POST, "POST", "/api/merchant-wallets/", { token, body: { blockchain: 1, wallet_address: randomAddress() } });
      const update = await call(PUT, "PUT", `/api/merchant-wallets/${aliceWallet.id}/`, {
        token,
        params: { id: String(aliceWallet.id) },
        body: { is_active: false },
      });
      for (const res of [list, create, update]) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("INVALID_TOKEN");
      }
    }
  });

  test("read lists; POST and PUT need manage_wallets", async () => {
    for (const preset of ["read_only", "create_payments", "manage_webhooks"]) {
      const { key } = await createApiKeyFor(alice, { preset });
      expect((await call(GET, "GET", "/api/merchant-wallets/", { token: key })).status).toBe(200);
      const create = await call(POST, "POST", "/api/merchant-wallets/", { token: key, body: { blockchain: 1, wallet_address: randomAddress() } });
      const update = await call(PUT, "PUT", `/api/merchant-wallets/${aliceWallet.id}/`, {
        token: key,
        params: { id: String(aliceWallet.id) },
        body: { is_active: false },
      });
      for (const res of [create, update]) {
        expect(res.status, preset).toBe(403);
        expect(res.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
      }
    }
    const { key } = await createApiKeyFor(alice, { preset: "full_access" });
    const update = await call(PUT, "PUT", `/api/merchant-wallets/${aliceWallet.id}/`, {
      token: key,
      params: { id: String(aliceWallet.id) },
      body: { confirmation_threshold: 7 },
    });
    expect(update.status).toBe(200);
    aliceWallet = update.body.data;
  });
});
