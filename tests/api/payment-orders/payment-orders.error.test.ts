import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { POST } from "@/app/api/payment-orders/route";
import { GET as getOne } from "@/app/api/payment-orders/[orderId]/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2 });
  await createWallet(merchant, { blockchain: 1 });
  await createWallet(merchant, { blockchain: 5, is_active: false });
});

let nextNonce = 1;
const valid = () => ({ amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce: nextNonce++ });
const post = (body: unknown, who: TestMerchant = merchant) => call(POST, "POST", "/api/payment-orders/", { token: who.access, body });

function expectError(res: { status: number; body: any }, code: string, fields?: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: fields ? { code, message: expect.any(String), details: expect.any(Object) } : expect.objectContaining({ code, message: expect.any(String) }),
    timestamp: expect.any(String),
  });
  if (fields) expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
}

describe("POST /api/payment-orders/ rejects", () => {
  test("amounts that are not positive decimal strings with INVALID_AMOUNT", async () => {
    for (const amount of [10, 10.5, "0", "0.00", "-5", "abc", "1e5", "", " 1", "1,5", ".5", "0x10", true, {}, ["1"]]) {
      expectError(await post({ ...valid(), amount }), "INVALID_AMOUNT");
    }
  });

  test("more fraction digits than the token has, and more than 2^256 - 1 base units, with INVALID_AMOUNT", async () => {
    expectError(await post({ ...valid(), amount: "10.1234567" }), "INVALID_AMOUNT");
    expect((await post({ ...valid(), amount: "10.123456" })).status).toBe(201);
    expectError(await post({ ...valid(), currency: "ETH", blockchain: "ethereum", amount: "1.0000000000000000001" }), "INVALID_AMOUNT");
    const max = (2n ** 256n - 1n).toString();
    expect((await post({ ...valid(), amount: `${max.slice(0, -6)}.${max.slice(-6)}` })).status).toBe(201);
    expectError(await post({ ...valid(), amount: `${(2n ** 256n).toString().slice(0, -6)}.${(2n ** 256n).toString().slice(-6)}` }), "INVALID_AMOUNT");
  });

  test("an unknown blockchain slug with INVALID_BLOCKCHAIN", async () => {
    for (const blockchain of ["solana", "bitcoin", "base-sepolia"]) expectError(await post({ ...valid(), blockchain }), "INVALID_BLOCKCHAIN");
  });

  test("a currency the blockchain does not offer with UNSUPPORTED_CURRENCY", async () => {
    for (const currency of ["DAI", "BTC", "POL", "usd"]) expectError(await post({ ...valid(), currency }), "UNSUPPORTED_CURRENCY");
  });

  test("a blockchain without a wallet, or with an inactive one, with WALLET_NOT_CONFIGURED", async () => {
    expectError(await post({ ...valid(), blockchain: "arbitrum" }), "WALLET_NOT_CONFIGURED");
    expectError(await post({ ...valid(), blockchain: "optimism" }), "WALLET_NOT_CONFIGURED");
  });

  test("a used nonce with DUPLICATE_NONCE, while a failed create does not use it up", async () => {
    const body = valid();
    expectError(await post({ ...body, amount: "0" }), "INVALID_AMOUNT");
    expect((await post(body)).status).toBe(201);
    expectError(await post({ ...valid(), nonce: body.nonce }), "DUPLICATE_NONCE");
    expectError(await post({ ...valid(), nonce: body.nonce, blockchain: "ethereum", currency: "ETH" }), "DUPLICATE_NONCE");
  });

  test("order_info that is not a string of valid JSON with INVALID_ORDER_INFO", async () => {
    for (const order_info of ["not json", "", "{", "{'a': 1}", '{"a":1,}', "undefined", { a: 1 }, 12, true, ["x"]]) {
      expectError(await post({ ...valid(), order_info }), "INVALID_ORDER_INFO");
    }
    for (const order_info of ["{}", "[]", "12", '"text"', "null", ' {"a": [1, 2.5e3]} ']) {
      const res = await post({ ...valid(), order_info });
      expect(res.status, order_info).toBe(201);
      expect(res.body.data.order_info).toBe(order_info);
    }
  });

  test("missing fields with VALIDATION_ERROR naming each", async () => {
    const res = await post({});
    expectError(res, "VALIDATION_ERROR", ["amount", "blockchain", "currency", "nonce", "order_info"]);
    expect(res.body.error.details.order_info).toEqual(["This field is required."]);
    expect(res.body.error.details.nonce).toEqual(["This field is required."]);
    const withoutInfo: Record<string, unknown> = valid();
    delete withoutInfo.order_info;
    expectError(await post(withoutInfo), "VALIDATION_ERROR", ["order_info"]);
    expectError(await post({ ...valid(), order_info: null }), "VALIDATION_ERROR", ["order_info"]);
  });

  test("nonces that are not non-negative safe integers given as JSON numbers", async () => {
    for (const nonce of ["5", -1, 1.5, 2 ** 53, null, true]) expectError(await post({ ...valid(), nonce }), "VALIDATION_ERROR", ["nonce"]);
  });

  test("currency and blockchain that are not non-empty strings", async () => {
    expectError(await post({ ...valid(), blockchain: 2 }), "VALIDATION_ERROR", ["blockchain"]);
    expectError(await post({ ...valid(), currency: "" }), "VALIDATION_ERROR", ["currency"]);
  });

  test("webhook_url and redirect_url that are not http(s) URLs of at most 2048 characters", async () => {
    const long = `https://example.com/${"a".repeat(2049 - "https://example.com/".length)}`;
    const controls = [
      "https://shop.example/\nthanks",
      " https://shop.example/",
      "https://shop.example/\tx",
      "https://shop.example/x\u0000",
      "https://shop.example/\r\nx",
      "java\tscript:alert(1)",
      "\u0000javascript:alert(1)",
    ];
    for (const url of [
      "ftp://example.com/x",
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,x",
      "not a url",
      "example.com/hook",
      "",
      long,
      5,
      ...controls,
    ]) {
      expectError(await post({ ...valid(), webhook_url: url }), "VALIDATION_ERROR", ["webhook_url"]);
      expectError(await post({ ...valid(), redirect_url: url }), "VALIDATION_ERROR", ["redirect_url"]);
    }
    const atLimit = `https://example.com/${"a".repeat(2048 - "https://example.com/".length)}`;
    expect((await post({ ...valid(), webhook_url: atLimit })).status).toBe(201);
  });

  test("expires_at in the past, without an offset, or not a timestamp", async () => {
    for (const expires_at of [new Date(Date.now() - 1000).toISOString(), "2020-01-01T00:00:00Z", "2099-01-01T00:00:00", "2099-01-01", "tomorrow", 4102444800]) {
      expectError(await post({ ...valid(), expires_at }), "VALIDATION_ERROR", ["expires_at"]);
    }
  });

  test("bad JSON and a non-object body", async () => {
    expectError(await call(POST, "POST", "/api/payment-orders/", { token: merchant.access, rawBody: '{"amount":' }), "VALIDATION_ERROR");
    expectError(await call(POST, "POST", "/api/payment-orders/", { token: merchant.access, rawBody: "[1,2]" }), "VALIDATION_ERROR");
  });

  test("checks in a fixed order: shape, blockchain, currency, amount, order_info, wallet, nonce", async () => {
    const used = valid();
    expect((await post(used)).status).toBe(201);
    const allWrong = { amount: "-1", currency: "DAI", blockchain: "solana", order_info: "nope", nonce: used.nonce };
    expectError(await post({ ...allWrong, webhook_url: "ftp://x" }), "VALIDATION_ERROR", ["webhook_url"]);
    expectError(await post({ ...allWrong, expires_at: "2020-01-01T00:00:00Z" }), "VALIDATION_ERROR", ["expires_at"]);
    expectError(await post(allWrong), "INVALID_BLOCKCHAIN");
    expectError(await post({ ...allWrong, blockchain: "arbitrum" }), "UNSUPPORTED_CURRENCY");
    expectError(await post({ ...allWrong, blockchain: "arbitrum", currency: "USDC" }), "INVALID_AMOUNT");
    expectError(await post({ ...allWrong, blockchain: "arbitrum", currency: "USDC", amount: "1" }), "INVALID_ORDER_INFO");
    expectError(await post({ ...allWrong, blockchain: "arbitrum", currency: "USDC", amount: "1", order_info: "{}" }), "WALLET_NOT_CONFIGURED");
    expectError(await post({ ...allWrong, blockchain: "base", currency: "USDC", amount: "1", order_info: "{}" }), "DUPLICATE_NONCE");
  });

  test("two simultaneous creates with one nonce: exactly one 201, the others DUPLICATE_NONCE", async () => {
    for (let round = 0; round < 3; round++) {
      const body = valid();
      const results = await Promise.all([0, 1, 2, 3].map(() => post(body)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
      for (const res of results.filter((r) => r.status === 400)) expectError(res, "DUPLICATE_NONCE");
    }
  });
});

describe("GET /api/payment-orders/{order_id}/ rejects", () => {
  test("unknown, malformed and out-of-range ids with 404 NOT_FOUND", async () => {
    for (const key of ["ORD-doesnotexist0000", "999999", "abc", "0", "-1", "1.0", "99999999999", "ord-x", `ORD-${"x".repeat(100)}`]) {
      const res = await call(getOne, "GET", `/api/payment-orders/${key}/`, { token: merchant.access, params: { orderId: key } });
      expect(res.status, key).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
  });
});

describe("webhook_url follows the deployment's webhook URL policy", () => {
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  test("sandbox allows http and loopback but never credentials", async () => {
    expect((await post({ ...valid(), webhook_url: "http://127.0.0.1:9000/hook" })).status).toBe(201);
    expectError(await post({ ...valid(), webhook_url: "https://user:secret@shop.example/hook" }), "VALIDATION_ERROR", ["webhook_url"]);
  });

  test("live refuses http and private address literals before any other check", async () => {
    vi.stubEnv("GATEWAY_MODE", "live");
    vi.resetModules();
    const route = await import("@/app/api/payment-orders/route");
    // Tokens are bound to their mode (issue 13): log in on the live deployment.
    const loginRoute = await import("@/app/api/auth/login/route");
    const liveLogin = await call(loginRoute.POST, "POST", "/api/auth/login", {
      body: { username: merchant.username, password: merchant.password },
      ip: "198.18.201.1",
    });
    expect(liveLogin.status).toBe(200);
    const livePost = (body: unknown) => call(route.POST, "POST", "/api/payment-orders/", { token: liveLogin.body.access, body });
    for (const webhook_url of ["http://shop.example/hook", "https://10.0.0.8/hook", "https://[::1]/hook", "https://169.254.169.254/latest"]) {
      expectError(await livePost({ ...valid(), webhook_url }), "VALIDATION_ERROR", ["webhook_url"]);
    }
    // redirect_url: the customer's browser goes there, so live mode takes only https (issue 13).
    expectError(await livePost({ ...valid(), redirect_url: "http://shop.example/thanks" }), "VALIDATION_ERROR", ["redirect_url"]);
    // A public https URL passes the shape checks (live networks here have no factory configured).
    expectError(await livePost({ ...valid(), webhook_url: "https://shop.example/hook" }), "INVALID_BLOCKCHAIN");
  });
});

describe("a blockchain without a deposit factory", () => {
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  test("is INVALID_BLOCKCHAIN with a clear message, even with a wallet configured", async () => {
    // Sandbox on the Base Sepolia testnet (RPC URL configured) with no factory configured there.
    vi.stubEnv("RPC_URL_BASE", "https://sepolia.base.org");
    vi.stubEnv("DEPOSIT_FACTORIES", "{}");
    vi.resetModules();
    const route = await import("@/app/api/payment-orders/route");
    const res = await call(route.POST, "POST", "/api/payment-orders/", { token: merchant.access, body: valid() });
    expectError(res, "INVALID_BLOCKCHAIN");
    expect(res.body.error.message).toMatch(/base/);
    expect(res.body.error.message).toMatch(/factory/);
    const other = await call(route.POST, "POST", "/api/payment-orders/", {
      token: merchant.access,
      body: { ...valid(), blockchain: "ethereum", currency: "ETH" },
    });
    expect(other.status).toBe(201);
  });
});
