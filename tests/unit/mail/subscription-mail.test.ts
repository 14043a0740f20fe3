/** The wording of a subscription's customer mail (lib/mail/customer-templates.ts): each names the store, the plan and carries the manage link. */
import { describe, expect, test } from "vitest";
import { subscriptionAuthorizedMail, subscriptionCanceledMail, subscriptionPastDueMail, subscriptionReceiptMail } from "@/lib/mail/customer-templates";

const facts = {
  subscriptionId: "SUB-abcdefghijklmnop",
  planName: "Club <monthly>",
  maxAmount: "12",
  currency: "USDC",
  network: "Base",
  intervalDays: 30,
  manageUrl: "https://pay.example/subscribe/manage/SUB-abcdefghijklmnop.sig",
};

describe("subscription mail to the customer", () => {
  test("a fiat plan's receipt names the price it was converted from, the period's dates and the transaction", () => {
    const mail = subscriptionReceiptMail("Ada's shop", {
      ...facts,
      amount: "10.87",
      price: { amount: "10.00", currency: "EUR" },
      period: 2,
      periodStart: new Date("2026-03-01T00:00:00Z"),
      periodEnd: new Date("2026-03-31T00:00:00Z"),
      txHash: "0xabc",
      chargedAt: new Date("2026-03-01T00:05:00Z"),
    });
    expect(mail.subject).toBe("Receipt from Ada's shop: 10.87 USDC for Club <monthly>");
    expect(mail.text).toContain("charged 10.87 USDC (€10.00) on Base for Club <monthly>, period 3 (March 1, 2026 to March 31, 2026)");
    expect(mail.text).toContain("Transaction: 0xabc");
    expect(mail.text).toContain(facts.manageUrl);
    // The html escapes what the merchant named and links the manage page.
    expect(mail.html).toContain("Club &lt;monthly&gt;");
    expect(mail.html).toContain(`<a href="${facts.manageUrl}">`);
  });

  test("every notice carries the manage link; a cancel says who canceled", () => {
    expect(subscriptionAuthorizedMail("S", { ...facts, firstChargeAt: new Date("2026-03-08T00:00:00Z") }).text).toMatch(
      /at most 12 USDC on Base every 30 days .* from March 8, 2026/,
    );
    expect(subscriptionPastDueMail("S", facts).text).toContain(facts.manageUrl);
    expect(subscriptionCanceledMail("S", { ...facts, by: "you" }).text).toContain("canceled as you asked");
    expect(subscriptionCanceledMail("S", { ...facts, by: "store" }).text).toContain("canceled by S");
    expect(subscriptionCanceledMail("S", { ...facts, by: "unpaid" }).text).toContain(facts.manageUrl);
  });

  test("in the customer's language: the same facts, the locale's dates, amounts and plural", () => {
    const receipt = {
      ...facts,
      maxAmount: "1234.5",
      amount: "1234.5",
      price: { amount: "1000.00", currency: "EUR" },
      period: 0,
      periodStart: new Date("2026-03-01T00:00:00Z"),
      periodEnd: new Date("2026-03-31T00:00:00Z"),
      txHash: null,
      chargedAt: new Date("2026-03-01T00:05:00Z"),
    };
    const de = subscriptionReceiptMail("Adas Laden", receipt, "de");
    expect(de.subject).toBe("Beleg von Adas Laden: 1.234,5 USDC für Club <monthly>");
    expect(de.text).toContain("hat 1.234,5 USDC (1.000,00\u00a0€) auf Base für Club <monthly> abgebucht, Zeitraum 1 (1. März 2026 bis 31. März 2026)");
    expect(de.html).toContain('<html lang="de">');
    expect(subscriptionAuthorizedMail("S", { ...facts, intervalDays: 1, firstChargeAt: new Date("2026-03-08T00:00:00Z") }, "de").text).toContain("jeden Tag");
    const ja = subscriptionAuthorizedMail("S", { ...facts, firstChargeAt: new Date("2026-03-08T00:00:00Z") }, "ja");
    expect(ja.text).toContain("30 日ごとに最大 12 USDC");
    expect(ja.text).toContain("2026年3月8日");
    expect(ja.text).toContain(facts.manageUrl);
  });
});
