/**
 * Issue 55 item 4 in the browser: a store's own look on its payment page and on the receipt of an order
 * paid on the devnet, in light and in dark mode,
 * on a desktop and on a phone. Stable assertions (computed colours, the logo decoded, the name and
 * support line, white text on the accent at 4.5:1 or more, axe at 0 violations); the screenshots are
 * kept as the test's attachments (artifacts), not compared pixel by pixel: fonts and anti-aliasing
 * differ between machines.
 */
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import sharp from "sharp";
import { api, baseUrl, createMerchant, createOrder, expectNoAxeViolations, getPublicOrder, type Merchant } from "./support";

const accent = "#0f766e";
const accentRgb = "rgb(15, 118, 110)";
const brand = { display_name: "Aurora Tea", accent_color: accent, support_email: "help@aurora.example", support_url: "https://aurora.example/help" };

let merchant: Merchant;
let orderId: string;
test.beforeAll(async () => {
  merchant = await createMerchant("Plain Registered Name Ltd");
  const saved = await api("PUT", "/api/branding/", brand, merchant.token);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  // A JPEG logo (teal with a white band): the gateway re-encodes it as a PNG.
  const logo = await sharp({ create: { width: 360, height: 120, channels: 3, background: accent } })
    .composite([{ input: { create: { width: 360, height: 30, channels: 3, background: "#ffffff" } }, top: 45, left: 0 }])
    .jpeg()
    .toBuffer();
  const uploaded = await api("PUT", "/api/branding/logo/", { image: logo.toString("base64") }, merchant.token);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  orderId = (await createOrder(merchant, { amount: "12.5" })).order_id;
});

/** WCAG 2 contrast of two computed `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = rgb
      .match(/\d+/g)!
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const css = (locator: Locator, property: string) => locator.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

/**
 * An order of the store paid on the sandbox devnet (a real transfer to its address) and confirmed (3 blocks
 * mined for its threshold): the receipt page's. Paid once per worker, by the first receipt test it runs.
 */
let confirmedOrder: Promise<{ orderId: string; amount: string }> | undefined;
function confirmedOrderOfTheStore() {
  confirmedOrder ??= (async () => {
    const order = await createOrder(merchant, { amount: "4.2" });
    const paid = await api("POST", `/api/sandbox/payment-orders/${order.order_id}/pay/`, { amount: order.amount }, merchant.token);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    await expect.poll(async () => (await getPublicOrder(order.order_id)).amount_received, { timeout: 30_000 }).toBe(order.amount);
    expect((await api("POST", "/api/sandbox/mine/", { blocks: 3, blockchain: "base" }, merchant.token)).status).toBe(200);
    await expect.poll(async () => (await getPublicOrder(order.order_id)).status, { timeout: 60_000 }).toBe("confirmed");
    return { orderId: order.order_id, amount: order.amount };
  })();
  return confirmedOrder;
}

async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

