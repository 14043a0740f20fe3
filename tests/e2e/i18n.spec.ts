/**
 * Issue 27 item 5: the customer pages speak the customer's language. The locale comes from
 * Accept-Language (Playwright's `locale` sends it), the switcher's cookie overrides it, <html lang>
 * follows, and the pay page in its states (pending, partial, confirmed, expired), the receipt and
 * the link page read in German and in English on a desktop and on a phone, each with axe at 0
 * violations. The sign-in pages stay English whatever the browser asks for (the dashboard itself follows
 * the login's own choice: dashboard-i18n.spec.ts).
 */
import { expect, test, type Page } from "@playwright/test";
import { clockText } from "@/lib/money/display-amount";
import { customerLocales } from "@/lib/i18n/locales";
import { baseUrl, createMerchant, createOrder, expectNoAxeViolations, getPublicOrder, type Merchant } from "./support";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant("Harbour Books");
});

const inFuture = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

async function merchantPost(path: string, body: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text);
}

async function pay(orderId: string, amount: string, received: string) {
  await merchantPost(`/api/sandbox/payment-orders/${orderId}/pay/`, { amount });
  await expect.poll(async () => (await getPublicOrder(orderId)).amount_received, { timeout: 30_000 }).toBe(received);
}

const words = {
  de: {
    pending: "12,5 USDC bezahlen",
    waiting: "Warten auf Zahlung",
    connect: "Wallet verbinden",
    remaining: "Restbetrag von 10 USDC bezahlen",
    partial: "2,5 USDC von 12,5 USDC sind eingegangen.",
    paid: "12,5 USDC bezahlt",
    confirmed: "Zahlung bestätigt",
    receiptLink: "Beleg ansehen und drucken",
    receiptHeading: "Beleg",
    paidTo: "Bezahlt an Harbour Books",
    print: "Drucken oder als PDF speichern",
    expired: "Diese Zahlungsanforderung ist abgelaufen",
    linkPrice: "24,00 € pro Stück",
    linkSubmit: "Weiter zur Zahlung",
    linkTotal: "48,00 €",
    more: "Eins mehr",
    languages: "Sprache",
  },
  en: {
    pending: "Pay 12.5 USDC",
    waiting: "Waiting for payment",
    connect: "Connect wallet",
    remaining: "Pay the remaining 10 USDC",
    partial: "2.5 USDC of 12.5 USDC arrived.",
    paid: "Paid 12.5 USDC",
    confirmed: "Payment confirmed",
    receiptLink: "View and print your receipt",
    receiptHeading: "Receipt",
    paidTo: "Paid to Harbour Books",
    print: "Print or save as PDF",
    expired: "This payment request has expired",
    linkPrice: "€24.00 each",
    linkSubmit: "Continue to payment",
    linkTotal: "€48.00",
    more: "One more",
    languages: "Language",
  },
} as const;

for (const device of [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
]) {
  for (const [lang, acceptLanguage] of [
    ["de", "de-DE"],
    ["en", "en-GB"],
  ] as const) {
    test.describe(`${lang} on a ${device.name}`, () => {
      test.use({ ...device.use, locale: acceptLanguage });
      const w = words[lang];

      test("pay page states, receipt and link page in the browser's language, axe 0", async ({ page }) => {
        test.setTimeout(180_000);
        // Runs out of time while the others are checked.
        const expiring = await createOrder(merchant, { amount: "1", expires_at: inFuture(10) });
        const order = await createOrder(merchant, { amount: "12.5" });

        await page.goto(`${baseUrl()}/pay/${order.order_id}`);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(w.pending);
        await expect(page.getByTestId("status")).toContainText(w.waiting);
        await expect(page.getByRole("button", { name: w.connect })).toBeVisible();
        await expect(page.getByRole("navigation", { name: w.languages })).toBeVisible();
        // Touch screens get the wallet app link: the EIP-681 URI with the amount (12.5 USDC = 12500000 units).
        const openInWallet = page.getByTestId("open-in-wallet");
        if (device.name === "phone") {
          await expect(openInWallet).toHaveAttribute(
            "href",
            `ethereum:${(await getPublicOrder(order.order_id)).token.address}@31337/transfer?address=${order.receiving_address}&uint256=12500000`,
          );
        } else {
          await expect(openInWallet).toHaveCount(0);
        }
        await expectNoAxeViolations(page);

        await pay(order.order_id, "2.5", "2.5");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(w.remaining);
        await expect(page.getByTestId("partial")).toContainText(w.partial);
        await expectNoAxeViolations(page);

        await pay(order.order_id, "10", "12.5");
        await merchantPost("/api/sandbox/mine/", { blocks: 3, blockchain: "base" });
        await expect.poll(async () => (await getPublicOrder(order.order_id)).status, { timeout: 60_000 }).toBe("confirmed");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(w.paid);
        await expect(page.getByTestId("status")).toContainText(w.confirmed);
        await expectNoAxeViolations(page);

        await page.getByRole("link", { name: w.receiptLink }).click();
        await page.waitForURL(new RegExp(`/pay/${order.order_id}/receipt$`));
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await expect(page.getByRole("heading", { level: 1 })).toContainText(w.receiptHeading);
        await expect(page.getByText(w.paidTo)).toBeVisible();
        await expect(page.getByRole("button", { name: w.print })).toBeVisible();
        await expectNoAxeViolations(page);

        await expect.poll(async () => (await getPublicOrder(expiring.order_id)).status, { timeout: 60_000 }).toBe("expired");
        await page.goto(`${baseUrl()}/pay/${expiring.order_id}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(w.expired);
        await expectNoAxeViolations(page);

        const link = await merchantPost("/api/payment-links/", {
          title: "Sea charts",
          price_amount: "24.00",
          price_currency: "EUR",
          options: [{ blockchain: "base", currency: "USDC" }],
          max_quantity: 3,
        });
        await page.goto(`${baseUrl()}/link/${link.data.id}`);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await expect(page.getByTestId("link-price")).toHaveText(w.linkPrice);
        await page.getByRole("button", { name: w.more }).click();
        await expect(page.getByTestId("link-total")).toHaveText(w.linkTotal);
        await expect(page.getByRole("button", { name: w.linkSubmit })).toBeVisible();
        await expectNoAxeViolations(page);
      });
    });
  }
}

test.describe("choosing the language", () => {
  test.use({ locale: "de-DE" });

  test("Accept-Language picks German; the switcher's choice wins from then on, on every customer page", async ({ page }) => {
    const order = await createOrder(merchant, { amount: "12.5" });
    await page.goto(`${baseUrl()}/pay/${order.order_id}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const switcher = page.getByRole("navigation", { name: "Sprache" });
    await expect(switcher.getByRole("link", { name: "Deutsch" })).toHaveAttribute("aria-current", "true");

    await switcher.getByRole("link", { name: "English" }).click();
    await page.waitForURL(new RegExp(`/pay/${order.order_id}$`));
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 12.5 USDC");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 12.5 USDC");

    await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "日本語" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("12.5 USDC を支払う");
    await expectNoAxeViolations(page);
  });

  test("the switcher only goes back to this site", async ({ page }) => {
    const res = await page.request.get(`${baseUrl()}/language/fr?return=//evil.example/`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers()["location"]).toBe("/");
    expect(res.headers()["set-cookie"]).toContain("NEXT_LOCALE=fr");
    const unknown = await page.request.get(`${baseUrl()}/language/xx?return=/pay/x`, { maxRedirects: 0 });
    expect(unknown.headers()["set-cookie"]).toBeUndefined();
  });

  test("the sign-in page speaks German under a German Accept-Language (no login is known there)", async ({ page }) => {
    await page.goto(`${baseUrl()}/sign-in`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1, name: "Anmelden" })).toBeVisible();
  });
});

