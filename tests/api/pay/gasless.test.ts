import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { formatEther, getAddress, parseUnits, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { GET as getPublicOrder } from "@/app/api/pay/[orderId]/route";
import { POST as relayGasless } from "@/app/api/pay/[orderId]/gasless/route";
import { findToken } from "@/lib/chains/catalog";
import { chainClient } from "@/lib/chains/clients";
import { movementsCsvStream } from "@/lib/dashboard/movements-csv";
import { loadOrderDetail } from "@/lib/dashboard/order-detail";
import { gaslessRelays } from "@/lib/db/schema";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { env } from "@/lib/env";
import { relayGasTotals } from "@/lib/gasless/queries";
import { transferAuthorizationTypedData } from "@/lib/gasless/typed-data";
import { mineBlocks, sendFromFaucet } from "@/lib/sandbox/devnet-tools";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createOrder, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await createMerchant({ shop_name: "Gasless Shop" });
  await createWallet(merchant, { blockchain: 2, confirmation_threshold: 2 });
});

const saved = {
  budget: env.GASLESS_GAS_PER_MERCHANT_PER_HOUR,
  ceiling: env.GASLESS_MAX_FEE_GWEI,
  minimum: env.GASLESS_MIN_ORDER_USD,
  share: env.GASLESS_MAX_COST_SHARE,
};
// These tests are about the authorization and the merchant's budget, on orders of a few USDC: the rule on
// what is worth relaying (a few dollars at the devnet's 1 gwei) has its own tests (gasless-limits.test.ts).
beforeEach(() => {
  env.GASLESS_MIN_ORDER_USD = 0;
  env.GASLESS_MAX_COST_SHARE = 1;
});
afterEach(() => {
  env.GASLESS_GAS_PER_MERCHANT_PER_HOUR = saved.budget;
  env.GASLESS_MAX_FEE_GWEI = saved.ceiling;
  env.GASLESS_MIN_ORDER_USD = saved.minimum;
  env.GASLESS_MAX_COST_SHARE = saved.share;
});

const chain = () => net.chain("base");
const usdc = () => findToken(chain(), "USDC")!;
const tick = () => watchChainTick(testDb.db, chain(), chainClient(chain()));

