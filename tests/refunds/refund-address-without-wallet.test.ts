/**
 * Issue 52 item 3: refunds for customers who cannot sign with the paying wallet (paid from an
 * exchange). The customer path: a one-time link mailed to the address given while the payment was
 * due (single use, expiring, stored hashed, this order's only, screened destination, nobody's
 * outbox). The merchant path: a member whose role manages wallets enters it after contact, with a
 * fresh proof and an audit entry; never an API key. Refunds already built keep their address.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { getAddress } from "viem";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { PUT as putReceiptEmail } from "@/app/api/pay/[orderId]/receipt-email/route";
import { POST as postRefundLink } from "@/app/api/pay/[orderId]/refund-link/route";
import { POST as postRefundLinkAddress } from "@/app/api/pay/[orderId]/refund-link/address/route";
import { PUT as putRefundAddress } from "@/app/api/payment-orders/[orderId]/refund-address/route";
import { enterRefundAddressAction } from "@/app/(dashboard)/dashboard/orders/[orderId]/actions";
import { listAuditEntries } from "@/lib/audit/queries";
import { sha256Hex } from "@/lib/auth/hash";
import { mailOutbox, paymentOrders, refundAddressLinks, refunds } from "@/lib/db/schema";
import { listOutboxMessages } from "@/lib/mail/queries";
import { refundAddressLinkTtlMs, setRefundAddressByLink } from "@/lib/receipts/refund-address-link";
import { loadSanctionsList } from "@/lib/screening/load-list";
import { setupTestDatabase } from "../helpers/db";
import { expectMatchesSchema } from "../helpers/openapi";
import { createApiKeyFor, createMerchant, createOrder, createWallet, randomAddress, uniqueName, type TestMerchant } from "../helpers/factories";
import { addMember, invitationTokenFromOutbox } from "../helpers/members";
import { call } from "../helpers/request";
import { signInAs } from "../dashboard/session";
import { codeFor, enrolTotp, useStepClock } from "../api/auth/totp-support";

const testDb = setupTestDatabase();

const sanctionsSample = readFileSync(path.join(__dirname, "../screening/fixtures/sdn-sample.xml"), "utf8");
const sanctioned = "0x00000000000000000000000000000000005eed02";

const ip = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
const giveEmail = (orderId: string, email: string) =>
  call(putReceiptEmail, "PUT", `/api/pay/${orderId}/receipt-email/`, { params: { orderId }, body: { email }, ip: ip() });
const askLink = (orderId: string) => call(postRefundLink, "POST", `/api/pay/${orderId}/refund-link/`, { params: { orderId }, ip: ip() });
const useLink = (orderId: string, token: string, refund_address: string) =>
  call(postRefundLinkAddress, "POST", `/api/pay/${orderId}/refund-link/address/`, { params: { orderId }, body: { token, refund_address }, ip: ip() });
const fetchOrder = async (merchant: Pick<TestMerchant, "access">, orderId: string) => {
  const res = await call(getOrder, "GET", `/api/payment-orders/${orderId}/`, { token: merchant.access, params: { orderId } });
  expect(res.status).toBe(200);
  expectMatchesSchema("GET /api/payment-orders/[orderId]", 200, res.body);
  return res.body.data;
};

/** The token of the last refund-address link mailed to `email` (the outbox holds every mail in the sandbox; it is addressed to nobody). */
async function mailedToken(email: string): Promise<string> {
  const rows = await testDb.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, "refund_address_link")));
  const last = rows.sort((a, b) => b.id - a.id)[0];
  const match = last ? /\/refund-address\?token=([A-Za-z0-9_-]+)/.exec(last.text) : null;
  if (!match) throw new Error(`no refund-address link mailed to ${email}`);
  return match[1]!;
}

/** Money arrived short and the order failed underpaid (what the scanner and expiry would leave): refundable. */
async function underpay(orderId: string) {
  await testDb.db
    .update(paymentOrders)
    .set({ status: "failed", failureReason: "underpaid", amountReceived: "4000000" })
    .where(eq(paymentOrders.orderId, orderId));
}

/** A merchant's USDC order on base whose customer gave `email` while it was due, then underpaid it. */
async function underpaidOrderWithContact(email = `${uniqueName("customer")}@example.com`) {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 2 });
  const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
  expect((await giveEmail(order.order_id, email)).status).toBe(200);
  await underpay(order.order_id);
  return { merchant, order, email };
}

