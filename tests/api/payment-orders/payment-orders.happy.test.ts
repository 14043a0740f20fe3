import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST } from "@/app/api/payment-orders/route";
import { GET as getOne } from "@/app/api/payment-orders/[orderId]/route";
import { PUT as updateWallet } from "@/app/api/merchant-wallets/[id]/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { computeDepositAddress } from "@/lib/chains/deposit-address";
import { paymentOrders } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();

let merchant: TestMerchant;
let baseWallet: any;
beforeAll(async () => {
  merchant = await createMerchant();
  baseWallet = await createWallet(merchant, { blockchain: 2, confirmation_threshold: 7 });
  await createWallet(merchant, { blockchain: 1 });
});

let nonce = 1000;
const create = (body: Record<string, unknown>) =>
  call(POST, "POST", "/api/payment-orders/", {
    token: merchant.access,
    body: { amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce: nonce++, ...body },
  });

const rowOf = async (id: number) => (await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.id, id)))[0]!;

describe("POST /api/payment-orders/", () => {
  test("creates a pending order with its own deposit address: 201 envelope with every field", async () => {
    const orderInfo = '{ "items": [ {"sku": "A1", "qty": 2} ],  "note": "café" }';
    const before = Date.now();
    const res = await create({ order_info: orderInfo, nonce: 42 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["data", "message", "success", "timestamp"]);
    expect(res.body.success).toBe(true);
    const order = res.body.data;
    expect(order).toEqual({
      id: expect.any(Number),
      order_id: expect.stringMatching(/^ORD-[0-9A-Za-z]{16}$/),
      amount: "10.5",
      currency: "USDC",
      blockchain: "base",
      status: "pending",
      receiving_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      payment_url: `http://localhost:3000/pay/${order.order_id}`,
      qr_code_url: `/pay/${order.order_id}/qr.svg`,
      order_info: orderInfo,
      nonce: 42,
      webhook_url: null,
      redirect_url: null,
      created_at: expect.stringMatching(/Z$/),
      expires_at: expect.stringMatching(/Z$/),
      confirmed_at: null,
      transaction: null,
      amount_received: "0",
      failure_reason: null,
      price_amount: null,
      price_currency: null,
      rate: null,
      rate_source: null,
      sweep: null,
      refund_address: null,
      refund_address_payer_signed: false,
      refund_address_signed_by: null,
      refund_address_source: null,
      refund_address_given_by: null,
      refunds: [],
      at_risk: false,
      at_risk_reason: null,
      at_risk_since: null,
      // No payer yet (the list's date is whatever list this database holds).
      screening: expect.objectContaining({ status: "clear" }),
      // One method, as created (issue 27); null until money counts.
      accepted_methods: [{ blockchain: "base", currency: "USDC", amount: "10.5", rate: null, receiving_address: order.receiving_address }],
      payment_method: null,
      amount_arrived: "0",
      amount_counted: "0",
      not_counted: [],
      payment_reversed: false,
    });
    const created = Date.parse(order.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(order.expires_at) - created).toBe(30 * 60 * 1000);

    const row = await rowOf(order.id);
    expect(row).toMatchObject({
      merchantId: merchant.id,
      blockchainId: 2,
      currency: "USDC",
      tokenAddress: devnetContracts.USDC,
      decimals: 6,
      amount: "10500000",
      amountReceived: "0",
      depositDestination: baseWallet.wallet_address,
      depositFactory: devnetContracts.factoryV2,
      depositFactoryVersion: 2,
      confirmationThreshold: 7,
      orderInfo,
    });
    expect(row.depositSalt).toMatch(/^0x[0-9a-f]{64}$/);
    expect(order.receiving_address).toBe(
      computeDepositAddress({
        factory: devnetContracts.factoryV2,
        implementation: devnetContracts.implementationV2,
        destination: baseWallet.wallet_address,
        salt: row.depositSalt as `0x${string}`,
      }),
    );
  });

  test("matches currency and blockchain case-insensitively and stores the catalog's symbol", async () => {
    const res = await create({ currency: "usdc", blockchain: "BASE" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ currency: "USDC", blockchain: "base" });
  });

  test("gives every order a different deposit address", async () => {
    const a = (await create({})).body.data;
    const b = (await create({})).body.data;
    expect(a.receiving_address).not.toBe(b.receiving_address);
    expect(a.order_id).not.toBe(b.order_id);
  });

  test("native coin orders keep 18 decimals exactly", async () => {
    const res = await create({ currency: "ETH", amount: "0.000000000000000001", blockchain: "ethereum" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: "0.000000000000000001", currency: "ETH", blockchain: "ethereum" });
    const row = await rowOf(res.body.data.id);
    expect(row).toMatchObject({ amount: "1", decimals: 18, tokenAddress: null, confirmationThreshold: 3 });
  });

  test("returns amounts in canonical form: no trailing zeros, no exponent", async () => {
    const cases: [string, string][] = [
      ["10.500000", "10.5"],
      ["007", "7"],
      ["1000000000000000000000", "1000000000000000000000"],
      ["0.000001", "0.000001"],
    ];
    for (const [sent, shown] of cases) {
      const res = await create({ amount: sent });
      expect(res.status).toBe(201);
      expect(res.body.data.amount).toBe(shown);
    }
  });

  test("takes webhook_url, redirect_url and an expires_at with an offset", async () => {
    const expires = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const withOffset = new Date(expires.getTime() + 2 * 60 * 60 * 1000).toISOString().replace("Z", "+02:00");
    const res = await create({
      webhook_url: "https://shop.example.com/hooks/gateway?x=1",
      redirect_url: "http://localhost:8080/thanks",
      expires_at: withOffset,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      webhook_url: "https://shop.example.com/hooks/gateway?x=1",
      redirect_url: "http://localhost:8080/thanks",
      expires_at: expires.toISOString(),
    });
  });

  test("accepts nonce 0 and the largest safe integer; null optional fields are absent", async () => {
    for (const n of [0, Number.MAX_SAFE_INTEGER]) {
      const res = await create({ nonce: n, webhook_url: null, redirect_url: null, expires_at: null });
      expect(res.status).toBe(201);
      expect(res.body.data.nonce).toBe(n);
      expect(res.body.data.webhook_url).toBeNull();
    }
  });

  test("keeps the wallet and threshold it was created with when the wallet changes later", async () => {
    const who = await createMerchant();
    const wallet = await createWallet(who, { blockchain: 3, confirmation_threshold: 20 });
    const first = await call(POST, "POST", "/api/payment-orders/", {
      token: who.access,
      body: { amount: "1", currency: "USDC", blockchain: "polygon", order_info: "{}", nonce: 1 },
    });
    const newAddress = randomAddress();
    const changed = await call(updateWallet, "PUT", `/api/merchant-wallets/${wallet.id}/`, {
      token: who.access,
      params: { id: String(wallet.id) },
      body: { wallet_address: newAddress, confirmation_threshold: 40, reauth: { password: who.password } },
    });
    expect(changed.status).toBe(200);
    const second = await call(POST, "POST", "/api/payment-orders/", {
      token: who.access,
      body: { amount: "1", currency: "USDC", blockchain: "polygon", order_info: "{}", nonce: 2 },
    });
    expect((await rowOf(first.body.data.id)).depositDestination).toBe(wallet.wallet_address);
    expect((await rowOf(first.body.data.id)).confirmationThreshold).toBe(20);
    expect((await rowOf(second.body.data.id)).depositDestination).toBe(newAddress);
    expect((await rowOf(second.body.data.id)).confirmationThreshold).toBe(40);
  });
});

describe("GET /api/payment-orders/{order_id}/", () => {
  test("returns the order by ORD- id and by numeric id, exactly as created", async () => {
    const created = await createOrder(merchant, { nonce: nonce++ });
    for (const key of [created.order_id, String(created.id)]) {
      for (const path of [`/api/payment-orders/${key}/`, `/api/payment-orders/${key}`]) {
        const res = await call(getOne, "GET", path, { token: merchant.access, params: { orderId: key } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, data: created, message: expect.any(String), timestamp: expect.any(String) });
      }
    }
  });
});
