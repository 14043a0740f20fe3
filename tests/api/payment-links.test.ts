import { describe, expect, test } from "vitest";
import { GET as listLinks, POST as postLink } from "@/app/api/payment-links/route";
import { DELETE as deleteLink, GET as getLink, PUT as putLink } from "@/app/api/payment-links/[id]/route";
import { GET as getPublicLink } from "@/app/api/links/[linkId]/route";
import { PUT as putWallet } from "@/app/api/merchant-wallets/[id]/route";
import { POST as postLinkOrder } from "@/app/api/links/[linkId]/orders/route";
import { GET as getOrder } from "@/app/api/payment-orders/[orderId]/route";
import { POST as sandboxPay } from "@/app/api/sandbox/payment-orders/[orderId]/pay/route";
import { POST as sandboxMine } from "@/app/api/sandbox/mine/route";
import { chainClient } from "@/lib/chains/clients";
import { watchChainTick } from "@/lib/engine/chain-tick";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createApiKeyFor, createMerchant, createWallet, type TestMerchant } from "../helpers/factories";
import { inOneRateWindow } from "../helpers/rate-window";
import { call, type Handler } from "../helpers/request";

const testDb = setupTestDatabase();
const net = setupTestDevnet();

const tokenLink = {
  title: "Espresso beans 1 kg",
  amount: "24",
  options: [
    { blockchain: "base", currency: "usdc" },
    { blockchain: "polygon", currency: "USDC" },
  ],
  max_quantity: 5,
};
const fiatLink = {
  title: "Ticket",
  price_amount: "49.00",
  price_currency: "EUR",
  options: [
    { blockchain: "base", currency: "ETH" },
    { blockchain: "base", currency: "USDC" },
  ],
  max_quantity: 10,
};

