import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { paymentOrders } from "@/lib/db/schema";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();

let merchant: TestMerchant;
let wallet: { wallet_address: string };
beforeAll(async () => {
  merchant = await createMerchant({ shop_name: "Corner Coffee" });
  wallet = await createWallet(merchant, { blockchain: 2, confirmation_threshold: 4 });
});

const publicKeys = [
  "amount",
  "amount_arrived",
  "amount_missing",
  "amount_received",
  "blockchain",
  "confirmation_threshold",
  "confirmations",
  "currency",
  "expires_at",
  "failure_reason",
  "gasless",
  "item",
  "method_fixed",
  "methods",
  "not_counted",
  "order_id",
  "payment_reversed",
  "price_amount",
  "price_currency",
  "qr_code_url",
  "rate",
  "rate_updated_at",
  "receiving_address",
  "redirect_url",
  "refund_address",
  "refund_address_allowed",
  "sandbox",
  "shop_name",
  "status",
  "token",
  "transaction_hash",
  "transaction_url",
];

function fetchPublic(orderId: string) {
  // No credential: the customer has none.
  return call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
}

describe("GET /api/pay/{order_id}/", () => {
  test("answers without a credential with exactly the customer-safe fields", async () => {
    const order = await createOrder(merchant, {
      amount: "12.34",
      currency: "USDC",
      order_info: '{"customer_email":"secret-buyer@example.com","sku":"SECRET-SKU"}',
      webhook_url: "https://merchant.example.com/hooks/secret-path",
      redirect_url: "https://shop.example.com/thanks",
    });
    const res = await fetchPublic(order.order_id);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(publicKeys);
    expect(data).toMatchObject({
      order_id: order.order_id,
      shop_name: "Corner Coffee",
      amount: "12.34",
      currency: "USDC",
      token: { symbol: "USDC", address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), decimals: 6 },
      blockchain: { slug: "base", chain_id: 31337, native_currency: { symbol: "ETH", name: "Ether", decimals: 18 }, explorer_url: null },
      receiving_address: order.receiving_address,
      status: "pending",
      failure_reason: null,
      amount_received: "0",
      amount_missing: "12.34",
      price_amount: null,
      price_currency: null,
      rate: null,
      rate_updated_at: null,
      confirmations: 0,
      confirmation_threshold: 4,
      transaction_hash: null,
      transaction_url: null,
      qr_code_url: `/pay/${order.order_id}/qr.svg`,
      expires_at: order.expires_at,
      // Not before the order is confirmed.
      redirect_url: null,
      refund_address_allowed: false,
      refund_address: null,
      sandbox: true,
      // No devnet in this file, so no relay: tests/api/pay/gasless.test.ts covers the offer.
      gasless: null,
    });
    expect(Object.keys(data.blockchain).sort()).toEqual(["chain_id", "explorer_url", "name", "native_currency", "rpc_url", "slug"]);

    // Nothing private anywhere in the body: order_info, webhook URL, nonce, merchant and wallet data, internal ids.
    const text = JSON.stringify(res.body);
    for (const secret of [
      "secret-buyer@example.com",
      "SECRET-SKU",
      "secret-path",
      "order_info",
      "webhook",
      "nonce",
      "merchant",
      "deposit_",
      "salt",
      wallet.wallet_address,
      wallet.wallet_address.toLowerCase(),
      merchant.username,
      merchant.email,
      String(order.nonce),
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(data).not.toHaveProperty("id");
  });

  test("shows a native-coin order with a null token address", async () => {
    const order = await createOrder(merchant, { amount: "0.05", currency: "ETH" });
    const res = await fetchPublic(order.order_id);
    expect(res.status).toBe(200);
    expect(res.body.data.token).toEqual({ symbol: "ETH", address: null, decimals: 18 });
    expect(res.body.data.amount_missing).toBe("0.05");
  });

  test("agrees with the merchant's view on the shared fields", async () => {
    const order = await createOrder(merchant, { amount: "7", currency: "USDT" });
    const pub = (await fetchPublic(order.order_id)).body.data;
    const own = (await call(getOrder, "GET", `/api/payment-orders/${order.order_id}/`, { token: merchant.access, params: { orderId: order.order_id } })).body
      .data;
    for (const key of ["order_id", "amount", "currency", "status", "receiving_address", "qr_code_url", "expires_at", "amount_received"]) {
      expect(pub[key], key).toEqual(own[key]);
    }
    expect(pub.blockchain.slug).toBe(own.blockchain);
  });

  test("redirect_url: none while payment is asked for; once expired or failed, the way back to the shop (issue 52)", async () => {
    const order = await createOrder(merchant, { amount: "3", redirect_url: "https://shop.example.com/cart?id=7" });
    expect((await fetchPublic(order.order_id)).body.data.redirect_url).toBeNull();
    for (const status of ["expired", "failed"] as const) {
      await testDb.db.update(paymentOrders).set({ status }).where(eq(paymentOrders.orderId, order.order_id));
      expect((await fetchPublic(order.order_id)).body.data.redirect_url, status).toBe("https://shop.example.com/cart?id=7");
    }
    const without = await createOrder(merchant, { amount: "3" });
    await testDb.db.update(paymentOrders).set({ status: "expired" }).where(eq(paymentOrders.orderId, without.order_id));
    expect((await fetchPublic(without.order_id)).body.data.redirect_url).toBeNull();
  });

  test("numeric ids, unknown ids and junk are 404 NOT_FOUND", async () => {
    const order = await createOrder(merchant);
    for (const key of [String(order.id), "ORD-doesnotexist0000", "ORD-", "nothing", "1", `ORD-${"x".repeat(80)}`]) {
      const res = await fetchPublic(key);
      expect(res.status, key).toBe(404);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
  });

  test("a credential is not needed and not used: another merchant's token sees the same public view", async () => {
    const order = await createOrder(merchant);
    const other = await createMerchant();
    const res = await call(getPublicOrder, "GET", `/api/pay/${order.order_id}/`, { params: { orderId: order.order_id }, token: other.access });
    expect(res.status).toBe(200);
    expect(res.body.data.shop_name).toBe("Corner Coffee");
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
