/** A payment link refuses at save a price every one of its orders would refuse (no feed, too large at max_quantity, past uint256). */
import { describe, expect, test } from "vitest";
import { POST as postLink } from "@/app/api/payment-links/route";
import { POST as postLinkOrder } from "@/app/api/links/[linkId]/orders/route";
import { setupTestDatabase } from "../../helpers/db";
import { setupTestDevnet } from "../../helpers/devnet";
import { createMerchant, createWallet, type TestMerchant } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();
setupTestDevnet();

describe("(c) a payment link refuses at save a price every one of its orders would refuse", () => {
  const save = (merchant: TestMerchant, body: Record<string, unknown>) =>
    call(postLink, "POST", "/api/payment-links/", { token: merchant.access, body: { title: "Ticket", max_quantity: 1, ...body } });

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
    const ordered = await call(postLinkOrder, "POST", `/api/links/${linkId}/orders/`, {
      params: { linkId },
      body: { blockchain: "base", currency: "USDC", quantity: 3 },
      ip: "203.0.113.9",
    });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
  });
});
