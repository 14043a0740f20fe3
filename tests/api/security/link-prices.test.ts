/** Issue 24 item 9: a payment link refuses prices that every one of its orders would refuse. */
import { describe, expect, test } from "vitest";
import { POST as postLink } from "@/app/api/payment-links/route";
import { setupTestDatabase } from "../../helpers/db";
import { createMerchant, createWallet } from "../../helpers/factories";
import { call } from "../../helpers/request";

setupTestDatabase();

describe("POST /api/payment-links/ prices", () => {
  test("a fiat currency the option's chain has no feed for is 400 UNSUPPORTED_PRICE_CURRENCY", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    for (const currency of ["GBP", "CHF", "JPY"]) {
      const res = await call(postLink, "POST", "/api/payment-links/", {
        token: m.access,
        body: { title: "T", price_amount: "10", price_currency: currency, options: [{ blockchain: "base", currency: "USDC" }] },
      });
      expect(res.status, currency).toBe(400);
      expect(res.body.error.code).toBe("UNSUPPORTED_PRICE_CURRENCY");
    }
    const eur = await call(postLink, "POST", "/api/payment-links/", {
      token: m.access,
      body: { title: "T", price_amount: "10", price_currency: "EUR", options: [{ blockchain: "base", currency: "USDC" }] },
    });
    expect(eur.status).toBe(201);
  });

  test("amount × max_quantity beyond what an order can hold is 400 INVALID_AMOUNT, as the order would be", async () => {
    const m = await createMerchant();
    await createWallet(m, { blockchain: 2 });
    const huge = `1${"0".repeat(70)}`; // 10^76 base units of USDC: one fits, two do not
    const one = await call(postLink, "POST", "/api/payment-links/", {
      token: m.access,
      body: { title: "T", amount: huge, options: [{ blockchain: "base", currency: "USDC" }] },
    });
    expect(one.status).toBe(201);
    const many = await call(postLink, "POST", "/api/payment-links/", {
      token: m.access,
      body: { title: "T", amount: huge, max_quantity: 20, options: [{ blockchain: "base", currency: "USDC" }] },
    });
    expect(many.status).toBe(400);
    expect(many.body.error).toMatchObject({ code: "INVALID_AMOUNT" });
  });
});
