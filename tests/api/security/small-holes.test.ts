/** Issue 24 item 9: smaller holes, each over the real surface. */
import { afterEach, describe, expect, test } from "vitest";
import { parseEther, type Address } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as getTransaction } from "@/app/api/transactions/[transactionHash]/route";
import { POST as createEndpoint } from "@/app/api/webhook-endpoints/route";
import { POST as postLink } from "@/app/api/payment-links/route";
import { POST as postLinkOrder } from "@/app/api/links/[linkId]/orders/route";
import { chainClient } from "@/lib/chains/clients";
import { internalSenderArtifact } from "@/lib/chains/contract-artifacts";
import { devnetAccounts } from "@/lib/chains/devnet";
import { findOrderSweep } from "@/lib/chains/queries";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

describe("(a) the webhook SSRF guard covers the port the server listens on, not only APP_URL's", () => {
  const savedPort = process.env.PORT;
  afterEach(() => {
    if (savedPort === undefined) delete process.env.PORT;
    else process.env.PORT = savedPort;
  });

  test("with `next start -p` on another port than APP_URL's, that port is the app's: only its inbox is a target", async () => {
    const appUrlPort = Number(new URL(env.APP_URL).port || 80);
    const listening = appUrlPort === 4317 ? 4318 : 4317;
    process.env.PORT = String(listening); // what Next's start-server sets before it serves (next/dist/server/lib/start-server.js)
    const merchant = await createMerchant();
    for (const url of [`http://127.0.0.1:${listening}/api/auth/login/`, `http://localhost:${listening}/api/webhook-endpoints/`]) {
      const res = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { url: [expect.stringContaining("gateway's own services")] } });
    }
    const inbox = await call(createEndpoint, "POST", "/api/webhook-endpoints/", { token: merchant.access, body: { url: `http://127.0.0.1:${listening}/api/sandbox/inbox/abc/` } });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
  });
});

describe("(b) a contract payment to an already settled order is recorded before the sweep flushes it", () => {
  const client = () => chainClient(net.chain("base"));
  const tick = () => watchChainTick(testDb.db, net.chain("base"), client(), { checkInternalDeposits: true });

  async function fetchOrder(merchant: TestMerchant, orderId: string) {
    const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  test("a confirmed order paid again by an internal transfer: the transfer is visible by its hash and the sweep is armed", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "1", currency: "ETH" });
    const paid = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, { token: merchant.access, params: { orderId: order.order_id }, body: {} });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    for (let i = 0; i < 20 && (await fetchOrder(merchant, order.order_id)).status !== "confirmed"; i++) {
      await net.testClient().mine({ blocks: 1 });
      await tick();
    }
    expect((await fetchOrder(merchant, order.order_id)).status).toBe("confirmed");
    expect((await findOrderSweep(testDb.db, (await fetchOrder(merchant, order.order_id)).id))?.status).toBe("pending");

    const payer = net.wallet(devnetAccounts[8].privateKey);
    const deployed = await client().waitForTransactionReceipt({ hash: await payer.deployContract({ abi: internalSenderArtifact.abi, bytecode: internalSenderArtifact.bytecode }) });
    const hash = await payer.writeContract({ address: deployed.contractAddress!, abi: internalSenderArtifact.abi, functionName: "send", args: [order.receiving_address as Address], value: parseEther("0.25") });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
    await tick();

    const seen = await call(getTransaction, "GET", `/api/transactions/${hash}/`, { token: merchant.access, params: { transactionHash: hash } });
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.data).toMatchObject({ amount: "0.25", currency: "ETH", payment_order: { order_id: order.order_id } });
  });
});

describe("(c) a payment link refuses at save a price every one of its orders would refuse", () => {
  const save = (merchant: TestMerchant, body: Record<string, unknown>) => call(postLink, "POST", "/api/payment-links/", { token: merchant.access, body: { title: "Ticket", max_quantity: 1, ...body } });

  test("a fiat currency the chain has no feed for, a fiat price order creation finds too large (at max_quantity too), a token amount past uint256 at max_quantity", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
    const base = [{ blockchain: "base", currency: "USDC" }];

    let res = await save(merchant, { price_amount: "10.00", price_currency: "GBP", options: base });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([400, "UNSUPPORTED_PRICE_CURRENCY"]);
    expect(res.body.error.message).toContain("No GBP/USD price feed is configured on base");

    res = await save(merchant, { price_amount: "1000000000000000.00", price_currency: "USD", options: base });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([400, "VALIDATION_ERROR"]);
    res = await save(merchant, { price_amount: "500000000000000.00", price_currency: "USD", options: base, max_quantity: 3 });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([400, "VALIDATION_ERROR"]);

    const nearMax = (2n ** 256n / 4n).toString();
    res = await save(merchant, { amount: nearMax, options: [{ blockchain: "base", currency: "ETH" }], max_quantity: 5 });
    expect([res.status, res.body.error?.code], JSON.stringify(res.body)).toEqual([400, "INVALID_AMOUNT"]);

    // What is saved is what orders take: the largest fiat price at max_quantity makes an order.
    res = await save(merchant, { price_amount: "333333333333333.33", price_currency: "USD", options: base, max_quantity: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const linkId = res.body.data.id;
    const ordered = await call(postLinkOrder, "POST", `/api/links/${linkId}/orders/`, { params: { linkId }, body: { blockchain: "base", currency: "USDC", quantity: 3 }, ip: "203.0.113.9" });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
  });
});
