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
import { api, axeScan, baseUrl, createOrder, getPublicOrder } from "./support";

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

/**
 * The pages before the dashboard know no login yet: they speak the browser's language (Accept-Language,
 * as the customer pages do), light and dark, axe-clean; signing in from them in German lands on the
 * dashboard in German (the merchant has chosen nothing, so the browser's language applies there too).
 */
for (const device of [
  { name: "desktop", viewport: { width: 1280, height: 800 }, phone: false },
  { name: "phone", viewport: { width: 390, height: 844 }, phone: true },
]) {
  test(`${device.name}: sign-in, sign-up, password, verification and invitation pages in German, light and dark, axe-clean`, async ({ browser }) => {
    test.setTimeout(120_000);
    const username = await newMerchant();
    const context = await browser.newContext({ viewport: device.viewport, isMobile: device.phone, hasTouch: device.phone, locale: "de-DE" });
    const page = await context.newPage();
    const pages: Array<[string, string, string]> = [
      ["/sign-in", "Anmelden", "Passwort vergessen?"],
      ["/sign-up", "Konto erstellen", "Mindestens 8 Zeichen."],
      ["/forgot-password", "Passwort vergessen?", "Link zum Zurücksetzen senden"],
      ["/reset-password", "Neues Passwort wählen", "Diese Seite braucht den Link aus der E-Mail zum Zurücksetzen."],
      ["/verify-email", "E-Mail-Adresse bestätigen", "Diese Seite braucht den Link aus der Bestätigungs-E-Mail."],
      ["/invite?token=nicht-gueltig", "Einladung", "Diese Einladung ist ungültig, wurde schon verwendet oder ist abgelaufen. Bitten Sie um eine neue."],
    ];
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [path, heading, text] of pages) {
        await page.goto(`${baseUrl()}${path}`);
        await expect(page.locator("html")).toHaveAttribute("lang", "de");
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background, `${path} background, ${scheme}`).toBe(scheme === "dark" ? "rgb(11, 17, 32)" : "rgb(249, 250, 251)");
        expect(await seriousFindings(page), `${path} ${scheme}`).toEqual([]);
      }
    }
    await expect(page).toHaveTitle("Einladung annehmen · Payment Gateway");

    // A wrong password in German (the form words the action's refusal from its code), then signing in.
    await page.goto(`${baseUrl()}/sign-in`);
    await expect(page).toHaveTitle("Anmelden · Payment Gateway");
    const form = page.getByRole("form", { name: "Anmelden" });
    await form.getByLabel("Benutzername").fill(username);
    await form.getByLabel("Passwort").fill("wrong password, surely");
    await form.getByRole("button", { name: "Anmelden" }).click();
    await expect(form.getByRole("alert")).toHaveText("Benutzername oder Passwort ungültig.");
    await form.getByLabel("Passwort").fill(password);
    await form.getByRole("button", { name: "Anmelden" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: "Übersicht" })).toBeVisible();
    await context.close();
  });
}

/**
 * The rest of the dashboard in German: the refund panel (prepare, sign without a wallet, the enter-an-
 * address form), payout signing, the pay-button builder, two-factor and passkey settings, a webhook
 * test's outcome and the audit log's filter problems, each axe-clean.
 */
