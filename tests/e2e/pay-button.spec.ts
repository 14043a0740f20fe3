/**
 * Issue 29 items 6 and 7: the pay button's example page opens the hosted checkout of a real payment
 * link; the docs run as written (this instance's base URL in the examples, a copy button on every
 * code block, the quick start's webhook step on the sandbox inbox). Desktop and phone, axe at 0,
 * nothing wider than the screen.
 */
import { expect, test, type Page } from "@playwright/test";
import { axeScan, baseUrl, createMerchant, type Merchant } from "./support";

let merchant: Merchant;
let linkId = "";
test.beforeAll(async () => {
  merchant = await createMerchant("Corner Press");
  const res = await fetch(`${baseUrl()}/api/payment-links/`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "The e-book", price_amount: "9.00", price_currency: "EUR", options: [{ blockchain: "base", currency: "USDC" }] }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  linkId = body.data.id;
});

async function expectCleanPage(page: Page, width: number) {
  const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  const wide = await page.evaluate((w) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll("body *")) {
      const box = el.getBoundingClientRect();
      if (box.right > w + 1 && !el.closest("pre")) out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.right)}`);
    }
    return out.slice(0, 5);
  }, width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `wider than the screen: ${wide.join(" | ")}`).toBeLessThanOrEqual(width);
}

for (const device of [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
]) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    test("the example shop page's pay button opens the link's hosted checkout in the merchant's colours", async ({ page, context }) => {
      await page.goto(`${baseUrl()}/docs/pay-button`);
      await expectCleanPage(page, device.use.viewport.width);
      await page.getByRole("link", { name: "example shop page" }).click();
      await expect(page).toHaveURL(/\/docs\/pay-button\/example$/);
      await page.getByLabel("Payment link id").fill(linkId);
      await page.getByRole("button", { name: "Show its button" }).click();
      const button = page.getByTestId("pay-button").getByRole("link", { name: "Pay with crypto" });
      await expect(button).toHaveAttribute("href", `${baseUrl()}/link/${linkId}`);
      await expectCleanPage(page, device.use.viewport.width);

      await page.goto(`${baseUrl()}/docs/pay-button/example?link=${linkId}&background=%230f766e&color=%23ffffff&label=Buy%20the%20e-book`);
      const branded = page.getByTestId("pay-button").getByRole("link", { name: "Buy the e-book" });
      await expect(branded).toHaveCSS("background-color", "rgb(15, 118, 110)");
      const [checkout] = await Promise.all([context.waitForEvent("page"), branded.click()]);
      await checkout.waitForLoadState();
      expect(checkout.url()).toBe(`${baseUrl()}/link/${linkId}`);
      await expect(checkout.getByRole("heading", { name: "The e-book" })).toBeVisible();
      await checkout.close();
    });

    test("docs run as written: this instance's base URL, a copy button per code block, the webhook step on the sandbox inbox", async ({ page, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.goto(`${baseUrl()}/docs/quick-start`);
      const blocks = page.locator("pre");
      const count = await blocks.count();
      expect(count).toBeGreaterThan(5);
      await expect(page.getByRole("button", { name: /^Copy/ })).toHaveCount(count);
      const text = (await page.locator("main").textContent())!;
      expect(text).not.toContain("localhost:3000");
      expect(text).not.toContain("localhost:4000");
      expect(text).toContain(`${baseUrl()}/api/payment-orders`);
      expect(text).toContain(`curl -s ${baseUrl()}/api/sandbox/inbox`);
      expect(text).toContain(`"url":"'"$INBOX"'"`);
      await expectCleanPage(page, device.use.viewport.width);

      const first = blocks.first();
      await page.getByRole("button", { name: /^Copy/ }).first().click();
      await expect(page.getByRole("button", { name: /^Copy/ }).first()).toHaveText("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await first.textContent());

      for (const path of ["/docs/sandbox", "/docs/pricing", "/docs/errors", "/docs/connect-your-shop"]) {
        await page.goto(`${baseUrl()}${path}`);
        expect((await page.locator("main").textContent())!, path).not.toContain("localhost:3000");
        await expectCleanPage(page, device.use.viewport.width);
      }
    });
  });
}
