/**
 * Issue 52 item 5: what the pages show, on a desktop (1280×800) and a phone (390×844). Sign-in
 * returns to the page the merchant asked for (and only to a page of this site); the overview totals
 * every token in one fiat currency; Sandbox › Create a test order starts on a chain with a wallet
 * (and says what to do without one); the refund form is styled like the other forms; the pay page
 * asks for the method before it names the token, shows one amount under the instruction, puts
 * "Open in wallet app" near the top on a phone, and an expired order links its return URL. Orders
 * are paid for real on the sandbox devnet.
 */
import { randomBytes } from "node:crypto";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { api, baseUrl, createMerchant, createOrder, expectNoAxeViolations, getPublicOrder, type Merchant } from "./support";

interface Login {
  username: string;
  password: string;
  token: string;
}

/** A new merchant (register, log in) with, unless `wallet` is false, a base wallet of threshold 1. */
async function registerMerchant(shop: string, wallet = true): Promise<Login> {
  const username = `views_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: shop })).status).toBe(201);
  const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
  if (wallet) {
    const created = await api(
      "POST",
      "/api/merchant-wallets/",
      { blockchain: 2, wallet_address: `0x${randomBytes(20).toString("hex")}`, confirmation_threshold: 1, is_active: true },
      token,
    );
    expect(created.status).toBe(201);
  }
  return { username, password, token };
}

async function signInHere(page: Page, who: Login) {
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** A paid, confirmed order (the sandbox pays it from its faucet). */
async function paidOrder(who: Login, body: Record<string, unknown>): Promise<string> {
  const created = await api(
    "POST",
    "/api/payment-orders/",
    { currency: "USDC", blockchain: "base", order_info: "{}", nonce: Date.now() * 1000 + Math.floor(Math.random() * 1000), ...body },
    who.token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const orderId = created.body.data.order_id as string;
  expect((await api("POST", `/api/sandbox/payment-orders/${orderId}/pay/`, {}, who.token)).status).toBe(201);
  await expect.poll(async () => (await getPublicOrder(orderId)).status, { timeout: 60_000 }).toBe("confirmed");
  return orderId;
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

const inFuture = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

const devices = [
  { name: "desktop", phone: false, use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", phone: true, use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];

for (const device of devices) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    test("sign-in returns to the page asked for, never to another site", async ({ page }) => {
      const who = await registerMerchant("Return Shop");
      const asked = "/dashboard/orders?status=confirmed";
      await page.goto(`${baseUrl()}${asked}`);
      await expect(page).toHaveURL(`${baseUrl()}/sign-in?callbackUrl=${encodeURIComponent(asked)}`);
      await expectNoAxeViolations(page);
      await signInHere(page, who);
      await expect(page).toHaveURL(`${baseUrl()}${asked}`);
      await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();

      // Another site as the return path: the overview instead.
      await page.context().clearCookies();
      await page.goto(`${baseUrl()}/sign-in?callbackUrl=${encodeURIComponent("//evil.example/x")}`);
      await signInHere(page, who);
      await expect(page).toHaveURL(`${baseUrl()}/dashboard`);
    });

    test("overview: one fiat total across tokens; the refund form in the forms' style", async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      const who = await registerMerchant("Fiat Shop");
      // Priced in US dollars: its locked rate (10.00). Priced in the token: the price recorded at detection (5 × 0.9998 → 5.00).
      const usdOrder = await paidOrder(who, { price_amount: "10.00", price_currency: "USD" });
      await paidOrder(who, { amount: "5" });

      await page.goto(`${baseUrl()}/dashboard`);
      await expect(page).toHaveURL(/\/sign-in/);
      await signInHere(page, who);
      await expect(page).toHaveURL(`${baseUrl()}/dashboard`);
      const total = page.locator("[data-fiat-across-tokens]");
      await expect(total).toHaveAttribute("data-fiat-across-tokens", "USD");
      await expect
        .poll(
          async () => {
            await page.reload();
            return total.innerText();
          },
          { timeout: 60_000 },
        )
        .toContain("$15.00");
      await expect(total).not.toContainText("Not included");
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-overview`);

      await page.goto(`${baseUrl()}/dashboard/orders/${usdOrder}`);
      const form = page.getByRole("form", { name: "Refund this order" });
      await expect(form).toBeVisible();
      // Each field as the other forms have it: the label above a full-width, padded input, a hint under it.
      for (const label of [/^Amount/, "Refund address", /^Reason/]) {
        const input = form.getByLabel(label);
        const style = await input.evaluate((el) => {
          const s = getComputedStyle(el);
          return { paddingTop: parseFloat(s.paddingTop), borderRadius: parseFloat(s.borderTopLeftRadius), display: s.display };
        });
        expect(style.paddingTop, String(label)).toBeGreaterThanOrEqual(4);
        expect(style.borderRadius, String(label)).toBeGreaterThan(0);
        const labelBox = await form.locator("label", { hasText: label }).first().boundingBox();
        const inputBox = await input.boundingBox();
        expect(labelBox!.y + labelBox!.height, String(label)).toBeLessThanOrEqual(inputBox!.y + 1);
      }
      await expect(form.getByText("Empty: everything still refundable.")).toBeVisible();
      // A wrong address: the message next to the field.
      await form.getByLabel("Refund address").fill("not-an-address");
      await form.getByRole("button", { name: "Prepare refund" }).click();
      await expect(form.getByLabel("Refund address")).toHaveAttribute("aria-invalid", "true");
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-refund-form`);
    });

    test("Sandbox › Create a test order starts on the chain with a wallet; without a wallet it says what to do", async ({ page }, testInfo) => {
      const who = await registerMerchant("Sandbox Shop");
      await page.goto(`${baseUrl()}/dashboard/sandbox`);
      await signInHere(page, who);
      await expect(page).toHaveURL(`${baseUrl()}/dashboard/sandbox`);
      const form = page.getByRole("form", { name: "Create a test order" });
      await expect(form.getByLabel("Blockchain")).toHaveValue("base");
      await expect(form.getByLabel("Currency")).toHaveValue("USDC");
      // The first click works.
      await form.getByRole("button", { name: "Create test order" }).click();
      await expect(form.getByTestId("action-result")).toContainText('"blockchain": "base"');
      await expect(form.getByRole("alert")).toHaveCount(0);
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-sandbox`);

      const bare = await registerMerchant("No Wallet Shop", false);
      await page.context().clearCookies();
      await page.goto(`${baseUrl()}/dashboard/sandbox`);
      await signInHere(page, bare);
      await expect(page).toHaveURL(`${baseUrl()}/dashboard/sandbox`);
      const card = page.getByRole("region", { name: "Create a test order" });
      await expect(card.getByRole("status")).toContainText("You have no wallet yet");
      await expect(card.getByRole("link", { name: "Add a wallet" })).toHaveAttribute("href", "/dashboard/wallets");
      await expect(card.getByLabel("Blockchain").locator("option:checked")).toContainText("(no wallet)");
      await expectNoAxeViolations(page);
    });

    test("pay page: the method choice before the instruction, one amount under it; Open in wallet app near the top on a phone", async ({ page }, testInfo) => {
      const merchant: Merchant = await createMerchant("Views Books");
      const order = await createOrder(merchant, {
        amount: undefined,
        price_amount: "10.00",
        price_currency: "USD",
        accepted_methods: [{ blockchain: "base", currency: "ETH" }],
      });
      await page.goto(`${baseUrl()}/pay/${order.order_id}`);
      const choice = page.getByTestId("method-choice");
      const status = page.getByTestId("status");
      await expect(status).toContainText("Send exactly the amount below in USDC");
      await expect(choice.getByRole("radio")).toHaveCount(2);
      const choiceBox = (await choice.boundingBox())!;
      const statusBox = (await status.boundingBox())!;
      expect(choiceBox.y + choiceBox.height).toBeLessThanOrEqual(statusBox.y);
      // Under the instruction: the one amount asked for (the tiles' amounts are all above it).
      await expect(page.getByTestId("amount")).toHaveCount(1);
      for (const tile of await page.getByTestId("pay-method").all()) expect((await tile.boundingBox())!.y).toBeLessThan(statusBox.y);
      // Choosing ETH: the instruction names ETH.
      // Clicked again until the page has hydrated (a click before that is the browser's alone).
      await expect(async () => {
        await choice.getByTestId("pay-method").filter({ hasText: "ETH" }).click();
        await expect(status).toContainText("Send exactly the amount below in ETH", { timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await expect(page.getByTestId("amount")).toContainText("ETH");
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-methods`);

      // A single-method order: on a phone "Open in wallet app" is on the first screen; a desktop has none.
      const single = await createOrder(merchant, { amount: "4.2" });
      await page.goto(`${baseUrl()}/pay/${single.order_id}`);
      await expect(page.getByTestId("status")).toContainText("Send exactly the amount below");
      const open = page.getByRole("link", { name: "Open in wallet app" });
      if (device.phone) {
        await expect(open).toBeVisible();
        await expect(open).toHaveAttribute("href", /^ethereum:/);
        const box = (await open.boundingBox())!;
        expect(box.y + box.height).toBeLessThanOrEqual(device.use.viewport.height);
        // In the status panel, right under the instruction.
        await expect(page.getByTestId("status").getByRole("link", { name: "Open in wallet app" })).toBeVisible();
      } else {
        await expect(open).toHaveCount(0);
      }
      await expect(page.getByTestId("open-in-wallet")).toHaveCount(device.phone ? 1 : 0);
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-single`);
    });

    test("an expired order links its return URL", async ({ page }, testInfo) => {
      const merchant = await createMerchant("Harbour Books");
      const back = `${baseUrl()}/?cart=42`;
      const order = await createOrder(merchant, { amount: "2", expires_at: inFuture(4), redirect_url: back });
      expect((await getPublicOrder(order.order_id)).redirect_url).toBeNull();
      await expect.poll(async () => (await getPublicOrder(order.order_id)).status, { timeout: 30_000 }).toBe("expired");
      await page.goto(`${baseUrl()}/pay/${order.order_id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment request has expired");
      const link = page.getByRole("link", { name: "Return to Harbour Books" });
      await expect(link).toHaveAttribute("href", back);
      // A link, not an automatic return: the customer stays until they choose.
      await expect(page.getByTestId("redirect-notice")).toHaveCount(0);
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-expired`);
      await link.click();
      await expect(page).toHaveURL(back);
    });
  });
}
