/** Issue 24 item 3: strangers cannot fill a merchant's account with orders through a payment link. */
import { afterEach, describe, expect, test } from "vitest";
import { POST as postLinkOrder } from "@/app/api/links/[linkId]/orders/route";
import { POST as postLink } from "@/app/api/payment-links/route";
import { GET as listOrders } from "@/app/api/payment-orders/route";
import { env } from "@/lib/env";
import { clientLimitSubject } from "@/lib/http/client-address";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

const saved = { ...env };
afterEach(() => {
  env.LINK_OPEN_ORDERS_PER_LINK = saved.LINK_OPEN_ORDERS_PER_LINK;
  env.LINK_OPEN_ORDERS_PER_MERCHANT = saved.LINK_OPEN_ORDERS_PER_MERCHANT;
  env.RATE_LIMIT_STANDARD_PER_HOUR = saved.RATE_LIMIT_STANDARD_PER_HOUR;
});

async function shopWithLink(): Promise<{ m: TestMerchant; linkId: string; newLink: () => Promise<string> }> {
  const m = await createMerchant();
  await createWallet(m, { blockchain: 2 });
  const newLink = async () => {
    const res = await call(postLink, "POST", "/api/payment-links/", {
      token: m.access,
      body: { title: "Beans", amount: "24", options: [{ blockchain: "base", currency: "USDC" }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  return { m, linkId: await newLink(), newLink };
}

const linkOrder = (linkId: string, ip: string) =>
  call(postLinkOrder, "POST", `/api/links/${linkId}/orders/`, { params: { linkId }, body: { blockchain: "base", currency: "USDC" }, ip });

describe("per-client limit on IPv6", () => {
  test("addresses of one /64 share one quota", () => {
    expect(clientLimitSubject("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientLimitSubject("2001:0db8:0001:0002:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(clientLimitSubject("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientLimitSubject("198.51.100.7")).toBe("198.51.100.7");
  });

  test("the 61st link order from a /64 is 429, whatever the address inside it", async () => {
    env.LINK_OPEN_ORDERS_PER_LINK = 1000;
    env.LINK_OPEN_ORDERS_PER_MERCHANT = 1000;
    const { linkId } = await shopWithLink();
    for (let i = 1; i <= 60; i++) {
      const res = await linkOrder(linkId, `2001:db8:77:1::${i.toString(16)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const next = await linkOrder(linkId, "2001:db8:77:1:ffff::1");
    expect(next.status).toBe(429);
    expect(next.body.error.code).toBe("RATE_LIMITED");
  }, 120_000);
});

describe("open link orders are capped per link and per merchant", () => {
  test("past the caps a link answers 429, from any address", async () => {
    env.LINK_OPEN_ORDERS_PER_LINK = 3;
    env.LINK_OPEN_ORDERS_PER_MERCHANT = 5;
    const { m, linkId, newLink } = await shopWithLink();
    for (let i = 1; i <= 3; i++) expect((await linkOrder(linkId, `198.51.100.${i}`)).status).toBe(201);
    expect((await linkOrder(linkId, "198.51.100.99")).status).toBe(429);
    const second = await newLink();
    for (let i = 1; i <= 2; i++) expect((await linkOrder(second, `198.51.101.${i}`)).status).toBe(201);
    expect((await linkOrder(second, "198.51.101.99")).status).toBe(429);
    // The merchant's own API orders are not link orders and are not capped by this.
    const list = await call(listOrders, "GET", "/api/payment-orders/", { token: m.access, query: { status: "pending" } });
    expect(list.body.count).toBe(5);
  });
});

describe("the caps hold when the orders come all at once (issue 49 item 5)", () => {
  test("100 link orders at once from 100 addresses: 3 are made on the link, then the merchant's cap of 5 holds across links", async () => {
    env.LINK_OPEN_ORDERS_PER_LINK = 3;
    env.LINK_OPEN_ORDERS_PER_MERCHANT = 5;
    const { m, linkId, newLink } = await shopWithLink();
    const tally = (answers: { status: number }[]) =>
      answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});
    const first = await Promise.all(Array.from({ length: 100 }, (_, i) => linkOrder(linkId, `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`)));
    expect(tally(first)).toEqual({ 201: 3, 429: 97 });
    const links = [await newLink(), await newLink()];
    const second = await Promise.all(Array.from({ length: 100 }, (_, i) => linkOrder(links[i % 2]!, `198.18.10.${i + 1}`)));
    expect(tally(second)).toEqual({ 201: 2, 429: 98 });
    const list = await call(listOrders, "GET", "/api/payment-orders/", { token: m.access, query: { status: "pending" } });
    expect(list.body.count).toBe(5);
  }, 120_000);
});

describe("link orders count toward the merchant's rate limit", () => {
  test("orders made by strangers use the merchant's hourly requests; at the limit the link answers 429", async () => {
    const { m, linkId } = await shopWithLink();
    const before = await call(listOrders, "GET", "/api/payment-orders/", { token: m.access });
    const remaining = Number(before.headers.get("x-ratelimit-remaining"));
    for (let i = 1; i <= 3; i++) expect((await linkOrder(linkId, `203.0.113.${i}`)).status).toBe(201);
    const after = await call(listOrders, "GET", "/api/payment-orders/", { token: m.access });
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 4);

    env.RATE_LIMIT_STANDARD_PER_HOUR = Number(after.headers.get("x-ratelimit-limit")) - Number(after.headers.get("x-ratelimit-remaining"));
    const refused = await linkOrder(linkId, "203.0.113.50");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
  });
});