test("desktop: refund panel, payout signing, pay button, two-factor and passkeys, webhook test and audit filters in German", async ({ browser }) => {
  test.setTimeout(150_000);
  const username = `i18n_${randomBytes(5).toString("hex")}`;
  expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Kiosk Süd" })).status).toBe(201);
  const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
  const post = async (path: string, body: unknown) => {
    const res = await api("POST", path, body, token);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };
  await post("/api/merchant-wallets/", { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 1, is_active: true });
  const order = await post("/api/payment-orders/", { amount: "3", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 });
  await post(`/api/sandbox/payment-orders/${order.order_id}/pay/`, {});
  await post("/api/payment-links/", { title: "Seekarten", price_amount: "24.00", price_currency: "EUR", options: [{ blockchain: "base", currency: "USDC" }] });
  const batch = await post("/api/payouts/", {
    blockchain: "base",
    currency: "ETH",
    legs: [{ address: `0x${randomBytes(20).toString("hex")}`, amount: "0.001" }],
  });

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "de-DE" });
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Benutzername").fill(username);
  await page.getByLabel("Passwort").fill(password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The refund panel: prepared in German; signing without a browser wallet says so in German.
  await expect.poll(async () => (await getPublicOrder(order.order_id)).status, { timeout: 60_000 }).toBe("confirmed");
  await page.goto(`${baseUrl()}/dashboard/orders/${order.order_id}`);
  const refund = page.getByRole("form", { name: "Diese Bestellung erstatten" });
  await refund.getByLabel("Betrag (USDC)").fill("1.25");
  await refund.getByLabel("Erstattungsadresse").fill(`0x${randomBytes(20).toString("hex")}`);
  await refund.getByRole("button", { name: "Erstattung vorbereiten" }).click();
  await expect(refund).toContainText("Erstattung über 1.25 USDC vorbereitet. Signieren Sie sie in der Liste unten mit Ihrer Wallet.");
  await page.getByRole("button", { name: "Mit meiner Wallet signieren" }).click();
  await expect(page.getByText(/^Keine Browser-Wallet gefunden\. .*senden Sie die Transaktion unten selbst aus Ihrer Wallet\.$/)).toBeVisible();
  await page.getByText("Der Kunde kann weder signieren noch den per E-Mail gesendeten Link nutzen").click();
  await expect(page.getByRole("form", { name: "Erstattungsadresse des Kunden eingeben" }).getByLabel("Erstattungsadresse des Kunden")).toBeVisible();
  expect(await seriousFindings(page), "order page").toEqual([]);

  // Payout signing without a wallet.
  await page.goto(`${baseUrl()}/dashboard/payouts`);
  await page.getByRole("button", { name: `Stapel ${batch.id} mit meiner Wallet signieren` }).click();
  await expect(page.getByText(/^Keine Browser-Wallet gefunden\. .*Transaktion des Stapels/)).toBeVisible();
  expect(await seriousFindings(page), "payouts page").toEqual([]);

  // The pay-button builder, its default text in the merchant's language.
  await page.goto(`${baseUrl()}/dashboard/links`);
  await expect(page.getByLabel("Button-Text")).toHaveValue("Mit Krypto bezahlen");
  await expect(page.getByTestId("pay-button-preview").getByRole("link", { name: "Mit Krypto bezahlen" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Button-HTML kopieren" })).toBeVisible();
  expect(await seriousFindings(page), "links page").toEqual([]);

  // Two-factor set-up up to the QR code; the passkey form.
  await page.goto(`${baseUrl()}/dashboard/settings`);
  const totp = page.getByRole("form", { name: "Zwei-Faktor-Authentifizierung einrichten" });
  await totp.getByLabel("Aktuelles Passwort").fill(password);
  await totp.getByRole("button", { name: "Authenticator-App einrichten" }).click();
  await expect(page.getByText("Scannen Sie diesen QR-Code mit Ihrer Authenticator-App", { exact: false })).toBeVisible();
  await expect(page.getByRole("form", { name: "Zwei-Faktor-Authentifizierung bestätigen" }).getByRole("button", { name: "Aktivieren" })).toBeVisible();
  const passkey = page.getByRole("form", { name: "Passkey hinzufügen" });
  await expect(passkey.getByLabel("Name des Passkeys")).toHaveValue("Passkey");
  await expect(page.getByText(/^Keine Passkeys\./)).toBeVisible();
  expect(await seriousFindings(page), "settings page").toEqual([]);

  // A webhook test to the sandbox inbox: delivered, in German.
  await page.goto(`${baseUrl()}/dashboard/webhooks`);
  const inboxUrl = (await page.getByTestId("inbox-url").textContent())!.trim();
  const created = await post("/api/webhook-endpoints/", { url: inboxUrl });
  await page.reload();
  const endpoint = page.locator(`[data-endpoint-id="${created.id}"]`);
  await endpoint.getByText("Testereignis senden").first().click();
  await endpoint.getByRole("button", { name: "Testereignis senden" }).click();
  await expect(endpoint.getByTestId("webhook-test-result")).toHaveText(/^Zugestellt: Ihr Endpunkt antwortete mit HTTP 2\d\d in \d+ ms\.$/);

  // The audit log's filters that do not parse, in German.
  await page.goto(`${baseUrl()}/dashboard/audit-log?from=gestern`);
  await expect(page.getByText("Filter nicht angewendet: „Von“ ist kein Datum.", { exact: true })).toBeVisible();
  await page.goto(`${baseUrl()}/dashboard/audit-log?from=2026-02-01&to=2026-01-01`);
  await expect(page.getByText("Filter nicht angewendet: „Bis“ darf nicht vor „Von“ liegen.", { exact: true })).toBeVisible();
  expect(await seriousFindings(page), "audit log").toEqual([]);
  await context.close();
});

test("an unknown dashboard language is 400 in the error envelope", async ({ request }) => {
  const res = await request.post(`${baseUrl()}/language/xx?return=/dashboard`, { maxRedirects: 0 });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR" } });
});
