import { describe, expect, test } from "vitest";
import { checkoutView as checkoutViewIn, itemLine, type CheckoutOrder } from "@/lib/orders/checkout-view";
import { wordsFor } from "../../helpers/translate";

const english = wordsFor("checkout");
const checkoutView = (order: CheckoutOrder) => checkoutViewIn(order, english);

const to = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const usdc = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

const usdcOrder = (overrides: Partial<CheckoutOrder> = {}): CheckoutOrder => ({
  status: "pending",
  failure_reason: null,
  amount: "20",
  amount_received: "0",
  amount_missing: "20",
  currency: "USDC",
  token: { symbol: "USDC", address: usdc, decimals: 6 },
  blockchain: {
    slug: "base",
    name: "Base",
    chain_id: 8453,
    native_currency: { symbol: "ETH", name: "Ether", decimals: 18 },
    rpc_url: null,
    explorer_url: null,
  },
  receiving_address: to,
  price_amount: null,
  price_currency: null,
  shop_name: "Lighthouse Books",
  redirect_url: null,
  refund_address_allowed: false,
  order_id: "ORD-test123",
  not_counted: [],
  payment_reversed: false,
  ...overrides,
});

const ethOrder = (overrides: Partial<CheckoutOrder> = {}): CheckoutOrder =>
  usdcOrder({
    amount: "0.003177077686318523",
    amount_missing: "0.003177077686318523",
    currency: "ETH",
    token: { symbol: "ETH", address: null, decimals: 18 },
    ...overrides,
  });

describe("checkoutView: an open order asks for what is still due, everywhere", () => {
  test("nothing paid yet: the whole amount, its QR/wallet URI and no progress", () => {
    const view = checkoutView(usdcOrder());
    expect(view.panel).toBe("pay");
    expect(view.headline).toBe("Pay 20 USDC");
    expect(view.due).toMatchObject({ exact: "20", display: "20", baseUnits: 20_000_000n });
    expect(view.due!.paymentUri).toBe(`ethereum:${usdc}@8453/transfer?address=${to}&uint256=20000000`);
    expect(view.progress).toBeNull();
    expect(view.result).toBeNull();
  });

  test("5 of 20 USDC paid: headline, Copy value and QR/wallet URI all ask for the remaining 15", () => {
    const view = checkoutView(usdcOrder({ amount_received: "5", amount_missing: "15" }));
    expect(view.headline).toBe("Pay the remaining 15 USDC");
    expect(view.due!.exact).toBe("15");
    expect(view.due!.paymentUri).toBe(`ethereum:${usdc}@8453/transfer?address=${to}&uint256=15000000`);
    expect(view.progress).toEqual({ received: "5", total: "20", percent: 25 });
  });

  test("ETH: the headline reads six significant digits, Copy and the URI keep every wei", () => {
    const view = checkoutView(ethOrder());
    expect(view.headline).toBe("Pay 0.00317708 ETH");
    expect(view.due!.exact).toBe("0.003177077686318523");
    expect(view.due!.paymentUri).toBe(`ethereum:${to}@8453?value=3177077686318523`);
  });

  test("a fiat-priced order leads with its price, then the token amount", () => {
    const view = checkoutView(ethOrder({ price_amount: "10.00", price_currency: "EUR" }));
    expect(view.headline).toBe("Pay €10.00");
    expect(view.subline).toBe("0.00317708 ETH on Base");
    // Once part of it arrived, what is left is asked for in the token (the rate is the token's).
    expect(
      checkoutView(ethOrder({ price_amount: "10.00", price_currency: "EUR", amount_received: "0.001", amount_missing: "0.002177077686318523" })).headline,
    ).toBe("Pay the remaining 0.00217708 ETH");
  });

  test("everything arrived but the order is not moved on yet: nothing is asked for", () => {
    const view = checkoutView(usdcOrder({ amount_received: "20", amount_missing: "0" }));
    expect(view.panel).toBe("processing");
    expect(view.due).toBeNull();
  });
});

