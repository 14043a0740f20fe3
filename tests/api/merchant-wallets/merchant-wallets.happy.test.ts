import { beforeAll, describe, expect, test } from "vitest";
import { GET, POST } from "@/app/api/merchant-wallets/route";
import { PUT } from "@/app/api/merchant-wallets/[id]/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant();
});

const isoTimestamp = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe("POST /api/merchant-wallets/", () => {
  test("creates a wallet: 201 envelope, checksummed address, catalog default threshold, active", async () => {
    const address = randomAddress();
    const res = await call(POST, "POST", "/api/merchant-wallets/", {
      token: merchant.access,
      body: { blockchain: 1, wallet_address: address.toLowerCase() },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        blockchain: 1,
        blockchain_slug: "ethereum",
        wallet_address: address,
        confirmation_threshold: 3,
        is_active: true,
        created_at: isoTimestamp,
        updated_at: isoTimestamp,
      },
      message: expect.any(String),
      timestamp: isoTimestamp,
    });
  });

  test("takes the given threshold and active flag, and a checksummed or all-uppercase address", async () => {
    const address = randomAddress();
    const res = await call(POST, "POST", "/api/merchant-wallets/", {
      token: merchant.access,
      body: { blockchain: 3, wallet_address: `0x${address.slice(2).toUpperCase()}`, confirmation_threshold: 64, is_active: false },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ blockchain: 3, blockchain_slug: "polygon", wallet_address: address, confirmation_threshold: 64, is_active: false });
  });

  test("accepts the threshold bounds 1 and 10000", async () => {
    const low = await createWallet(merchant, { blockchain: 4, confirmation_threshold: 1 });
    const high = await createWallet(merchant, { blockchain: 5, confirmation_threshold: 10000 });
    expect([low.confirmation_threshold, high.confirmation_threshold]).toEqual([1, 10000]);
  });
});

describe("GET /api/merchant-wallets/", () => {
  test("lists the merchant's wallets in blockchain order, in the page shape", async () => {
    const other = await createMerchant();
    const eth = await createWallet(other, { blockchain: 1 });
    const base = await createWallet(other, { blockchain: 2 });
    const res = await call(GET, "GET", "/api/merchant-wallets/", { token: other.access });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 2, next: null, previous: null, results: [eth, base] });
  });

  test("pages", async () => {
    const other = await createMerchant();
    for (const blockchain of [1, 2, 3]) await createWallet(other, { blockchain });
    const res = await call(GET, "GET", "/api/merchant-wallets/", { token: other.access, query: { page_size: 2, page: 2 } });
    expect(res.body.count).toBe(3);
    expect(res.body.results.map((w: any) => w.blockchain)).toEqual([3]);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBe("/api/merchant-wallets/?page_size=2&page=1");
  });
});

describe("PUT /api/merchant-wallets/{id}/", () => {
  test("changes any subset of address, threshold and active flag", async () => {
    const other = await createMerchant();
    const wallet = await createWallet(other, { blockchain: 2, confirmation_threshold: 5 });
    const address = randomAddress();

    const first = await call(PUT, "PUT", `/api/merchant-wallets/${wallet.id}/`, {
      token: other.access,
      params: { id: String(wallet.id) },
      body: { wallet_address: address.toLowerCase(), reauth: { password: other.password } },
    });
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.data).toMatchObject({ id: wallet.id, blockchain: 2, wallet_address: address, confirmation_threshold: 5, is_active: true });

    const second = await call(PUT, "PUT", `/api/merchant-wallets/${wallet.id}/`, {
      token: other.access,
      params: { id: String(wallet.id) },
      body: { confirmation_threshold: 12, is_active: false },
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ wallet_address: address, confirmation_threshold: 12, is_active: false });
    expect(second.body.data.created_at).toBe(wallet.created_at);
    expect(Date.parse(second.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(wallet.updated_at));

    const list = await call(GET, "GET", "/api/merchant-wallets/", { token: other.access });
    expect(list.body.results).toEqual([second.body.data]);
  });

  test("ignores an attempt to move the wallet to another blockchain", async () => {
    const other = await createMerchant();
    const wallet = await createWallet(other, { blockchain: 2 });
    const res = await call(PUT, "PUT", `/api/merchant-wallets/${wallet.id}/`, {
      token: other.access,
      params: { id: String(wallet.id) },
      body: { blockchain: 1, is_active: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ blockchain: 2, is_active: false });
  });
});
