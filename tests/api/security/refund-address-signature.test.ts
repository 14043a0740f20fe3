/**
 * Issue 24 item 6: the payment page's refund address is bound to the payer. On the real devnet a
 * test wallet pays the order, then signs the refund address (personal_sign) with its own key; only
 * a signature by a sender of the order's counted transfers sets it, and the merchant sees who signed.
 */
import { describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { getAddress, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as postRefundAddress } from "@/app/api/pay/[orderId]/refund-address/route";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { paymentOrders } from "@/lib/db/schema";
import { loadOrderDetail } from "@/lib/dashboard/order-detail";
import { refundAddressMessage } from "@/lib/refunds/refund-address-message";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { expectMatchesSchema } from "../../helpers/openapi";
import { createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const tick = () => watchChainTick(testDb.db, base(), chainClient(base()), { checkInternalDeposits: true });

/** Devnet accounts the test holds keys for (0–2 are the gateway's own). */
const payer = devnetAccounts[8];
const secondPayer = devnetAccounts[9];
const stranger = devnetAccounts[6];

const sign = (key: Hex, orderId: string, address: string) =>
  privateKeyToAccount(key).signMessage({ message: refundAddressMessage(orderId, getAddress(address)) });
const leave = (orderId: string, body: Record<string, unknown>) =>
  call(postRefundAddress, "POST", `/api/pay/${orderId}/refund-address/`, { params: { orderId }, body, ip: "203.0.113.24" });
const fetchOrder = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  expectMatchesSchema("GET /api/payment-orders/[orderId]", 200, res.body);
  return res.body.data;
};

/** An order of 1 ETH on base, overpaid (1.5 ETH) by `payers` from their own wallets and confirmed. */
async function overpaidOrder(payers: Hex[] = [payer.privateKey]) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 1 });
  const order = await createOrder(merchant, { blockchain: "base", amount: "1", currency: "ETH" });
  const share = parseEther("1.5") / BigInt(payers.length);
  for (const key of payers) await net.wallet(key).sendTransaction({ to: order.receiving_address, value: share });
  for (let i = 0; i < 5 && (await fetchOrder(merchant, order.order_id)).status !== "confirmed"; i++) {
    await tick();
    await net.testClient().mine({ blocks: 1 });
  }
  expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", amount_received: "1.5", refund_address: null });
  return { merchant, order };
}

describe("the payment page's refund address is signed by the payer", () => {
  test("a signature by the wallet that paid sets it; the API and the dashboard show the merchant it was payer-signed", async () => {
    const { merchant, order } = await overpaidOrder();
    const refundTo = randomAddress();
    const saved = await leave(order.order_id, { refund_address: refundTo.toLowerCase(), signature: await sign(payer.privateKey, order.order_id, refundTo) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expectMatchesSchema("POST /api/pay/[orderId]/refund-address", 201, saved.body);
    expect(saved.body.data).toMatchObject({ order_id: order.order_id, refund_address: refundTo, refund_address_signed_by: payer.address });
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: refundTo,
      refund_address_payer_signed: true,
      refund_address_signed_by: payer.address,
    });
    expect((await loadOrderDetail(testDb.db, merchant.id, order.order_id))?.order).toMatchObject({
      refundAddress: refundTo,
      refundAddressSignedBy: payer.address,
    });
  });

  test("no signature, a stranger's, one over another order or another address, or a malformed one: 400 on signature, nothing stored", async () => {
    const { merchant, order } = await overpaidOrder();
    const other = await overpaidOrder();
    const refundTo = randomAddress();
    const attempts: [string, Record<string, unknown>][] = [
      ["none", { refund_address: refundTo }],
      ["stranger", { refund_address: refundTo, signature: await sign(stranger.privateKey, order.order_id, refundTo) }],
      ["another order", { refund_address: refundTo, signature: await sign(payer.privateKey, other.order.order_id, refundTo) }],
      ["another address", { refund_address: refundTo, signature: await sign(payer.privateKey, order.order_id, randomAddress()) }],
      ["malformed", { refund_address: refundTo, signature: "0x1234" }],
      ["not a signature", { refund_address: refundTo, signature: `0x${"ab".repeat(65)}` }],
    ];
    for (const [what, body] of attempts) {
      const res = await leave(order.order_id, body);
      expect(res.status, what).toBe(400);
      expect(res.body.error, what).toMatchObject({ code: "VALIDATION_ERROR", details: { signature: [expect.any(String)] } });
    }
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: null,
      refund_address_payer_signed: false,
      refund_address_signed_by: null,
    });
  });

  test("the first-come attacker is refused; an address left unsigned earlier is replaced by the payer's signed one, which only another payer signature changes", async () => {
    const { merchant, order } = await overpaidOrder([payer.privateKey, secondPayer.privateKey]);
    const attackers = randomAddress();
    const firstCome = await leave(order.order_id, { refund_address: attackers });
    expect(firstCome.status).toBe(400);
    // An address left without a signature before signatures were required (the old first-come rule).
    await testDb.db.update(paymentOrders).set({ refundAddress: attackers, refundAddressAt: new Date() }).where(eq(paymentOrders.orderId, order.order_id));
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: attackers,
      refund_address_payer_signed: false,
      refund_address_signed_by: null,
    });

    const payers = randomAddress();
    const replaced = await leave(order.order_id, { refund_address: payers, signature: await sign(payer.privateKey, order.order_id, payers) });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: payers,
      refund_address_payer_signed: true,
      refund_address_signed_by: payer.address,
    });

    const strangerAgain = await leave(order.order_id, { refund_address: attackers, signature: await sign(stranger.privateKey, order.order_id, attackers) });
    expect(strangerAgain.status).toBe(400);
    expect((await fetchOrder(merchant, order.order_id)).refund_address).toBe(payers);

    const corrected = randomAddress();
    const bySecondPayer = await leave(order.order_id, { refund_address: corrected, signature: await sign(secondPayer.privateKey, order.order_id, corrected) });
    expect(bySecondPayer.status).toBe(201);
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ refund_address: corrected, refund_address_signed_by: secondPayer.address });
  });
});