describe("checkoutView: a settled order shows a result, never a payable address", () => {
  const settled: Array<[string, Partial<CheckoutOrder>, RegExp]> = [
    ["confirmed", { status: "confirmed", amount_received: "20", amount_missing: "0" }, /Payment confirmed/],
    ["expired", { status: "expired" }, /expired/],
    ["underpaid", { status: "failed", failure_reason: "underpaid", amount_received: "5", amount_missing: "15", refund_address_allowed: true }, /incomplete/],
    ["late", { status: "failed", failure_reason: "late_payment", amount_received: "20", amount_missing: "0", refund_address_allowed: true }, /too late/],
    ["reverted", { status: "failed", failure_reason: "reverted" }, /failed/],
  ];
  test.each(settled)("%s: the result panel replaces QR, address and wallet", (_name, overrides, title) => {
    const view = checkoutView(usdcOrder(overrides));
    expect(view.panel).toBe("result");
    expect(view.due).toBeNull();
    expect(view.result!.title).toMatch(title);
    expect(view.headline).not.toMatch(/^Pay /);
  });

  test("confirmed: 'Paid', and the way back to the shop through redirect_url", () => {
    const view = checkoutView(
      usdcOrder({ status: "confirmed", amount: "7.25", amount_received: "7.25", amount_missing: "0", redirect_url: "https://shop.example/thanks" }),
    );
    expect(view.headline).toBe("Paid 7.25 USDC");
    expect(view.result!.returnTo).toEqual({ url: "https://shop.example/thanks", label: "Return to Lighthouse Books" });
    expect(checkoutView(usdcOrder({ status: "confirmed", amount_missing: "0" })).result!.returnTo).toBeNull();
  });

  test("expired with a redirect_url: the way back to the shop is a link (issue 52)", () => {
    const view = checkoutView(usdcOrder({ status: "expired", redirect_url: "https://shop.example/cart" }));
    expect(view.result!.returnTo).toEqual({ url: "https://shop.example/cart", label: "Return to Lighthouse Books" });
    expect(checkoutView(usdcOrder({ status: "expired" })).result!.returnTo).toBeNull();
  });

  test("expired, failed: do not send funds now, and what to do next", () => {
    for (const overrides of [{ status: "expired" }, { status: "failed", failure_reason: "reverted" }] as const) {
      const lines = checkoutView(usdcOrder(overrides)).result!.lines.join(" ");
      expect(lines).toContain("Do not send funds to this address now.");
      expect(lines).toContain("Go back to Lighthouse Books and start a new payment.");
    }
  });

  test("late and underpaid payments: the merchant sees the money and can refund it", () => {
    const late = checkoutView(usdcOrder({ status: "failed", failure_reason: "late_payment", refund_address_allowed: true })).result!.lines.join(" ");
    expect(late).toContain("Lighthouse Books sees this payment on the order and can refund it: leave the address to refund to below.");
    const underpaid = checkoutView(usdcOrder({ status: "failed", failure_reason: "underpaid", amount_received: "5", amount_missing: "15" })).result!.lines.join(
      " ",
    );
    expect(underpaid).toContain("Only 5 USDC of 20 USDC arrived before the deadline.");
    expect(underpaid).toContain("can refund it.");
  });

  test("a shop without a name is 'the shop'", () => {
    expect(checkoutView(usdcOrder({ status: "expired", shop_name: "" })).result!.lines.join(" ")).toContain("Go back to the shop");
  });
});

describe("checkoutView: what was bought, and the receipt", () => {
  test("a link's order names its item, with the quantity past one", () => {
    expect(itemLine({ name: "Espresso beans 1 kg", quantity: 3 })).toBe("Espresso beans 1 kg × 3");
    expect(itemLine({ name: "Ticket", quantity: 1 })).toBe("Ticket");
  });

  test("only a confirmed order links to its receipt", () => {
    expect(checkoutView(usdcOrder({ status: "confirmed", amount_received: "20", amount_missing: "0" })).result!.receipt).toBe("/pay/ORD-test123/receipt");
    expect(checkoutView(usdcOrder({ status: "expired" })).result!.receipt).toBeNull();
    expect(checkoutView(usdcOrder({ status: "failed", failure_reason: "underpaid", amount_received: "5", amount_missing: "15" })).result!.receipt).toBeNull();
  });
});