describe("the customer's refund address through a mailed link", () => {
  test("mails a link to the address given while the payment was due; it sets the address once, and the merchant sees how", async () => {
    const { merchant, order, email } = await underpaidOrderWithContact();
    const asked = await askLink(order.order_id);
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expectMatchesSchema("POST /api/pay/[orderId]/refund-link", 200, asked.body);
    expect(asked.body.data.sent_to).toBe(`${email[0]}•••@example.com`);

    const token = await mailedToken(email);
    // Stored hashed: the table holds the SHA-256 of the token, never the token.
    const [stored] = await testDb.db
      .select()
      .from(refundAddressLinks)
      .where(eq(refundAddressLinks.tokenHash, sha256Hex(token)));
    expect(stored).toMatchObject({ email, usedAt: null });
    expect(JSON.stringify(await testDb.db.select().from(refundAddressLinks))).not.toContain(token);
    // The link is the customer's credential: no member's outbox shows it, not even the owner's.
    expect((await listOutboxMessages(testDb.db, merchant.id, 50)).some((m) => m.kind === "refund_address_link")).toBe(false);
    const [mail] = await testDb.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "refund_address_link")).orderBy(mailOutbox.id);
    expect(mail?.recipientUserId).toBeNull();

    const refundTo = randomAddress();
    const saved = await useLink(order.order_id, token, refundTo.toLowerCase());
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expectMatchesSchema("POST /api/pay/[orderId]/refund-link/address", 201, saved.body);
    expect(saved.body.data).toMatchObject({ refund_address: getAddress(refundTo), refund_address_source: "email_link" });
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: getAddress(refundTo),
      refund_address_source: "email_link",
      refund_address_given_by: email,
      refund_address_payer_signed: false,
    });

    // Single use: the same link again is refused, and the address stays.
    const again = await useLink(order.order_id, token, randomAddress());
    expect(again.status).toBe(400);
    expect(again.body.error.details.token).toBeDefined();
    expect((await fetchOrder(merchant, order.order_id)).refund_address).toBe(getAddress(refundTo));
  });

  test("an address given after money arrived gets no link (409), and does not replace the one given before", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    const late = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    await underpay(late.order_id);
    // Someone holding the page's URL gives their own address once the money is there: receipts only.
    expect((await giveEmail(late.order_id, "stranger@example.com")).status).toBe(200);
    const refused = await askLink(late.order_id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("CONFLICT");

    const { order, email } = await underpaidOrderWithContact();
    expect((await giveEmail(order.order_id, "stranger@example.com")).status).toBe(200);
    expect((await askLink(order.order_id)).status).toBe(200);
    await expect(mailedToken("stranger@example.com")).rejects.toThrow();
    expect(await mailedToken(email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("a link works only for its own order, only before it expires, and a new link spends the earlier one", async () => {
    const first = await underpaidOrderWithContact();
    const second = await underpaidOrderWithContact();
    expect((await askLink(first.order.order_id)).status).toBe(200);
    const firstToken = await mailedToken(first.email);

    // Wrong order: another order's link is no link here.
    const wrongOrder = await useLink(second.order.order_id, firstToken, randomAddress());
    expect(wrongOrder.status).toBe(400);
    expect(wrongOrder.body.error.details.token).toBeDefined();
    expect((await fetchOrder(second.merchant, second.order.order_id)).refund_address).toBeNull();

    // Expired: a day later it no longer works.
    await expect(
      setRefundAddressByLink(testDb.db, first.order.order_id, firstToken, randomAddress(), new Date(Date.now() + refundAddressLinkTtlMs + 1000)),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: { token: expect.any(Array) } });

    // A new link: the earlier one is spent.
    expect((await askLink(first.order.order_id)).status).toBe(200);
    const newToken = await mailedToken(first.email);
    expect(newToken).not.toBe(firstToken);
    expect((await useLink(first.order.order_id, firstToken, randomAddress())).status).toBe(400);
    expect((await useLink(first.order.order_id, newToken, randomAddress())).status).toBe(201);

    // At most 3 links an hour per order.
    expect((await askLink(first.order.order_id)).status).toBe(200);
    const limited = await askLink(first.order.order_id);
    expect(limited.status).toBe(429);
  });

  test("only for a refundable order; a made-up token is refused before the address is looked at", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    const order = await createOrder(merchant, { blockchain: "base", amount: "10", currency: "USDC" });
    expect((await giveEmail(order.order_id, "due@example.com")).status).toBe(200);
    const notYet = await askLink(order.order_id);
    expect(notYet.status).toBe(400);
    expect(notYet.body.error.code).toBe("ORDER_NOT_REFUNDABLE");
    const madeUp = await useLink(order.order_id, "x".repeat(43), "0x0000000000000000000000000000000000000000");
    expect(madeUp.status).toBe(400);
    expect(Object.keys(madeUp.body.error.details)).toEqual(["token"]);
  });

  test("the destination is screened like every refund's: a sanctioned or gateway address is refused and the link stays usable", async () => {
    await loadSanctionsList(testDb.db, sanctionsSample);
    const { merchant, order, email } = await underpaidOrderWithContact();
    expect((await askLink(order.order_id)).status).toBe(200);
    const token = await mailedToken(email);
    const listed = await useLink(order.order_id, token, sanctioned);
    expect(listed.status).toBe(400);
    expect(listed.body.error.code).toBe("SANCTIONED_ADDRESS");
    const deposit = await useLink(order.order_id, token, order.receiving_address);
    expect(deposit.status).toBe(400);
    expect(deposit.body.error.details.refund_address).toBeDefined();
    const refundTo = randomAddress();
    expect((await useLink(order.order_id, token, refundTo)).status).toBe(201);
    expect((await fetchOrder(merchant, order.order_id)).refund_address).toBe(getAddress(refundTo));
  });

  test("a new address replaces nothing already sent: a refund built before keeps its to_address", async () => {
    const { merchant, order, email } = await underpaidOrderWithContact();
    const [row] = await testDb.db.select().from(paymentOrders).where(eq(paymentOrders.orderId, order.order_id));
    const earlier = randomAddress();
    await testDb.db.insert(refunds).values({
      paymentOrderId: row!.id,
      merchantId: row!.merchantId,
      blockchainId: row!.blockchainId,
      amount: "1000000",
      currency: "USDC",
      tokenAddress: row!.tokenAddress,
      fromAddress: randomAddress(),
      toAddress: getAddress(earlier),
      status: "confirmed",
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    expect((await askLink(order.order_id)).status).toBe(200);
    const refundTo = randomAddress();
    expect((await useLink(order.order_id, await mailedToken(email), refundTo)).status).toBe(201);
    const json = await fetchOrder(merchant, order.order_id);
    expect(json.refund_address).toBe(getAddress(refundTo));
    expect(json.refunds.map((r: { to_address: string }) => r.to_address)).toEqual([getAddress(earlier)]);
  });
});

describe("a member enters the customer's refund address after contact", () => {
  const enter = (token: string, orderId: string, body: unknown) =>
    call(putRefundAddress, "PUT", `/api/payment-orders/${orderId}/refund-address/`, { token, params: { orderId }, body, ip: ip() });

  test("with a fresh password, recorded in the audit log and on the order", async () => {
    const { merchant, order } = await underpaidOrderWithContact();
    const refundTo = randomAddress();
    const saved = await enter(merchant.access, order.order_id, { refund_address: refundTo, reauth: { password: merchant.password } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expectMatchesSchema("PUT /api/payment-orders/[orderId]/refund-address", 200, saved.body);
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({
      refund_address: getAddress(refundTo),
      refund_address_source: "merchant",
      refund_address_given_by: merchant.username,
    });
    const { rows } = await listAuditEntries(testDb.db, merchant.id, { action: "refund.address_entered" }, { limit: 10, offset: 0 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: merchant.username,
      target: `order:${order.order_id}`,
      before: { refund_address: null, source: null },
      after: { refund_address: getAddress(refundTo), source: "merchant" },
    });
  });

  test("no proof, a wrong password or a missing second factor is 400 and changes nothing", async () => {
    const { merchant, order } = await underpaidOrderWithContact();
    const none = await enter(merchant.access, order.order_id, { refund_address: randomAddress() });
    expect(none.status).toBe(400);
    expect(none.body.error.details.reauth).toBeDefined();
    const wrong = await enter(merchant.access, order.order_id, { refund_address: randomAddress(), reauth: { password: "not the password" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details["reauth.password"]).toBeDefined();

    const { secret } = await enrolTotp(merchant);
    const noCode = await enter(merchant.access, order.order_id, { refund_address: randomAddress(), reauth: { password: merchant.password } });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details["reauth.code"]).toBeDefined();
    expect((await fetchOrder(merchant, order.order_id)).refund_address).toBeNull();
    const refundTo = randomAddress();
    // The enrolment spent this step's code (replay protection): the next step's.
    const clock = useStepClock();
    try {
      const code = codeFor(secret, clock.nextStep());
      const withCode = await enter(merchant.access, order.order_id, { refund_address: refundTo, reauth: { password: merchant.password, code } });
      expect(withCode.status, JSON.stringify(withCode.body)).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect((await listAuditEntries(testDb.db, merchant.id, { action: "refund.address_entered" }, { limit: 10, offset: 0 })).rows).toHaveLength(1);
  });

  test("an API key (even with every permission) and a developer or viewer are 403; the destination is screened", async () => {
    const { merchant, order } = await underpaidOrderWithContact();
    const { key } = await createApiKeyFor(merchant, { preset: "full_access" });
    const byKey = await enter(key, order.order_id, { refund_address: randomAddress(), reauth: { password: merchant.password } });
    expect(byKey.status).toBe(403);
    for (const role of ["developer", "viewer"] as const) {
      const member = await addMember(merchant, role, (email) => invitationTokenFromOutbox(testDb.db, email));
      const refused = await enter(member.access, order.order_id, { refund_address: randomAddress(), reauth: { password: member.password } });
      expect(refused.status, role).toBe(403);
    }
    const admin = await addMember(merchant, "admin", (email) => invitationTokenFromOutbox(testDb.db, email));
    await loadSanctionsList(testDb.db, sanctionsSample);
    const listed = await enter(admin.access, order.order_id, { refund_address: sanctioned, reauth: { password: admin.password } });
    expect(listed.status).toBe(400);
    expect(listed.body.error.code).toBe("SANCTIONED_ADDRESS");
    const refundTo = randomAddress();
    expect((await enter(admin.access, order.order_id, { refund_address: refundTo, reauth: { password: admin.password } })).status).toBe(200);
    expect(await fetchOrder(merchant, order.order_id)).toMatchObject({ refund_address: getAddress(refundTo), refund_address_given_by: admin.username });

    // Not refundable (still due): 400 ORDER_NOT_REFUNDABLE.
    const pending = await createOrder(merchant, { blockchain: "base", amount: "1", currency: "USDC" });
    const early = await enter(merchant.access, pending.order_id, { refund_address: randomAddress(), reauth: { password: merchant.password } });
    expect(early.body.error?.code).toBe("ORDER_NOT_REFUNDABLE");
  });

  test("the dashboard's form: the same rule, the password again, owners and admins only", async () => {
    const { merchant, order } = await underpaidOrderWithContact();
    signInAs(merchant);
    const noPassword = await enterRefundAddressAction({ orderId: order.order_id, refund_address: randomAddress() });
    expect(noPassword).toMatchObject({ ok: false, error: { details: { password: expect.any(Array) } } });
    const refundTo = randomAddress();
    expect(await enterRefundAddressAction({ orderId: order.order_id, refund_address: refundTo, password: merchant.password })).toMatchObject({
      ok: true,
      data: { refund_address: getAddress(refundTo) },
    });
    signInAs(merchant, { accountId: merchant.id, role: "developer" });
    expect(await enterRefundAddressAction({ orderId: order.order_id, refund_address: randomAddress(), password: merchant.password })).toMatchObject({
      ok: false,
      error: { code: "INSUFFICIENT_PERMISSIONS" },
    });
    signInAs(null);
  });
});

describe("malformed requests to the new routes", () => {
  test("bad JSON, bad shapes, bad values and unknown or numeric order ids are 4xx in the error envelope, never 5xx", async () => {
    const { merchant, order } = await underpaidOrderWithContact();
    const badBodies = [
      "{",
      "[]",
      "null",
      '"x"',
      "{}",
      JSON.stringify({ token: 5, refund_address: "0x12" }),
      JSON.stringify({ refund_address: randomAddress(), reauth: "pw" }),
    ];
    const ids = [order.order_id, "ORD-nosuchorder", "1", "%00", "x".repeat(300)];
    for (const orderId of ids) {
      const answers = [
        // The order's own id with no body is a valid request (tested above); an unknown one is 404.
        ...(orderId === order.order_id ? [] : [await call(postRefundLink, "POST", `/api/pay/${orderId}/refund-link/`, { params: { orderId }, ip: ip() })]),
        ...(await Promise.all(
          badBodies.map((rawBody) =>
            call(postRefundLinkAddress, "POST", `/api/pay/${orderId}/refund-link/address/`, { params: { orderId }, rawBody, ip: ip() }),
          ),
        )),
        ...(await Promise.all(
          badBodies.map((rawBody) =>
            call(putRefundAddress, "PUT", `/api/payment-orders/${orderId}/refund-address/`, { token: merchant.access, params: { orderId }, rawBody, ip: ip() }),
          ),
        )),
      ];
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
        expect(answer.body).toMatchObject({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
      }
    }
  });
});