// Building the first Intl formatter loads the locale's ICU data, one long task on a slow phone: the
// pages' first render uses what the server formatted, and the clock is written without Intl.
test.describe("hydrating builds no Intl formatter", () => {
  test.use({ locale: "de-DE" });

  /** Counts every Intl formatter the page builds (window.__intlBuilt), and how many were built before the first tap (__intlBeforeTap). */
  async function countIntlFormatters(page: Page) {
    await page.addInitScript(() => {
      const counters = window as unknown as { __intlBuilt: number; __intlBeforeTap?: number };
      counters.__intlBuilt = 0;
      const intl = Intl as unknown as Record<string, unknown>;
      for (const name of ["NumberFormat", "DateTimeFormat", "DurationFormat", "PluralRules", "ListFormat", "RelativeTimeFormat"]) {
        const original = intl[name] as ((...args: unknown[]) => unknown) | undefined;
        if (!original) continue;
        const count = () => void (counters.__intlBuilt += 1);
        intl[name] = new Proxy(original, {
          construct: (target, args) => (count(), Reflect.construct(target, args)),
          apply: (target, self, args) => (count(), Reflect.apply(target, self, args)),
        });
      }
      addEventListener("pointerdown", () => void (counters.__intlBeforeTap ??= counters.__intlBuilt), { capture: true });
    });
  }
  const built = (page: Page) => page.evaluate(() => (window as unknown as { __intlBuilt: number }).__intlBuilt);

  test("the pay page's amounts, deadline and clock, in German", async ({ page }) => {
    await countIntlFormatters(page);
    const order = await createOrder(merchant, { amount: "1234.5" });
    await page.goto(`${baseUrl()}/pay/${order.order_id}`);
    await page.waitForFunction(() => performance.getEntriesByName("pay:status-live").length > 0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("1.234,5 USDC bezahlen");
    await expect(page.getByTestId("countdown")).toHaveText(/^\d\d:\d\d/);
    expect(await built(page)).toBe(0);
  });

  test("the link page's price and total; a new quantity is formatted in the browser", async ({ page }) => {
    await countIntlFormatters(page);
    const link = await merchantPost("/api/payment-links/", {
      title: "Sea charts",
      price_amount: "24.00",
      price_currency: "EUR",
      options: [{ blockchain: "base", currency: "USDC" }],
      max_quantity: 3,
    });
    await page.goto(`${baseUrl()}/link/${link.data.id}`);
    await expect(page.getByTestId("link-total")).toHaveText("24,00 €");
    await page.getByRole("button", { name: "Eins mehr" }).click();
    await expect(page.getByTestId("link-total")).toHaveText("48,00 €");
    expect(await page.evaluate(() => (window as unknown as { __intlBeforeTap?: number }).__intlBeforeTap)).toBe(0);
    expect(await built(page)).toBeGreaterThan(0);
  });

  test("the clock reads as Intl.DurationFormat's digital style in every customer language", async ({ page }) => {
    const seconds = [0, 3, 59, 60, 899, 3599, 3600, 7507, 108_000];
    const intl = await page.evaluate(
      ({ locales, seconds }) =>
        locales.map((locale) => {
          const format = new (Intl as unknown as { DurationFormat: new (l: string, o: object) => { format(d: object): string } }).DurationFormat(locale, {
            style: "digital",
            hoursDisplay: "auto",
          });
          return seconds.map((s) => format.format({ hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 }));
        }),
      { locales: [...customerLocales], seconds },
    );
    expect(intl).toEqual(customerLocales.map(() => seconds.map((s) => clockText(s * 1000))));
  });
});
