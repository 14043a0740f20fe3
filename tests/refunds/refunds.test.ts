/**
 * Refunds end to end on the real devnet: an order paid (sandbox pay tool) and swept to a merchant
 * wallet whose key the test holds, a refund built by the API, signed and sent by that wallet, then
 * detected by the scanner (requested → pending → confirmed) with refund.created / refund.confirmed
 * events; plus the refusals (order state, amounts, another merchant's order) and the payment page's
 * refund address.
 */
import { describe, expect, test } from "vitest";
import { parseAbi, type Address, type Hex } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { GET as listRefunds, POST as postRefund } from "@/app/api/payment-orders/[orderId]/refunds/route";
import { POST as refundAddress } from "@/app/api/pay/[orderId]/refund-address/route";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { GET as listEvents } from "@/app/api/events/route";
import { devnetContracts } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { devnetAccounts } from "@/lib/chains/devnet";
import { sweepConfirmedDeposits } from "@/lib/chains/sweeper";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { expectMatchesSchema } from "../helpers/openapi";
import { createApiKeyFor, createMerchant, createOrder, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "../dashboard/session";
import { createRefundAction } from "@/app/(dashboard)/dashboard/orders/[orderId]/actions";
import { loadOrderDetail } from "@/lib/dashboard/order-detail";
import { devnetFaucet } from "@/lib/chains/sandbox-devnet";
import { refundAddressMessage } from "@/lib/refunds/refund-address-message";
import { getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const base = () => net.chain("base");
const client = () => chainClient(base());
const tick = () => watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true });
const erc20 = parseAbi(["function balanceOf(address) view returns (uint256)", "function transfer(address,uint256) returns (bool)"]);

/** The merchant's payout wallet: a devnet account whose key the test holds (0–2 are the gateway's own). */
const merchantKey = devnetAccounts[7];

const fetchOrder = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  expectMatchesSchema("GET /api/payment-orders/[orderId]", 200, res.body);
  return res.body.data;
};
const refund = (token: string, orderId: string, body: unknown) =>
  call(postRefund, "POST", `/api/payment-orders/${orderId}/refunds/`, { token, params: { orderId }, body });
const pay = async (merchant: TestMerchant, orderId: string, body: Record<string, string> = {}) => {
  const res = await call(sandboxPay, "POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { token: merchant.access, params: { orderId }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};
const eventsOf = async (merchant: TestMerchant, orderId: string) => {
  const res = await call(listEvents, "GET", "/api/events/", { token: merchant.access, query: { order_id: orderId } });
  return (res.body.results as { event: string; sequence: number }[]).sort((a, b) => a.sequence - b.sequence).map((e) => `${e.sequence}:${e.event}`);
};
/** The sandbox pay tool pays from the faucet: its signature is the payer's (issue 24 item 6). */
const signedByPayer = async (orderId: string, address: string, key: Hex = devnetFaucet.privateKey) => ({
  refund_address: address,
  signature: await privateKeyToAccount(key).signMessage({ message: refundAddressMessage(orderId, getAddress(address)) }),
});
const usdcOf = (address: string) => client().readContract({ address: devnetContracts.USDC, abi: erc20, functionName: "balanceOf", args: [address as Address] });

/** A paid (overpaid: 12 of 10 USDC), confirmed and swept order of a merchant whose wallet is `merchantKey`. */
async function paidOrder() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 2 });
  const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
  await pay(merchant, order.order_id, { amount: "12" });
  await tick();
  await net.testClient().mine({ blocks: 1 });
  await tick();
  expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed", amount_received: "12", refunds: [], refund_address: null });
  const swept = await sweepConfirmedDeposits(testDb.db, base(), client());
  expect(swept.swept).toContain(order.order_id);
  return { merchant, order };
}