describe("checkoutView: money that did not pay the order, and a reversed payment (issue 52)", () => {
  const hash = `0x${"ab".repeat(32)}`;
  const uncounted = (reason: "after_expiry" | "wrong_asset" | "reorged", amount: string, currency = "USDC") => ({
    transaction_hash: hash,
    transaction_url: `https://scan.example/tx/${hash}`,
    amount,
    currency,
    reason,
  });

  test("a late payment says what arrived and what happens next, and links its transaction", () => {
    const view = checkoutView(
      usdcOrder({ status: "failed", failure_reason: "late_payment", refund_address_allowed: true, not_counted: [uncounted("after_expiry", "20")] }),
    );
    expect(view.result!.title).toBe("Payment arrived too late");
    expect(view.result!.lines).toEqual([
      "20 USDC arrived after the payment window had closed, so it does not pay this order.",
      "Do not send funds to this address now. Lighthouse Books sees this payment on the order and can refund it: leave the address to refund to below.",
    ]);
    expect(view.notice).toEqual({ tone: "info", lines: [], transactions: [{ hash, url: `https://scan.example/tx/${hash}` }] });
  });

  test("another token: on an open order a notice beside what is still due; on an expired one the result", () => {
    const open = checkoutView(usdcOrder({ not_counted: [uncounted("wrong_asset", "1", "USDT")] }));
    expect(open.panel).toBe("pay");
    expect(open.due!.exact).toBe("20");
    expect(open.notice!.lines).toEqual([
      "1 USDT arrived, but this order is paid in USDC: it does not count toward the order.",
      "Lighthouse Books sees it on the order and can send it back. To pay the order, send USDC.",
    ]);
    const expired = checkoutView(usdcOrder({ status: "expired", not_counted: [uncounted("wrong_asset", "1", "USDT")] }));
    expect(expired.result!.title).toBe("A different token arrived");
    expect(expired.result!.lines[0]).toBe("1 USDT arrived, but this order is paid in USDC: it does not count toward the order.");
  });

  test("a reversed payment: pending again asks again and says why; confirmed no longer reads paid", () => {
    const pending = checkoutView(usdcOrder({ payment_reversed: true, not_counted: [uncounted("reorged", "20")] }));
    expect(pending.panel).toBe("pay");
    expect(pending.notice!.tone).toBe("bad");
    expect(pending.notice!.lines[0]).toContain("The network reversed this payment; waiting for it again.");
    const confirmed = checkoutView(usdcOrder({ status: "confirmed", amount_missing: "0", payment_reversed: true, not_counted: [uncounted("reorged", "20")] }));
    expect(confirmed.headline).toBe("The network reversed this payment");
    expect(confirmed.result).toMatchObject({ tone: "bad", receipt: null });
    expect(confirmed.result!.lines.join(" ")).not.toContain("Thank you");
  });
});

describe("checkoutView: in the customer's language", () => {
  test("German words and German number formatting, same amounts for Copy and the QR code", () => {
    const view = checkoutViewIn(usdcOrder({ amount: "1234.5", amount_missing: "1234.5" }), wordsFor("checkout", "de"), "de");
    expect(view.headline).toBe("1.234,5 USDC bezahlen");
    expect(view.subline).toBe("auf Base");
    expect(view.due!.exact).toBe("1234.5");
  });

  test("a fiat price is written the locale's way (Japanese: ￥ and no decimals; French: 10,00 €)", () => {
    const priced = ethOrder({ price_amount: "10.00", price_currency: "EUR" });
    expect(checkoutViewIn(priced, wordsFor("checkout", "fr"), "fr").headline).toBe("Payer 10,00\u00a0€");
    expect(checkoutViewIn(ethOrder({ price_amount: "1500", price_currency: "JPY" }), wordsFor("checkout", "ja"), "ja").headline).toBe("￥1,500 を支払う");
  });

  test("a settled order's result panel is translated too", () => {
    const view = checkoutViewIn(usdcOrder({ status: "expired", shop_name: "" }), wordsFor("checkout", "es"), "es");
    expect(view.result!.title).toBe("Esta solicitud de pago ha caducado");
    expect(view.result!.lines.join(" ")).toContain("Vuelva a la tienda");
  });
});