async function view(orderId: string) {
  await tick();
  const res = await call(getPublicOrder, "GET", `/api/pay/${orderId}/`, { params: { orderId } });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A customer wallet holding `units` of USDC and no ETH at all. */
async function customerWithUsdc(units: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await sendFromFaucet(chain(), usdc(), account.address, units);
  return account;
}

type Customer = Awaited<ReturnType<typeof customerWithUsdc>>;

/** What the payment page does: sign TransferWithAuthorization for the order as its public view describes it. */
async function signFor(
  customer: Customer,
  orderId: string,
  change: Partial<{ to: Address; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }> = {},
) {
  const order = await view(orderId);
  expect(order.gasless, "the order offers gasless").not.toBeNull();
  const message = {
    from: customer.address,
    to: getAddress(order.receiving_address),
    value: parseUnits(order.amount_missing, order.token.decimals),
    validAfter: BigInt(order.gasless.valid_after),
    validBefore: BigInt(order.gasless.valid_before),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
    ...change,
  };
  const domain = {
    name: order.gasless.name,
    version: order.gasless.version,
    chainId: order.blockchain.chain_id,
    verifyingContract: getAddress(order.token.address),
  };
  const signature = await customer.signTypedData(transferAuthorizationTypedData(domain, message));
  return {
    from: message.from,
    to: message.to as string,
    value: message.value.toString(),
    valid_after: Number(message.validAfter),
    valid_before: Number(message.validBefore),
    nonce: message.nonce,
    signature,
  };
}

function relay(orderId: string, body: unknown, ip = "198.51.100.30") {
  return call(relayGasless, "POST", `/api/pay/${orderId}/gasless/`, { params: { orderId }, body, ip });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const relaysOf = (paymentOrderId: number) => testDb.db.select().from(gaslessRelays).where(eq(gaslessRelays.paymentOrderId, paymentOrderId));

describe("POST /api/pay/{order_id}/gasless/", () => {
  test("a relayed authorization pays the order: detected like any transfer, confirmed, its gas recorded; the customer spent no ETH", async () => {
    const order = await createOrder(merchant, { amount: "12.5", currency: "USDC" });
    const customer = await customerWithUsdc(20_000_000n);
    const body = await signFor(customer, order.order_id);

    const res = await relay(order.order_id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: "mined" });
    expect(res.body.data.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const seen = await view(order.order_id);
    expect(seen).toMatchObject({ status: "processing", amount_received: "12.5", transaction_hash: res.body.data.transaction_hash });
    expect(seen.gasless).toBeNull();
    await mineBlocks(chain(), 2);
    const confirmed = await until(
      () => view(order.order_id),
      (o) => o.status === "confirmed",
    );
    expect(confirmed.status).toBe("confirmed");

    const client = chainClient(chain());
    expect(formatEther(await client.getBalance({ address: customer.address }))).toBe("0");
    const [recorded] = await relaysOf(order.id);
    expect(recorded).toMatchObject({ status: "mined", txHash: res.body.data.transaction_hash, fromAddress: customer.address.toLowerCase(), value: "12500000" });
    const receipt = await client.getTransactionReceipt({ hash: res.body.data.transaction_hash });
    expect(recorded!.gasUsed).toBe(receipt.gasUsed);
    expect(recorded!.costWei).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());
    // The merchant's order view lists it; no other merchant sees the order.
    const detail = await loadOrderDetail(testDb.db, merchant.id, order.order_id);
    expect(detail?.relays.map((r) => r.txHash)).toEqual([res.body.data.transaction_hash]);
    const stranger = await createMerchant({ shop_name: "Stranger" });
    expect(await loadOrderDetail(testDb.db, stranger.id, order.order_id)).toBeNull();

    // The month's relay gas on the overview, and the payment's row of the accounting export carries the relay's cost.
    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const totals = await relayGasTotals(testDb.db, merchant.id, monthStart, new Date(Date.now() + 60_000));
    expect(totals).toContainEqual(expect.objectContaining({ blockchainId: chain().id, gasUsed: receipt.gasUsed }));
    expect(await relayGasTotals(testDb.db, stranger.id, monthStart, new Date(Date.now() + 60_000))).toEqual([]);
    // Any range holding the devnet block's time (the devnet's clock may run ahead of ours).
    const csv = await new Response(movementsCsvStream(testDb.db, merchant.id, { from: new Date(0), to: new Date("2100-01-01T00:00:00Z") })).text();
    const paymentRow = csv.split("\n").find((line) => line.includes(res.body.data.transaction_hash) && line.includes(",payment,"));
    expect(paymentRow, csv).toContain(`,${formatEther(receipt.gasUsed * receipt.effectiveGasPrice)},ETH`);
  });

  test("a replay is refused: by our record, and by the token's nonce state when ours is gone", async () => {
    const order = await createOrder(merchant, { amount: "3", currency: "USDC" });
    const customer = await customerWithUsdc(10_000_000n);
    const body = await signFor(customer, order.order_id);
    expect((await relay(order.order_id, body)).status).toBe(201);

    const again = await relay(order.order_id, body);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("AUTHORIZATION_USED");

    // The same authorization for a second order for the same amount: bound to the first order's address.
    const second = await createOrder(merchant, { amount: "3", currency: "USDC" });
    const elsewhere = await relay(second.order_id, { ...body, to: second.receiving_address });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.code).toBe("INVALID_AUTHORIZATION");

    // Without our record, the chain still knows the nonce.
    await testDb.db.delete(gaslessRelays).where(eq(gaslessRelays.paymentOrderId, order.id));
    const onChain = await relay(second.order_id, await signFor(customer, second.order_id, { nonce: body.nonce as Hex }));
    expect(onChain.status).toBe(409);
    expect(onChain.body.error.code).toBe("AUTHORIZATION_USED");
  });

  test("wrong order, wrong amount and expired authorizations are refused with the field named; nothing is sent", async () => {
    const order = await createOrder(merchant, { amount: "5", currency: "USDC" });
    const other = await createOrder(merchant, { amount: "5", currency: "USDC" });
    const customer = await customerWithUsdc(50_000_000n);

    // Signed for the other order's address, posted here as it was signed. Valid until this order's expiry, which
    // is within the other's life too: when the other was made a second later, its own expiry is past this one's,
    // and the window would be refused before the signature is looked at.
    const forOther = await signFor(customer, other.order_id, { validBefore: BigInt((await view(order.order_id)).gasless.valid_before) });
    const wrongTo = await relay(order.order_id, forOther);
    expect(wrongTo.status).toBe(400);
    expect(wrongTo.body.error).toMatchObject({ code: "INVALID_AUTHORIZATION", details: { to: [expect.stringMatching(/deposit address/)] } });
    // ... or with `to` rewritten to this order's address: the signature no longer matches.
    const rewritten = await relay(order.order_id, { ...forOther, to: order.receiving_address });
    expect(rewritten.status).toBe(400);
    expect(Object.keys(rewritten.body.error.details)).toEqual(["signature"]);

    const tooLittle = await relay(order.order_id, await signFor(customer, order.order_id, { value: 4_000_000n }));
    expect(tooLittle.status).toBe(400);
    expect(tooLittle.body.error.details.value[0]).toMatch(/exactly the amount due now: 5 USDC/);
    const signedLess = await signFor(customer, order.order_id, { value: 1_000_000n });
    const claimedRight = await relay(order.order_id, { ...signedLess, value: "5000000" });
    expect(claimedRight.status).toBe(400);
    expect(Object.keys(claimedRight.body.error.details)).toEqual(["signature"]);

    const now = BigInt(Math.floor(Date.now() / 1000));
    const expired = await relay(order.order_id, await signFor(customer, order.order_id, { validBefore: now - 1n }));
    expect(expired.status).toBe(400);
    expect(expired.body.error.details.valid_before[0]).toMatch(/expired/);
    const outlivesOrder = await relay(order.order_id, await signFor(customer, order.order_id, { validBefore: now + 365n * 86_400n }));
    expect(outlivesOrder.status).toBe(400);
    expect(outlivesOrder.body.error.details.valid_before[0]).toMatch(/within the order's life/);
    const beforeOrder = await relay(order.order_id, await signFor(customer, order.order_id, { validAfter: 0n }));
    expect(beforeOrder.status).toBe(400);
    expect(beforeOrder.body.error.details.valid_after[0]).toMatch(/within the order's life/);

    const malformed = await relay(order.order_id, { ...forOther, signature: "0x1234", nonce: "7" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("VALIDATION_ERROR");
    expect(Object.keys(malformed.body.error.details).sort()).toEqual(["nonce", "signature"]);

    expect(await relaysOf(order.id)).toEqual([]);
    expect((await view(order.order_id)).amount_received).toBe("0");
  });

  test("the merchant's hourly relay gas cap: refused with retry_after once reached", async () => {
    env.GASLESS_GAS_PER_MERCHANT_PER_HOUR = 150_000;
    const capped = await createMerchant({ shop_name: "Capped Shop" });
    await createWallet(capped, { blockchain: 2, confirmation_threshold: 2 });
    const customer = await customerWithUsdc(10_000_000n);
    const first = await createOrder(capped, { amount: "1", currency: "USDC" });
    expect((await relay(first.order_id, await signFor(customer, first.order_id))).status).toBe(201);

    const second = await createOrder(capped, { amount: "1", currency: "USDC" });
    const refused = await relay(second.order_id, await signFor(customer, second.order_id));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RELAY_BUDGET_EXHAUSTED");
    expect(refused.body.retry_after).toBeGreaterThan(3000);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.retry_after));
    expect(await relaysOf(second.id)).toEqual([]);
    // Another merchant's budget is its own.
    const other = await createMerchant({ shop_name: "Other Shop" });
    await createWallet(other, { blockchain: 2, confirmation_threshold: 2 });
    const elsewhere = await createOrder(other, { amount: "1", currency: "USDC" });
    expect((await relay(elsewhere.order_id, await signFor(customer, elsewhere.order_id))).status).toBe(201);
  });

  test("above the gas-price ceiling the page offers no relay and nothing is sent", async () => {
    const order = await createOrder(merchant, { amount: "2", currency: "USDC" });
    const customer = await customerWithUsdc(2_000_000n);
    const signed = await signFor(customer, order.order_id);
    env.GASLESS_MAX_FEE_GWEI = 0.000000001; // 1 wei
    expect((await view(order.order_id)).gasless).toBeNull();
    const res = await relay(order.order_id, signed);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("GAS_PRICE_TOO_HIGH");
    expect(await relaysOf(order.id)).toEqual([]);
    expect((await view(order.order_id)).amount_received).toBe("0");
  });

  test("only tokens with EIP-3009 are offered and accepted", async () => {
    const order = await createOrder(merchant, { amount: "0.01", currency: "ETH" });
    expect((await view(order.order_id)).gasless).toBeNull();
    const usdcOrder = await createOrder(merchant, { amount: "1", currency: "USDC" });
    expect((await view(usdcOrder.order_id)).gasless).toEqual({
      name: "USD Coin",
      version: "2",
      valid_after: Math.floor(Date.parse(usdcOrder.created_at) / 1000) - 600,
      valid_before: Math.floor(Date.parse(usdcOrder.expires_at) / 1000),
    });
    const customer = await customerWithUsdc(1_000_000n);
    const body = await signFor(customer, usdcOrder.order_id);
    const res = await relay(order.order_id, { ...body, to: order.receiving_address });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("UNSUPPORTED_CURRENCY");
    expect((await relay("ORD-unknown0000000000", body)).status).toBe(404);
  });
});