async function newLink(merchant: TestMerchant, body: Record<string, unknown>) {
  const res = await call(postLink, "POST", "/api/payment-links/", { token: merchant.access, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const order = (linkId: string, body: Record<string, unknown>, ip = "203.0.113.7") =>
  call(postLinkOrder, "POST", `/api/links/${linkId}/orders/`, { params: { linkId }, body, ip });

describe("payment links (merchant API)", () => {
  test("POST, GET, list, PUT and DELETE /api/payment-links/, scoped to the merchant", async () => {
    const alice = await createMerchant();
    const bob = await createMerchant();
    await createWallet(alice, { blockchain: 2 });
    await createWallet(alice, { blockchain: 3 });
    const link = await newLink(alice, tokenLink);
    expect(link).toMatchObject({
      id: expect.stringMatching(/^LNK-/),
      title: "Espresso beans 1 kg",
      amount: "24",
      price_amount: null,
      options: [
        { blockchain: "base", currency: "USDC" },
        { blockchain: "polygon", currency: "USDC" },
      ],
      max_quantity: 5,
      is_active: true,
      url: expect.stringMatching(new RegExp(`/link/${link.id}$`)),
    });
    const params = { id: link.id };
    expect((await call(getLink, "GET", `/api/payment-links/${link.id}/`, { token: alice.access, params })).body.data).toEqual(link);
    expect((await call(getLink, "GET", `/api/payment-links/${link.id}/`, { token: bob.access, params })).status).toBe(404);
    const list = await call(listLinks, "GET", "/api/payment-links/", { token: alice.access });
    expect(list.body).toMatchObject({ count: 1, results: [link] });
    expect((await call(listLinks, "GET", "/api/payment-links/", { token: bob.access })).body.count).toBe(0);

    const put = await call(putLink, "PUT", `/api/payment-links/${link.id}/`, {
      token: alice.access,
      params,
      body: { ...tokenLink, title: "Beans", is_active: false },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ title: "Beans", is_active: false });
    // inactive: customers see 404
    expect((await call(getPublicLink, "GET", `/api/links/${link.id}/`, { params: { linkId: link.id } })).status).toBe(404);
    expect((await call(deleteLink, "DELETE", `/api/payment-links/${link.id}/`, { token: bob.access, params })).status).toBe(404);
    expect((await call(deleteLink, "DELETE", `/api/payment-links/${link.id}/`, { token: alice.access, params })).status).toBe(200);
    expect((await call(getLink, "GET", `/api/payment-links/${link.id}/`, { token: alice.access, params })).status).toBe(404);
  });

  test("bad links get clear 400s; a read-only key may list but not create", async () => {
    const m = await createMerchant();
    const bad = async (body: Record<string, unknown>) => (await call(postLink, "POST", "/api/payment-links/", { token: m.access, body })).body.error;
    expect(await bad({ ...tokenLink, price_amount: "5", price_currency: "USD" })).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(
      await bad({
        ...tokenLink,
        options: [
          { blockchain: "base", currency: "USDC" },
          { blockchain: "base", currency: "ETH" },
        ],
      }),
    ).toMatchObject({ code: "VALIDATION_ERROR", details: { options: [expect.any(String)] } });
    expect(await bad({ ...tokenLink, options: [{ blockchain: "solana", currency: "SOL" }] })).toMatchObject({ code: "INVALID_BLOCKCHAIN" });
    expect(await bad({ ...tokenLink, options: [{ blockchain: "base", currency: "DOGE" }] })).toMatchObject({ code: "UNSUPPORTED_CURRENCY" });
    expect(await bad({ ...tokenLink, amount: "1.1234567" })).toMatchObject({ code: "INVALID_AMOUNT" });
    expect(await bad({ ...fiatLink, price_currency: "XAU" })).toMatchObject({ code: "UNSUPPORTED_PRICE_CURRENCY" });
    expect(await bad({ ...tokenLink, options: [] })).toMatchObject({ code: "VALIDATION_ERROR" });
    const { key } = await createApiKeyFor(m, { preset: "read_only" });
    expect((await call(listLinks, "GET", "/api/payment-links/", { token: key })).status).toBe(200);
    expect((await call(postLink, "POST", "/api/payment-links/", { token: key, body: tokenLink })).status).toBe(403);
  });
});

describe("a link offers only chains the merchant has an active wallet on (issue 27)", () => {
  test("POST and PUT refuse an option without a wallet with 400 WALLET_NOT_CONFIGURED naming it; a closed link saves as it is", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    await createWallet(m, { blockchain: 3, is_active: false });
    const refused = await call(postLink, "POST", "/api/payment-links/", { token: m.access, body: tokenLink });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error: { code: "WALLET_NOT_CONFIGURED", message: expect.stringContaining("polygon") } });
    expect(refused.body.error.message).toContain("options[1]");
    expect((await call(listLinks, "GET", "/api/payment-links/", { token: m.access })).body.count).toBe(0);

    const baseOnly = await newLink(m, { ...tokenLink, options: [{ blockchain: "base", currency: "USDC" }] });
    const params = { id: baseOnly.id };
    const put = await call(putLink, "PUT", `/api/payment-links/${baseOnly.id}/`, { token: m.access, params, body: tokenLink });
    expect(put.status).toBe(400);
    expect(put.body.error.code).toBe("WALLET_NOT_CONFIGURED");
    expect((await call(getLink, "GET", "/", { token: m.access, params })).body.data.options).toEqual([{ blockchain: "base", currency: "USDC" }]);
    // Closing a link never needs a wallet.
    const closed = await call(putLink, "PUT", `/api/payment-links/${baseOnly.id}/`, { token: m.access, params, body: { ...tokenLink, is_active: false } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data).toMatchObject({ is_active: false, options: tokenLink.options.map((o) => ({ ...o, currency: "USDC" })) });
  });

  test("another merchant's wallet does not count", async () => {
    const owner = await createMerchant();
    const other = await createMerchant();
    await createWallet(other, { blockchain: 2 });
    const res = await call(postLink, "POST", "/api/payment-links/", {
      token: owner.access,
      body: { ...tokenLink, options: [{ blockchain: "base", currency: "USDC" }] },
    });
    expect(res.body.error?.code).toBe("WALLET_NOT_CONFIGURED");
  });
});

describe("payment links (customer)", () => {
  test("the public view, then a fresh order per customer with a gateway nonce, price × quantity", async () => {
    const m = await createMerchant({ shop_name: "Bean Shop" });
    await createWallet(m, { blockchain: 2 });
    const polygonWallet = await createWallet(m, { blockchain: 3 });
    const link = await newLink(m, tokenLink);
    const view = await call(getPublicLink, "GET", `/api/links/${link.id}/`, { params: { linkId: link.id } });
    expect(view.status).toBe(200);
    expect(view.body.data).toEqual({
      id: link.id,
      title: tokenLink.title,
      amount: "24",
      price_amount: null,
      price_currency: null,
      options: link.options,
      max_quantity: 5,
      shop_name: "Bean Shop",
    });

    const first = await order(link.id, { blockchain: "base", currency: "USDC", quantity: 3 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({
      order_id: expect.stringMatching(/^ORD-/),
      amount: "72",
      currency: "USDC",
      blockchain: "base",
      payment_url: expect.stringContaining(`/pay/${first.body.data.order_id}`),
    });
    const second = await order(link.id, { blockchain: "base", currency: "USDC" });
    expect(second.body.data.amount).toBe("24");
    const a = (await call(getOrder, "GET", "/", { token: m.access, params: { orderId: first.body.data.order_id } })).body.data;
    const b = (await call(getOrder, "GET", "/", { token: m.access, params: { orderId: second.body.data.order_id } })).body.data;
    expect(a.nonce).not.toBe(b.nonce);
    expect(JSON.parse(a.order_info)).toEqual({ payment_link: link.id, title: tokenLink.title, quantity: 3 });

    expect((await order(link.id, { blockchain: "base", currency: "ETH" })).body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { currency: [expect.any(String)] },
    });
    expect((await order(link.id, { blockchain: "base", currency: "USDC", quantity: 6 })).body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { quantity: ["At most 5."] },
    });
    // polygon is offered, then the merchant switches its wallet there off: the page stops offering it, and an order for it is refused
    expect((await call(putWallet, "PUT", "/", { token: m.access, params: { id: String(polygonWallet.id) }, body: { is_active: false } })).status).toBe(200);
    const after = await call(getPublicLink, "GET", `/api/links/${link.id}/`, { params: { linkId: link.id } });
    expect(after.body.data.options).toEqual([{ blockchain: "base", currency: "USDC" }]);
    expect((await order(link.id, { blockchain: "polygon", currency: "USDC" })).body.error.code).toBe("WALLET_NOT_CONFIGURED");
    expect((await order("LNK-nope", { blockchain: "base", currency: "USDC" })).status).toBe(404);
  });

  test("a fiat-priced link's order is converted at the feed rate and confirms when paid on the devnet", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2, confirmation_threshold: 2 });
    const link = await newLink(m, fiatLink);
    const res = await order(link.id, { blockchain: "base", currency: "USDC", quantity: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const orderId = res.body.data.order_id;
    const seen = (await call(getOrder, "GET", "/", { token: m.access, params: { orderId } })).body.data;
    // 98.00 EUR × 1.0842 / 0.9998 USDC, rounded up
    expect(seen).toMatchObject({ price_amount: "98.00", price_currency: "EUR", amount: "106.272855", currency: "USDC" });

    expect((await call(sandboxPay, "POST", "/", { token: m.access, params: { orderId }, body: {} })).status).toBe(201);
    const tick = () => watchChainTick(testDb.db, net.chain("base"), chainClient(net.chain("base")));
    await tick();
    expect((await call(sandboxMine, "POST", "/", { token: m.access, body: { blocks: 1 } })).status).toBe(200);
    await tick();
    expect((await call(getOrder, "GET", "/", { token: m.access, params: { orderId } })).body.data.status).toBe("confirmed");
  });

  test("public link endpoints are rate-limited per client address", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    await createWallet(m, { blockchain: 3 });
    // Two links, so neither reaches its own cap of pending orders (LINK_OPEN_ORDERS_PER_LINK): the client's count is the route's.
    const links = [await newLink(m, tokenLink), await newLink(m, tokenLink)];
    const last = await inOneRateWindow(async () => {
      let status = 0;
      for (let i = 0; i < 61; i++) status = (await order(links[i % 2]!.id, { blockchain: "base", currency: "USDC" }, "198.51.100.9")).status;
      return status;
    });
    expect(last).toBe(429);
    // another client is not affected
    expect((await order(links[0]!.id, { blockchain: "base", currency: "USDC" }, "198.51.100.10")).status).toBe(201);
  });
});

