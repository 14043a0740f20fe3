/** The wording of a subscription's customer mail (lib/mail/templates.ts): each names the store, the plan and carries the manage link. */
import { describe, expect, test } from "vitest";
import { subscriptionAuthorizedMail, subscriptionCanceledMail, subscriptionPastDueMail, subscriptionReceiptMail } from "@/lib/mail/templates";

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
      price: "10.00 EUR",
      period: 2,
      periodStart: new Date("2026-03-01T00:00:00Z"),
      periodEnd: new Date("2026-03-31T00:00:00Z"),
      txHash: "0xabc",
      chargedAt: new Date("2026-03-01T00:05:00Z"),
    });
    expect(mail.subject).toBe("Receipt from Ada's shop: 10.87 USDC for Club <monthly>");
    expect(mail.text).toContain("charged 10.87 USDC (10.00 EUR) on Base for Club <monthly>, period 3 (2026-03-01 to 2026-03-31)");
    expect(mail.text).toContain("Transaction: 0xabc");
    expect(mail.text).toContain(facts.manageUrl);
    // The html escapes what the merchant named and links the manage page.
    expect(mail.html).toContain("Club &lt;monthly&gt;");
    expect(mail.html).toContain(`<a href="${facts.manageUrl}">`);
  });

  test("every notice carries the manage link; a cancel says who canceled", () => {
    expect(subscriptionAuthorizedMail("S", { ...facts, firstChargeAt: new Date("2026-03-08T00:00:00Z") }).text).toMatch(
      /at most 12 USDC on Base every 30 days .* from 2026-03-08/,
    );
    expect(subscriptionPastDueMail("S", facts).text).toContain(facts.manageUrl);
    expect(subscriptionCanceledMail("S", { ...facts, by: "you" }).text).toContain("canceled as you asked");
    expect(subscriptionCanceledMail("S", { ...facts, by: "store" }).text).toContain("canceled by S");
    expect(subscriptionCanceledMail("S", { ...facts, by: "unpaid" }).text).toContain(facts.manageUrl);
  });
});
