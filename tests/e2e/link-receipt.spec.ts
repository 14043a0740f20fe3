/**
 * Issue 27: the payment link page in the pay page's design (method tiles, a quantity stepper, a
 * live total), the pay page naming what was bought, and the printable receipt of the confirmed
 * order, on a desktop and on a phone, each page with axe at 0 violations. The order is paid for
 * real on the sandbox devnet.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { baseUrl, createMerchant, createOrder, expectNoAxeViolations, getPublicOrder, type Merchant } from "./support";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant("Harbour Conf");
});

async function merchantApi(method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function expectFitsScreen(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

for (const device of [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
]) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    test("link page: tiles, stepper and live total; the pay page names the item; the confirmed order's receipt", async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      const link = await merchantApi("POST", "/api/payment-links/", {
        title: "Conference ticket",
        price_amount: "49.00",
        price_currency: "EUR",
        options: [
          { blockchain: "base", currency: "ETH" },
          { blockchain: "base", currency: "USDC" },
        ],
        max_quantity: 3,
      });
      expect(link.status, JSON.stringify(link.body)).toBe(201);

      await page.goto(`${baseUrl()}/link/${link.body.data.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Conference ticket");
      await expect(page.getByTestId("link-price")).toHaveText("€49.00 each");
      const tiles = page.getByRole("radio");
      await expect(tiles).toHaveCount(2);
      await expect(page.getByTestId("method").first()).toContainText("ETH");
      await expect(page.getByTestId("method").first()).toContainText("on Base");
      await expect(tiles.first()).toBeChecked();
      await expect(page.getByTestId("link-total")).toHaveText("€49.00");
      await expectNoAxeViolations(page);
      await expectFitsScreen(page, device.use.viewport.width);
      await shot(page, testInfo, `${device.name}-link`);

      // The stepper stays within 1..max_quantity; the total follows.
      const fewer = page.getByRole("button", { name: "One fewer" });
      const more = page.getByRole("button", { name: "One more" });
      await expect(fewer).toBeDisabled();
      await more.click();
      await more.click();
      await expect(page.getByRole("spinbutton", { name: "Quantity" })).toHaveValue("3");
      await expect(more).toBeDisabled();
      await expect(page.getByTestId("link-total")).toHaveText("€147.00");
      await fewer.click();
      await expect(page.getByTestId("link-total")).toHaveText("€98.00");
      // Tiles are radios: the keyboard moves the choice.
      await tiles.first().focus();
      await page.keyboard.press("ArrowDown");
      await expect(tiles.nth(1)).toBeChecked();

      await page.getByRole("button", { name: "Continue to payment" }).click();
      await page.waitForURL(/\/pay\/ORD-/);
      const orderId = new URL(page.url()).pathname.split("/").pop()!;
      await expect(page.getByTestId("item")).toHaveText("Conference ticket × 2");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay €98.00");
      const order = await getPublicOrder(orderId);
      expect(order).toMatchObject({ currency: "USDC", price_amount: "98.00", item: { name: "Conference ticket", quantity: 2 } });

      // No receipt before the payment is confirmed: a 404 page in plain words.
      const early = await page.goto(`${baseUrl()}/pay/${orderId}/receipt`);
      expect(early?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("No receipt here");

      expect((await merchantApi("POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { amount: order.amount })).status).toBe(201);
      await expect.poll(async () => (await getPublicOrder(orderId)).amount_received, { timeout: 30_000 }).toBe(order.amount);
      expect((await merchantApi("POST", "/api/sandbox/mine/", { blocks: 3, blockchain: "base" })).status).toBe(200);
      await expect.poll(async () => (await getPublicOrder(orderId)).status, { timeout: 60_000 }).toBe("confirmed");
      const paid = await getPublicOrder(orderId);

      await page.goto(`${baseUrl()}/pay/${orderId}`);
      await expect(page.getByTestId("status")).toContainText("Payment confirmed");
      await expect(page.getByTestId("item")).toHaveText("Conference ticket × 2");
      await page.getByRole("link", { name: "View and print your receipt" }).click();
      await page.waitForURL(new RegExp(`/pay/${orderId}/receipt$`));

      await expect(page.getByRole("heading", { level: 1 })).toContainText("Receipt");
      await expect(page.getByText("Paid to Harbour Conf")).toBeVisible();
      await expect(page.getByTestId("receipt-item")).toHaveText("Conference ticket");
      await expect(page.getByTestId("receipt-quantity")).toHaveText("2");
      await expect(page.getByTestId("receipt-price")).toHaveText("€98.00");
      await expect(page.getByTestId("receipt")).toContainText(`1 USDC = ${paid.rate} EUR`);
      await expect(page.getByTestId("receipt-amount")).toHaveText(`${paid.amount} USDC`);
      await expect(page.getByTestId("receipt-method")).toHaveText(`USDC on ${paid.blockchain.name}`);
      // The devnet has no block explorer: the hash, without a link.
      await expect(page.getByTestId("receipt-tx")).toHaveText(paid.transaction_hash!);
      await expect(page.getByTestId("receipt-tx").getByRole("link")).toHaveCount(0);
      await expect(page.getByTestId("receipt")).toContainText(orderId);
      await expectNoAxeViolations(page);
      await expectFitsScreen(page, device.use.viewport.width);
      await shot(page, testInfo, `${device.name}-receipt`);

      // Printed: the facts without the buttons.
      await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeHidden();
      await expect(page.getByTestId("receipt-amount")).toBeVisible();
    });
  });
}

test("a receipt for an unknown order, and for an order not paid, is a 404 page in plain words", async ({ page }) => {
  const pending = await createOrder(merchant, { amount: "1" });
  for (const id of [pending.order_id, "ORD-doesnotexist00"]) {
    const res = await page.goto(`${baseUrl()}/pay/${id}/receipt`);
    expect(res?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("No receipt here");
    await expect(page.locator("main")).toContainText("A receipt is issued once a payment is confirmed.");
  }
});

test("a link whose only chain's wallet was switched off says so in the customer's words, with no form", async ({ page }) => {
  const other = await createMerchant("Bean Shop");
  const headers = { authorization: `Bearer ${other.token}`, "content-type": "application/json" };
  const wallets = (await (await fetch(`${baseUrl()}/api/merchant-wallets/`, { headers })).json()) as { results: { id: number }[] };
  const created = await fetch(`${baseUrl()}/api/payment-links/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ title: "Espresso beans 1 kg", amount: "24", options: [{ blockchain: "base", currency: "USDC" }] }),
  });
  const link = (await created.json()) as { data: { id: string } };
  expect(created.status, JSON.stringify(link)).toBe(201);
  const off = await fetch(`${baseUrl()}/api/merchant-wallets/${wallets.results[0]!.id}/`, {
    method: "PUT",
    headers,
    body: JSON.stringify({ is_active: false }),
  });
  expect(off.status).toBe(200);
  await page.goto(`${baseUrl()}/link/${link.data.id}`);
  await expect(page.getByRole("note")).toHaveText("Bean Shop cannot take payments through this link right now. Contact Bean Shop.");
  await expect(page.getByRole("button", { name: "Continue to payment" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a payment link saved with a chain the merchant has no wallet on is refused with 400 WALLET_NOT_CONFIGURED", async () => {
  const res = await merchantApi("POST", "/api/payment-links/", {
    title: "Espresso beans 1 kg",
    amount: "24",
    options: [{ blockchain: "polygon", currency: "USDC" }],
  });
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe("WALLET_NOT_CONFIGURED");
});