for (const device of [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
]) {
  for (const scheme of ["light", "dark"] as const) {
    test.describe(`on a ${device.name} in ${scheme} mode`, () => {
      test.use({ ...device.use, colorScheme: scheme });

      test("the payment page shows the store's logo, name, accent colour and support contact, readable and axe-clean", async ({ page }, testInfo) => {
        await page.goto(`${baseUrl()}/pay/${orderId}`);
        // The page follows the scheme (its own colours), the store's accent does not change with it.
        expect(await css(page.locator("body"), "background-color")).toBe(scheme === "dark" ? "rgb(11, 17, 32)" : "rgb(249, 250, 251)");

        const bar = page.getByTestId("store-brand");
        await expect(bar).toBeVisible();
        expect(await css(bar, "border-top-color")).toBe(accentRgb);
        const logo = bar.getByRole("img", { name: "Aurora Tea" });
        await expect(logo).toBeVisible();
        await expect.poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(360);
        expect(await logo.getAttribute("src")).toMatch(/\/store-logo\/\d+\?v=\d+$/);

        // The display name, not the name the account registered with.
        await expect(page.getByText("Payment to Aurora Tea")).toBeVisible();
        await expect(page.getByText("Plain Registered Name Ltd")).toHaveCount(0);

        // The primary button in the accent colour with white text (AA); a secondary one keeps the page's colours.
        const primary = page.getByRole("button", { name: "Pay in full" });
        await expect(primary).toBeVisible();
        expect(await css(primary, "background-color")).toBe(accentRgb);
        const text = await css(primary, "color");
        expect(text).toBe("rgb(255, 255, 255)");
        expect(contrast(await css(primary, "background-color"), text)).toBeGreaterThanOrEqual(4.5);
        const secondary = page.getByRole("button", { name: "Pay half of what is missing" });
        expect(await css(secondary, "background-color")).not.toBe(accentRgb);

        const support = page.getByTestId("store-support");
        await expect(support).toHaveText("Questions? Contact Aurora Tea: help@aurora.example · aurora.example/help");
        await expect(support.getByRole("link", { name: "help@aurora.example" })).toHaveAttribute("href", "mailto:help@aurora.example");
        await expect(support.getByRole("link", { name: "aurora.example/help" })).toHaveAttribute("href", "https://aurora.example/help");
        expect(contrast(await css(support, "color"), await css(page.locator("body"), "background-color"))).toBeGreaterThanOrEqual(4.5);

        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(device.use.viewport.width);
        await keepScreenshot(page, testInfo, `branded-pay-${device.name}-${scheme}`);
      });

      test("the receipt of a confirmed order shows the store's logo, name, accent colour and support contact, readable and axe-clean", async ({
        page,
      }, testInfo) => {
        test.setTimeout(150_000);
        const { orderId: paidOrderId, amount } = await confirmedOrderOfTheStore();
        const response = await page.goto(`${baseUrl()}/pay/${paidOrderId}/receipt`);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1 })).toContainText("Receipt");
        await expect(page.getByTestId("receipt-amount")).toHaveText(`${amount} USDC`);
        expect(await css(page.locator("body"), "background-color")).toBe(scheme === "dark" ? "rgb(11, 17, 32)" : "rgb(249, 250, 251)");

        const bar = page.getByTestId("store-brand");
        await expect(bar).toBeVisible();
        expect(await css(bar, "border-top-color")).toBe(accentRgb);
        const logo = bar.getByRole("img", { name: "Aurora Tea" });
        await expect(logo).toBeVisible();
        await expect.poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(360);

        // Paid to the display name, not the name the account registered with.
        await expect(page.getByText("Paid to Aurora Tea")).toBeVisible();
        await expect(page.getByText("Plain Registered Name Ltd")).toHaveCount(0);

        // Its primary button in the accent colour with white text (AA); "Back to the payment page" keeps the page's colours.
        const print = page.getByRole("button", { name: "Print or save as PDF" });
        await expect(print).toBeVisible();
        expect(await css(print, "background-color")).toBe(accentRgb);
        expect(await css(print, "color")).toBe("rgb(255, 255, 255)");
        expect(contrast(await css(print, "background-color"), await css(print, "color"))).toBeGreaterThanOrEqual(4.5);
        const back = page.getByRole("link", { name: "Back to the payment page" });
        await expect(back).toBeVisible();
        expect(await css(back, "background-color")).not.toBe(accentRgb);

        const support = page.getByTestId("store-support");
        await expect(support).toHaveText("Questions? Contact Aurora Tea: help@aurora.example · aurora.example/help");
        await expect(support.getByRole("link", { name: "help@aurora.example" })).toHaveAttribute("href", "mailto:help@aurora.example");
        await expect(support.getByRole("link", { name: "aurora.example/help" })).toHaveAttribute("href", "https://aurora.example/help");
        expect(contrast(await css(support, "color"), await css(page.locator("body"), "background-color"))).toBeGreaterThanOrEqual(4.5);

        await expectNoAxeViolations(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(device.use.viewport.width);
        await keepScreenshot(page, testInfo, `branded-receipt-${device.name}-${scheme}`);
      });
    });
  }
}

test("the link page carries the same look; a store without branding keeps the gateway's own colours", async ({ page }) => {
  const link = await api(
    "POST",
    "/api/payment-links/",
    { title: "Sencha 100 g", amount: "9", options: [{ blockchain: "base", currency: "USDC" }] },
    merchant.token,
  );
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  await page.goto(`${baseUrl()}/link/${link.body.data.id}`);
  await expect(page.getByTestId("store-brand").getByRole("img", { name: "Aurora Tea" })).toBeVisible();
  await expect(page.getByText("Aurora Tea", { exact: true })).toBeVisible();
  expect(await css(page.getByRole("button", { name: "Continue to payment" }), "background-color")).toBe(accentRgb);
  await expect(page.getByTestId("store-support")).toContainText("help@aurora.example");
  await expectNoAxeViolations(page);

  const plain = await createMerchant("Unbranded Goods");
  const order = await createOrder(plain, { amount: "3" });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByText("Payment to Unbranded Goods")).toBeVisible();
  await expect(page.getByTestId("store-brand")).toHaveCount(0);
  await expect(page.getByTestId("store-support")).toHaveCount(0);
  expect(await css(page.getByRole("button", { name: "Pay in full" }), "background-color")).toBe("rgb(29, 78, 216)");
});
