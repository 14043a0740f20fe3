/** Issue 24 item 5: refunds never go to the gateway's own addresses; typed addresses are EIP-55 checked. */
import { describe, expect, test } from "vitest";
import { signInAs } from "../../dashboard/session";
import { devnetContracts } from "@/lib/chains/catalog";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createOrder, createWallet, randomAddress } from "../../helpers/factories";
import { call } from "../../helpers/request";

const { POST: postRefund } = await import("@/app/api/payment-orders/[orderId]/refunds/route");
const { POST: postRefundAddress } = await import("@/app/api/pay/[orderId]/refund-address/route");
const { POST: postWallet } = await import("@/app/api/merchant-wallets/route");
const { createRefundAction } = await import("@/app/(dashboard)/dashboard/orders/[orderId]/actions");

setupTestDatabase();

const refund = (token: string, orderId: string, body: unknown) =>
  call(postRefund, "POST", `/api/payment-orders/${orderId}/refunds/`, { token, params: { orderId }, body });
// The destination is checked before the payer's signature (issue 24 item 6), so any well-formed one will do here.
const anySignature = `0x${"ab".repeat(65)}`;
const leaveAddress = (orderId: string, refund_address: string) =>
  call(postRefundAddress, "POST", `/api/pay/${orderId}/refund-address/`, { params: { orderId }, body: { refund_address, signature: anySignature } });

/** A checksummed address with the case of one letter flipped: a typo EIP-55 catches. */
function wrongChecksum(address: string): string {
  const i = [...address].findIndex((c, n) => n > 1 && /[a-fA-F]/.test(c));
  const c = address[i]!;
  return address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
}

describe("refund destinations", () => {
  test("another order's deposit address (same merchant or another), a payout wallet or a gateway contract is 400 on to_address, from the API and the dashboard", async () => {
    const m = await createMerchant();
    const wallet = await createWallet(m, { blockchain: 2 });
    const order = await createOrder(m, { blockchain: "base", amount: "10", currency: "USDC" });
    const sibling = await createOrder(m, { blockchain: "base", amount: "10", currency: "USDC" });
    const other = await createMerchant();
    await createWallet(other, { blockchain: 3 });
    const foreign = await createOrder(other, { blockchain: "polygon", amount: "1", currency: "USDC" });

    for (const to of [
      sibling.receiving_address,
      sibling.receiving_address.toLowerCase(),
      foreign.receiving_address,
      wallet.wallet_address,
      devnetContracts.factory,
      devnetContracts.USDC,
    ]) {
      const res = await refund(m.access, order.order_id, { to_address: to });
      expect(res.status, to).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { to_address: [expect.stringMatching(/customer's own address/)] } });
    }
    signInAs(m);
    const viaDashboard = await createRefundAction({ orderId: order.order_id, to_address: sibling.receiving_address });
    expect(viaDashboard).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { to_address: [expect.any(String)] } } });
  });

  test("the payment page's refund address refuses deposit addresses and the merchant's wallets", async () => {
    const m = await createMerchant();
    const wallet = await createWallet(m, { blockchain: 2 });
    const order = await createOrder(m, { blockchain: "base", amount: "10", currency: "USDC" });
    const sibling = await createOrder(m, { blockchain: "base", amount: "10", currency: "USDC" });
    for (const to of [sibling.receiving_address, wallet.wallet_address]) {
      const res = await leaveAddress(order.order_id, to);
      expect(res.status, to).toBe(400);
      expect(res.body.error.details.refund_address[0]).toMatch(/customer's own address/);
    }
  });

  test("a mixed-case address with a wrong EIP-55 checksum is refused wherever a person types one", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    const order = await createOrder(m, { blockchain: "base", amount: "10", currency: "USDC" });
    const typo = wrongChecksum(randomAddress());
    expect((await refund(m.access, order.order_id, { to_address: typo })).body.error.details.to_address[0]).toMatch(/checksum/);
    expect((await leaveAddress(order.order_id, typo)).body.error.details.refund_address[0]).toMatch(/checksum/);
    const wallet = await call(postWallet, "POST", "/api/merchant-wallets/", { token: m.access, body: { blockchain: 3, wallet_address: typo } });
    expect(wallet.body.error.details.wallet_address[0]).toMatch(/checksum/);
  });
});