describe("refunds", () => {
  test("POST /api/payment-orders/{id}/refunds/ builds the transfer; the merchant's wallet signs it; the scanner confirms it (refund.created, refund.confirmed)", async () => {
    const { merchant, order } = await paidOrder();
    const customer = randomAddress();
    const walletBefore = await usdcOf(merchantKey.address);

    const created = await refund(merchant.access, order.order_id, { overpaid_only: true, to_address: customer, reason: "overpaid" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectMatchesSchema("POST /api/payment-orders/[orderId]/refunds", 201, created.body);
    const r = created.body.data;
    expect(r).toMatchObject({
      order_id: order.order_id,
      amount: "2",
      amount_base_units: "2000000",
      currency: "USDC",
      status: "requested",
      from_address: merchantKey.address,
      to_address: customer,
      transaction_hash: null,
    });
    expect(r.transaction).toMatchObject({ from: merchantKey.address, to: devnetContracts.USDC, value: "0", chainId: base().chainId });
    expect(r.transaction.data).toMatch(/^0xa9059cbb/); // transfer(address,uint256)

    // The merchant sends a different amount to the customer: not this refund.
    const wallet = net.wallet(merchantKey.privateKey as Hex);
    await wallet.writeContract({ address: devnetContracts.USDC, abi: erc20, functionName: "transfer", args: [customer as Address, 1_999_999n] });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).refunds[0]).toMatchObject({ id: r.id, status: "requested" });

    // The built transaction, signed by the merchant's own wallet.
    const hash = await wallet.sendTransaction({ to: r.transaction.to, data: r.transaction.data, value: BigInt(r.transaction.value) });
    await tick();
    const seen = await fetchOrder(merchant, order.order_id);
    expect(seen.refunds).toEqual([expect.objectContaining({ id: r.id, status: "pending", transaction_hash: hash })]);
    await net.testClient().mine({ blocks: 1 });
    await tick();
    const done = await fetchOrder(merchant, order.order_id);
    expect(done.refunds).toEqual([
      expect.objectContaining({ id: r.id, status: "confirmed", transaction_hash: hash, amount: "2", confirmed_at: expect.any(String) }),
    ]);
    expect(await usdcOf(customer)).toBe(1_999_999n + 2_000_000n);
    expect(await usdcOf(merchantKey.address)).toBe(walletBefore - 1_999_999n - 2_000_000n);
    // Events keep the per-order sequence after the payment's.
    expect(await eventsOf(merchant, order.order_id)).toEqual(["1:payment.pending", "2:payment.confirmed", "3:refund.created", "4:refund.confirmed"]);

    // The list endpoint; what is left (12 − 2 = 10) and not a unit more.
    const listed = await call(listRefunds, "GET", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: merchant.access,
      params: { orderId: order.order_id },
    });
    expect(listed.status).toBe(200);
    expectMatchesSchema("GET /api/payment-orders/[orderId]/refunds", 200, listed.body);
    expect(listed.body.data.map((x: { status: string }) => x.status)).toEqual(["confirmed"]);
    const tooMuch = await refund(merchant.access, order.order_id, { amount: "10.000001", to_address: customer });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
    expectMatchesSchema("POST /api/payment-orders/[orderId]/refunds", 400, tooMuch.body);
    const rest = await refund(merchant.access, order.order_id, { to_address: customer });
    expect(rest.status).toBe(201);
    expect(rest.body.data.amount).toBe("10");
    const nothing = await refund(merchant.access, order.order_id, { amount: "0.000001", to_address: customer });
    expect(nothing.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
  });

  test("a native-coin refund is a plain transfer of exact wei, matched the same way", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "0.5", currency: "ETH" });
    await pay(merchant, order.order_id);
    await tick();
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "confirmed" });
    const customer = randomAddress();
    const created = await refund(merchant.access, order.order_id, { amount: "0.123456789012345678", to_address: customer });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const tx = created.body.data.transaction;
    expect(tx).toMatchObject({ to: customer, data: "0x", value: "123456789012345678" });
    const wallet = net.wallet(merchantKey.privateKey as Hex);
    await wallet.sendTransaction({ to: customer as Address, value: 123456789012345677n }); // one wei short: no match
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).refunds[0].status).toBe("requested");
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
    await tick();
    expect((await fetchOrder(merchant, order.order_id)).refunds[0]).toMatchObject({ status: "confirmed", transaction_hash: hash });
  });

  test("an underpaid (failed) order refunds what arrived; the customer can leave a refund address for it", async () => {
    const latest = await client().getBlock({ blockTag: "latest" });
    const expiresAt = new Date(Math.max(Date.now(), Number(latest.timestamp) * 1000 + 1000) + 30_000);
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2, wallet_address: merchantKey.address, confirmation_threshold: 1 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "5", currency: "USDC", expires_at: expiresAt.toISOString() });
    await pay(merchant, order.order_id, { amount: "2" });
    await watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true });
    await watchChainTick(testDb.db, base(), client(), { checkInternalDeposits: true, now: () => new Date(expiresAt.getTime() + 1_000) });
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ status: "failed", failure_reason: "underpaid", amount_received: "2" });
    const customer = randomAddress();
    const left = await call(refundAddress, "POST", `/api/pay/${order.order_id}/refund-address/`, {
      params: { orderId: order.order_id },
      body: await signedByPayer(order.order_id, customer),
      ip: "203.0.113.8",
    });
    expect(left.status).toBe(201);
    const overpaidOnly = await refund(merchant.access, order.order_id, { overpaid_only: true, to_address: customer });
    expect(overpaidOnly.body.error.code).toBe("ORDER_NOT_REFUNDABLE");
    const all = await refund(merchant.access, order.order_id, { to_address: customer });
    expect(all.status).toBe(201);
    expect(all.body.data).toMatchObject({ amount: "2", amount_base_units: "2000000", status: "requested" });
  });

  test("refusals: an unpaid order, bad input, another merchant's order, a read-only key", async () => {
    const { merchant, order } = await paidOrder();
    const customer = randomAddress();

    const open = await createOrder(merchant, { blockchain: "base", amount: "1", currency: "USDC" });
    const notPaid = await refund(merchant.access, open.order_id, { to_address: customer });
    expect(notPaid.status).toBe(400);
    expect(notPaid.body.error.code).toBe("ORDER_NOT_REFUNDABLE");

    const badAddress = await refund(merchant.access, order.order_id, { to_address: "0x123" });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { to_address: expect.any(Array) } });
    const ownWallet = await refund(merchant.access, order.order_id, { to_address: merchantKey.address });
    expect(ownWallet.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { to_address: expect.any(Array) } });
    const deposit = await refund(merchant.access, order.order_id, { to_address: order.receiving_address });
    expect(deposit.body.error.code).toBe("VALIDATION_ERROR");
    const both = await refund(merchant.access, order.order_id, { amount: "1", overpaid_only: true, to_address: customer });
    expect(both.body.error.code).toBe("VALIDATION_ERROR");
    const tooPrecise = await refund(merchant.access, order.order_id, { amount: "0.0000001", to_address: customer });
    expect(tooPrecise.body.error.code).toBe("INVALID_AMOUNT");
    const tooMuch = await refund(merchant.access, order.order_id, { amount: "12.000001", to_address: customer });
    expect(tooMuch.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");

    // Security: another merchant sees no such order; a read-only key may list but not refund.
    const other = await createMerchant();
    const foreign = await refund(other.access, order.order_id, { to_address: customer });
    expect(foreign.status).toBe(404);
    const foreignList = await call(listRefunds, "GET", `/api/payment-orders/${order.order_id}/refunds/`, {
      token: other.access,
      params: { orderId: order.order_id },
    });
    expect(foreignList.status).toBe(404);
    const readOnly = await createApiKeyFor(merchant, { preset: "read_only" });
    expect((await refund(readOnly.key, order.order_id, { to_address: customer })).status).toBe(403);
    const noCredential = await call(postRefund, "POST", `/api/payment-orders/${order.order_id}/refunds/`, {
      params: { orderId: order.order_id },
      body: { to_address: customer },
    });
    expect(noCredential.status).toBe(401);
    // Nothing was created by any of it.
    expect((await fetchOrder(merchant, order.order_id)).refunds).toEqual([]);
  });

  test("the payment page takes a refund address signed by the payer for an overpaid order, never for an open one; the merchant sees it", async () => {
    const { merchant, order } = await paidOrder();
    const customer = randomAddress();
    const open = await createOrder(merchant, { blockchain: "base", amount: "1", currency: "USDC" });
    const post = async (orderId: string, address: string, key?: Hex) =>
      call(refundAddress, "POST", `/api/pay/${orderId}/refund-address/`, {
        params: { orderId },
        body: await signedByPayer(orderId, address, key),
        ip: "203.0.113.7",
      });

    const publicOpen = await call(getPublicOrder, "GET", `/api/pay/${open.order_id}/`, { params: { orderId: open.order_id } });
    expect(publicOpen.body.data).toMatchObject({ refund_address_allowed: false, refund_address: null });
    const refused = await post(open.order_id, customer);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("ORDER_NOT_REFUNDABLE");

    expect((await call(getPublicOrder, "GET", `/api/pay/${order.order_id}/`, { params: { orderId: order.order_id } })).body.data.refund_address_allowed).toBe(
      true,
    );
    const saved = await post(order.order_id, customer.toLowerCase());
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expectMatchesSchema("POST /api/pay/[orderId]/refund-address", 201, saved.body);
    expect(saved.body.data).toMatchObject({ order_id: order.order_id, refund_address: customer });
    const notThePayer = await post(order.order_id, randomAddress(), devnetAccounts[8].privateKey);
    expect(notThePayer.status).toBe(400);
    expect(notThePayer.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { signature: [expect.any(String)] } });
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: customer,
      refund_address_payer_signed: true,
      refund_address_signed_by: devnetFaucet.address,
    });
    expect((await post("ORD-doesnotexist", customer)).status).toBe(404);

    // The dashboard: the order page shows the customer's address, and its form refunds through the same use-case.
    const detail = await loadOrderDetail(testDb.db, merchant.id, order.order_id);
    expect(detail?.order.refundAddress).toBe(customer);
    signInAs(merchant);
    const made = await createRefundAction({ orderId: order.order_id, to_address: customer, overpaid_only: true });
    expect(made).toEqual({
      ok: true,
      data: { id: expect.any(Number), amount: "2", transaction: expect.objectContaining({ from: merchantKey.address, chainId: base().chainId }) },
    });
    expect((await loadOrderDetail(testDb.db, merchant.id, order.order_id))?.refunds).toEqual([
      expect.objectContaining({ amount: "2", status: "requested", to_address: customer }),
    ]);
    const other = await createMerchant();
    signInAs(other);
    expect(await createRefundAction({ orderId: order.order_id, to_address: customer })).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    signInAs(null);
  });

  test("malformed refund requests are 400 in the error envelope, never 5xx", async () => {
    const { merchant, order } = await paidOrder();
    const to = randomAddress();
    const bodies: unknown[] = [
      [],
      "x",
      null,
      5,
      {},
      { to_address: 5 },
      { to_address: to, amount: 1 },
      { to_address: to, amount: "-1" },
      { to_address: to, amount: "1e3" },
      { to_address: to, amount: "9".repeat(100) },
      { to_address: to, overpaid_only: "yes" },
      { to_address: to, reason: "a".repeat(501) },
      { to_address: `${to} ` + "x" },
    ];
    for (const body of bodies) {
      const res = await refund(merchant.access, order.order_id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: expect.stringMatching(/^(VALIDATION_ERROR|INVALID_AMOUNT|REFUND_EXCEEDS_REFUNDABLE)$/) },
      });
    }
    expect((await fetchOrder(merchant, order.order_id)).refunds).toEqual([]);
  });

  test("POST /api/pay/{id}/refund-address/ is limited per client address", async () => {
    const ip = "203.0.113.99";
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (
        await call(refundAddress, "POST", "/api/pay/ORD-nosuchorder/refund-address/", {
          params: { orderId: "ORD-nosuchorder" },
          body: { refund_address: randomAddress() },
          ip,
        })
      ).status;
    }
    expect(last).toBe(429);
  });
});
