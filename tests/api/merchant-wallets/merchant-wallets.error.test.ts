import { beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/merchant-wallets/route";
import { PUT } from "@/app/api/merchant-wallets/[id]/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant();
});

const post = (body: unknown, who: TestMerchant = merchant) => call(POST, "POST", "/api/merchant-wallets/", { token: who.access, body });
const put = (id: string | number, body: unknown, who: TestMerchant = merchant) =>
  call(PUT, "PUT", `/api/merchant-wallets/${id}/`, { token: who.access, params: { id: String(id) }, body });

function expectError(res: { status: number; body: any }, code: string, fields?: string[]) {
  expect(res.status).toBe(400);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
  if (fields) expect(Object.keys(res.body.error.details ?? {}).sort()).toEqual([...fields].sort());
}

// EIP-55 test vector with one letter's case flipped: a valid address with a broken checksum.
const checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const badChecksum = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";

describe("POST /api/merchant-wallets/ rejects", () => {
  test("a second wallet for the same blockchain with details.blockchain", async () => {
    const who = await createMerchant();
    await createWallet(who, { blockchain: 2 });
    const res = await post({ blockchain: 2, wallet_address: randomAddress() }, who);
    expectError(res, "VALIDATION_ERROR", ["blockchain"]);
  });

  test("simultaneous creates for one blockchain: exactly one 201, the others a field error", async () => {
    const who = await createMerchant();
    for (const blockchain of [1, 2, 3, 4, 5]) {
      const results = await Promise.all([0, 1, 2, 3].map(() => post({ blockchain, wallet_address: randomAddress() }, who)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
      for (const res of results.filter((r) => r.status === 400)) expectError(res, "VALIDATION_ERROR", ["blockchain"]);
    }
  });

  test("an unknown blockchain id with INVALID_BLOCKCHAIN", async () => {
    for (const blockchain of [0, 6, 999, -1]) expectError(await post({ blockchain, wallet_address: randomAddress() }), "INVALID_BLOCKCHAIN");
  });

  test("a blockchain given as slug or string, or not a whole number", async () => {
    for (const blockchain of ["base", "2", 2.5, null, true]) {
      expectError(await post({ blockchain, wallet_address: randomAddress() }), "VALIDATION_ERROR", ["blockchain"]);
    }
  });

  test("malformed addresses, a bad mixed-case checksum and the zero address", async () => {
    expect((await post({ blockchain: 1, wallet_address: checksummed }, await createMerchant())).status).toBe(201);
    for (const wallet_address of [
      badChecksum,
      "0x0000000000000000000000000000000000000000",
      "0x123",
      "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg",
      `${checksummed}00`,
      "",
      123,
      null,
    ]) {
      expectError(await post({ blockchain: 1, wallet_address }), "VALIDATION_ERROR", ["wallet_address"]);
    }
  });

  test("thresholds outside 1..10000 or not whole numbers", async () => {
    for (const confirmation_threshold of [0, -3, 10001, 1.5, "12", null]) {
      expectError(await post({ blockchain: 1, wallet_address: randomAddress(), confirmation_threshold }), "VALIDATION_ERROR", ["confirmation_threshold"]);
    }
  });

  test("a non-boolean is_active", async () => {
    expectError(await post({ blockchain: 1, wallet_address: randomAddress(), is_active: "yes" }), "VALIDATION_ERROR", ["is_active"]);
  });

  test("missing fields, each named, and bad JSON", async () => {
    const res = await post({});
    expectError(res, "VALIDATION_ERROR", ["blockchain", "wallet_address"]);
    expect(res.body.error.details.blockchain).toEqual(["This field is required."]);
    const raw = await call(POST, "POST", "/api/merchant-wallets/", { token: merchant.access, rawBody: "{nope" });
    expectError(raw, "VALIDATION_ERROR");
  });

  test("shape errors before INVALID_BLOCKCHAIN", async () => {
    expectError(await post({ blockchain: 99, wallet_address: "0x1" }), "VALIDATION_ERROR", ["wallet_address"]);
  });
});

describe("PUT /api/merchant-wallets/{id}/ rejects", () => {
  test("an empty update", async () => {
    const wallet = await createWallet(await createMerchant());
    const res = await call(PUT, "PUT", `/api/merchant-wallets/${wallet.id}/`, { token: merchant.access, params: { id: String(wallet.id) }, body: {} });
    // Another merchant's wallet with a bad body: the body is checked first (400), never a 500 or a leak.
    expect(res.status).toBe(400);
  });

  test("invalid fields, with details", async () => {
    const who = await createMerchant();
    const wallet = await createWallet(who);
    expectError(await put(wallet.id, {}, who), "VALIDATION_ERROR", ["non_field_errors"]);
    expectError(await put(wallet.id, { wallet_address: badChecksum }, who), "VALIDATION_ERROR", ["wallet_address"]);
    expectError(await put(wallet.id, { wallet_address: "0x0000000000000000000000000000000000000000" }, who), "VALIDATION_ERROR", ["wallet_address"]);
    expectError(await put(wallet.id, { confirmation_threshold: 0 }, who), "VALIDATION_ERROR", ["confirmation_threshold"]);
    expectError(await put(wallet.id, { is_active: 1 }, who), "VALIDATION_ERROR", ["is_active"]);
  });

  test("unknown and non-numeric ids with 404 NOT_FOUND", async () => {
    for (const id of ["999999", "abc", "1.5", "-1", "0", "99999999999", "1e3", "%20"]) {
      const res = await put(id, { is_active: false });
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
  });
});
