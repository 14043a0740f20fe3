/**
 * Issue 52 item 5: the dashboard in the customer pages' languages, the merchant's choice kept per
 * login, and dark mode. A merchant signs in, switches the dashboard to German with the sidebar's
 * switch, reloads, signs in again from a fresh browser that asks for English (the choice is the
 * login's, not the browser's), switches to Japanese, reloads; then the overview, the orders list and
 * Settings render dark (prefers-color-scheme) with axe at 0 serious or critical findings. On a
 * desktop (1280×800) and a phone (390×844), each with its own merchant.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { api, axeScan, baseUrl, createOrder } from "./support";

const password = "correct horse battery staple";

/** A merchant with a base wallet and one order (the orders list has a row), signed up through the API. */
async function newMerchant(): Promise<string> {
  const username = `i18n_${randomBytes(5).toString("hex")}`;
  expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Kiosk Nord" })).status).toBe(201);
  const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
  const wallet = await api(
    "POST",
    "/api/merchant-wallets/",
    { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 3, is_active: true },
    token,
  );
  expect(wallet.status).toBe(201);
  await createOrder({ token, shopName: "Kiosk Nord" });
  return username;
}

async function signIn(page: Page, username: string) {
  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The sidebar's language switch (inside the Menu drawer on a phone). */
async function switchTo(page: Page, language: string, phone: boolean, menuLabel: string) {
  if (phone) await page.getByRole("button", { name: menuLabel, exact: true }).click();
  await page.getByTestId("dashboard-language").getByRole("button", { name: language }).click();
}

/** axe's WCAG 2.1 A/AA findings of serious or critical impact on the page as it is now. */
async function seriousFindings(page: Page): Promise<string[]> {
  const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function freshPage(browser: Browser, viewport: { width: number; height: number }, phone: boolean) {
  const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone, locale: "en-US" });
  return { context, page: await context.newPage() };
}

for (const device of [
  { name: "desktop", viewport: { width: 1280, height: 800 }, phone: false },
  { name: "phone", viewport: { width: 390, height: 844 }, phone: true },
]) {
  test(`${device.name}: German, then Japanese, kept per login across reloads and browsers; dark mode axe-clean`, async ({ browser }) => {
    test.setTimeout(150_000);
    const username = await newMerchant();
    const first = await freshPage(browser, device.viewport, device.phone);
    const page = first.page;
    await signIn(page, username);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    // German: the switch comes back to the page it was on, and a reload keeps it.
    await page.goto(`${baseUrl()}/dashboard/orders`);
    await switchTo(page, "Deutsch", device.phone, "Menu");
    await expect(page).toHaveURL(/\/dashboard\/orders$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1, name: "Bestellungen" })).toBeVisible();
    await expect(page.getByText("1 Bestellung", { exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Bestellungen" })).toBeVisible();
    await page.goto(`${baseUrl()}/dashboard`);
    await expect(page.getByRole("heading", { level: 1, name: "Übersicht" })).toBeVisible();

    // Another browser asking for English, no cookie: the login's choice wins once signed in.
    const second = await freshPage(browser, device.viewport, device.phone);
    await signIn(second.page, username);
    await expect(second.page.locator("html")).toHaveAttribute("lang", "de");
    await expect(second.page.getByRole("heading", { level: 1, name: "Übersicht" })).toBeVisible();
    await second.context.close();

    // Japanese, from Settings' page (the switch again), kept on reload; Settings shows the kept choice.
    await page.goto(`${baseUrl()}/dashboard/settings`);
    await expect(page.getByRole("heading", { level: 1, name: "Einstellungen" })).toBeVisible();
    await switchTo(page, "日本語", device.phone, "Menü");
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    await expect(page.getByRole("heading", { level: 1, name: "設定" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "設定" })).toBeVisible();
    const languageForm = page.getByRole("form", { name: "ダッシュボードの言語" });
    await expect(languageForm.getByLabel("言語", { exact: true })).toHaveValue("ja");

    // Dark mode (the system's preference, as on the customer pages): dark surfaces, axe 0 serious, in Japanese and in English.
    await page.emulateMedia({ colorScheme: "dark" });
    for (const path of ["/dashboard", "/dashboard/orders", "/dashboard/settings"]) {
      await page.goto(`${baseUrl()}${path}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background, `${path} background in dark mode`).toBe("rgb(11, 17, 32)");
      expect(await seriousFindings(page), `${path} in dark mode`).toEqual([]);
    }
    // Back to English through Settings' own form; light and dark both clean on the orders list.
    await page.goto(`${baseUrl()}/dashboard/settings`);
    await languageForm.getByLabel("言語", { exact: true }).selectOption("en");
    await languageForm.getByRole("button", { name: "言語を保存" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    await page.goto(`${baseUrl()}/dashboard/orders`);
    await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
    expect(await seriousFindings(page), "orders in dark mode, English").toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(249, 250, 251)");
    expect(await seriousFindings(page), "orders in light mode").toEqual([]);
    await first.context.close();
  });
}

test("an unknown dashboard language is 400 in the error envelope", async ({ request }) => {
  const res = await request.post(`${baseUrl()}/language/xx?return=/dashboard`, { maxRedirects: 0 });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
});