describe("malformed input never gives a 5xx", () => {
  test("every field of the new write bodies with every bad value answers 4xx", async () => {
    const { POST: postOrder } = await import("@/app/api/payment-orders/route");
    const { PUT: putAccount } = await import("@/app/api/account/route");
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    await createWallet(m, { blockchain: 3 });
    const link = await newLink(m, tokenLink);
    const badValues: unknown[] = [
      null,
      "",
      " ",
      -1,
      0,
      1.5,
      1e308,
      "1e3",
      "-5",
      "abc",
      true,
      [],
      {},
      [1],
      { a: 1 },
      "x".repeat(5000),
      "0x",
      "%00",
      "NaN",
      "Infinity",
    ];
    const routes: Array<[Handler, string, string, Record<string, unknown>, Record<string, string>, boolean]> = [
      [postLink, "POST", "/api/payment-links/", tokenLink, {}, true],
      [postLink, "POST", "/api/payment-links/", fiatLink, {}, true],
      [putLink, "PUT", `/api/payment-links/${link.id}/`, tokenLink, { id: link.id }, true],
      [postLinkOrder, "POST", `/api/links/${link.id}/orders/`, { blockchain: "base", currency: "USDC", quantity: 1 }, { linkId: link.id }, false],
      [
        postOrder,
        "POST",
        "/api/payment-orders/",
        { price_amount: "5.00", price_currency: "USD", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 5 },
        {},
        true,
      ],
      [putAccount, "PUT", "/api/account/", { payment_tolerance_bps: 10 }, {}, true],
    ];
    let i = 0;
    for (const [handler, method, path, body, params, auth] of routes) {
      for (const field of Object.keys(body)) {
        for (const value of badValues) {
          const res = await call(handler, method, path, {
            token: auth ? m.access : undefined,
            params,
            body: { ...body, [field]: value },
            ip: `192.0.2.${(i++ % 250) + 1}`,
          });
          expect(res.status, `${method} ${path} ${field}=${JSON.stringify(value)?.slice(0, 40)} → ${JSON.stringify(res.body).slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
  });
});
