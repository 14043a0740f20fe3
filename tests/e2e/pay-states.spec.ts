/**
 * The hosted pay page shows the truth in every state (issue 27): pending, partial, confirmed,
 * expired and failed, on a desktop and on a phone, each with axe at 0 violations. Orders are paid
 * for real on the sandbox devnet (POST /api/sandbox/payment-orders/{id}/pay/), as a customer's
 * wallet would.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import QRCode from "qrcode";
import { injectedWalletName, installInjectedWallet } from "./injected-wallet";
import { baseUrl, createMerchant, createOrder, expectNoAxeViolations, getPublicOrder, type Merchant } from "./support";

/** hardhat account 7: unlocked on the devnet, used by no other spec (specs run side by side). */
const walletCustomer = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant();
});

const inFuture = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

async function sandboxPost(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.text()}`).toBeLessThan(300);
}

/** A real devnet transfer of `amount` to the order's deposit address; waits until the order has counted it. */
async function pay(orderId: string, amount: string, received: string): Promise<void> {
  await sandboxPost(`/api/sandbox/payment-orders/${orderId}/pay/`, { amount });
  await expect.poll(async () => (await getPublicOrder(orderId)).amount_received, { timeout: 30_000 }).toBe(received);
}

async function confirm(orderId: string): Promise<void> {
  await sandboxPost("/api/sandbox/mine/", { blocks: 3, blockchain: "base" });
  await expect.poll(async () => (await getPublicOrder(orderId)).status, { timeout: 60_000 }).toBe("confirmed");
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** No QR code, no deposit address, no copy or wallet button: nothing on screen to pay with. */
async function expectNothingPayable(page: Page, address: string) {
  await expect(page.getByRole("img", { name: /QR code/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Copy/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Connect wallet" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Open in wallet app" })).toHaveCount(0);
  expect(await page.locator("main").innerText()).not.toContain(address);
}

for (const device of [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true } },
]) {
  test.describe(`every state on a ${device.name}`, () => {
    test.use({ ...device.use, permissions: ["clipboard-read", "clipboard-write"] });

    test("pending, partial, confirmed, expired and failed show what is true, with 0 axe violations", async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      // The orders that must run out of time are created first, so their clocks run while the others are checked.
      const expiring = await createOrder(merchant, { amount: "2", expires_at: inFuture(8) });
      const underpaid = await createOrder(merchant, { amount: "8", expires_at: inFuture(15) });
      await pay(underpaid.order_id, "3", "3");

      // Pending: the whole amount everywhere.
      const pending = await createOrder(merchant, { amount: "7.25" });
      await page.goto(`${baseUrl()}/pay/${pending.order_id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 7.25 USDC");
      await expect(page.getByTestId("amount")).toHaveText("7.25 USDC");
      await expect(page.getByRole("img", { name: /QR code to pay 7\.25 USDC/ })).toBeVisible();
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-pending`);

      // Partial: 5 of 20 USDC arrived; headline, amount, Copy, QR code (and the wallet link on a phone) ask for 15.
      const partial = await createOrder(merchant, { amount: "20" });
      await pay(partial.order_id, "5", "5");
      await page.goto(`${baseUrl()}/pay/${partial.order_id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay the remaining 15 USDC");
      await expect(page.getByTestId("partial")).toContainText("5 USDC of 20 USDC arrived");
      await expect(page.getByRole("progressbar", { name: "Amount received" })).toHaveAttribute("aria-valuenow", "25");
      await expect(page.getByTestId("amount")).toHaveText("15 USDC");
      await page.getByRole("button", { name: "Copy the amount" }).click();
      await expect(page.getByRole("button", { name: "Copy the amount" })).toHaveText("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("15");
      const { token } = await getPublicOrder(partial.order_id);
      const uri = `ethereum:${token.address}@31337/transfer?address=${partial.receiving_address}&uint256=15000000`;
      const qr = page.getByRole("img", { name: /QR code to pay 15 USDC/ });
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const qrSrc = await qr.getAttribute("src");
      // The route's code is the EIP-681 URI of the remainder (qrcode is deterministic: same text, same SVG).
      const served = await (await fetch(`${baseUrl()}${qrSrc}`)).text();
      expect(served).toBe(await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 }));
      if (device.name === "phone") {
        await expect(page.getByRole("link", { name: "Open in wallet app" })).toHaveAttribute("href", uri);
      } else {
        await expect(page.getByRole("link", { name: "Open in wallet app" })).toHaveCount(0);
      }
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-partial`);

      // Confirmed: "Paid", a result panel and the way back to the shop; nothing to pay with.
      const confirmed = await createOrder(merchant, { amount: "7.25", redirect_url: `${baseUrl()}/?paid=1` });
      await pay(confirmed.order_id, "7.25", "7.25");
      await confirm(confirmed.order_id);
      await page.goto(`${baseUrl()}/pay/${confirmed.order_id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paid 7.25 USDC");
      await expect(page.getByTestId("status")).toContainText("Payment confirmed");
      await expect(page.getByRole("link", { name: "Return to Lighthouse Books now" })).toHaveAttribute("href", `${baseUrl()}/?paid=1`);
      await page.getByRole("button", { name: "Stay on this page" }).click();
      await expectNothingPayable(page, confirmed.receiving_address);
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-confirmed`);

      // Expired: what happened and what to do next.
      await expect.poll(async () => (await getPublicOrder(expiring.order_id)).status, { timeout: 30_000 }).toBe("expired");
      await page.goto(`${baseUrl()}/pay/${expiring.order_id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment request has expired");
      await expect(page.getByTestId("status")).toContainText("Do not send funds to this address now. Go back to Lighthouse Books and start a new payment.");
      await expectNothingPayable(page, expiring.receiving_address);
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-expired`);

      // Failed (underpaid): what arrived, and that the merchant sees it and can refund.
      await expect.poll(async () => (await getPublicOrder(underpaid.order_id)).status, { timeout: 40_000 }).toBe("failed");
      await page.goto(`${baseUrl()}/pay/${underpaid.order_id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment incomplete");
      await expect(page.getByTestId("underpaid")).toHaveText("Only 3 USDC of 8 USDC arrived before the deadline.");
      await expect(page.getByTestId("status")).toContainText("Lighthouse Books sees this payment on the order and can refund it");
      await expect(page.getByTestId("refund-address")).toBeVisible();
      await expectNothingPayable(page, underpaid.receiving_address);
      await expectNoAxeViolations(page);
      await shot(page, testInfo, `${device.name}-failed`);
      // Nothing wider than the screen (the refund form's address field included).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(device.use.viewport.width);
    });
  });
}

test("a payment after the deadline: the customer is told plainly that the merchant sees it and can refund", async ({ page }) => {
  const order = await createOrder(merchant, { amount: "2", expires_at: inFuture(4) });
  await expect.poll(async () => (await getPublicOrder(order.order_id)).status, { timeout: 30_000 }).toBe("expired");
  // A late payment is recorded but not counted (amount_received stays 0): the order turns failed.
  await sandboxPost(`/api/sandbox/payment-orders/${order.order_id}/pay/`, { amount: "2" });
  await expect.poll(async () => (await getPublicOrder(order.order_id)).failure_reason, { timeout: 40_000 }).toBe("late_payment");
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment arrived too late");
  await expect(page.getByTestId("status")).toContainText(
    "Lighthouse Books sees this payment on the order and can refund it: leave the address to refund to below.",
  );
  await expectNothingPayable(page, order.receiving_address);
});

test("an ETH order reads six significant digits in the headline; Copy and the QR code keep every wei", async ({ page }) => {
  const order = await createOrder(merchant, { amount: "0.003177077686318523", currency: "ETH" });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 0.00317708 ETH");
  await expect(page.getByTestId("amount")).toHaveText("0.003177077686318523 ETH");
  await page.getByRole("button", { name: "Copy the amount" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("0.003177077686318523");
  await expect(page.getByRole("img", { name: /QR code/ })).toHaveAttribute("src", `/pay/${order.order_id}/qr.svg?due=3177077686318523`);
});

test("without a browser wallet, Connect wallet says so and points to the QR code and copy, without loading wallet code", async ({ page }) => {
  const order = await createOrder(merchant, { amount: "1" });
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByTestId("status")).toContainText("Waiting for payment");
  // Every script the page loads by itself first (on a busy machine a chunk can still be on its way here).
  await page.waitForLoadState("networkidle");
  const before = scripts.length;
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText(/No browser wallet was found on this device\. Scan the QR code/);
  // The QR code and the copy buttons are still there to pay with.
  await expect(page.getByRole("img", { name: /QR code to pay 1 USDC/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy the amount" })).toBeVisible();
  expect(scripts.length).toBe(before);
});

test.describe("in dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the page follows prefers-color-scheme, with 0 axe violations", async ({ page }) => {
    const order = await createOrder(merchant, { amount: "1" });
    await page.goto(`${baseUrl()}/pay/${order.order_id}`);
    await expect(page.getByTestId("status")).toContainText("Waiting for payment");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(11, 17, 32)");
    await expectNoAxeViolations(page);
  });
});

test("a wallet on another network gets a prompt that switches it, then is offered what is due", async ({ page }) => {
  const order = await createOrder(merchant, { amount: "20" });
  await pay(order.order_id, "5", "5");
  const { blockchain } = await getPublicOrder(order.order_id);
  // Starts on Ethereum mainnet and refuses the switch wagmi asks for while connecting.
  await page.addInitScript(installInjectedWallet, {
    rpcUrl: blockchain.rpc_url!,
    address: walletCustomer,
    chainId: blockchain.chain_id,
    startChainId: 1,
    failFirstSwitch: true,
  });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("button", { name: injectedWalletName }).click();
  await expect(page.getByText(`Connected: ${walletCustomer}`)).toBeVisible();
  await expect(page.getByText(`Your wallet is on another network. This payment is on ${blockchain.name}.`)).toBeVisible();
  await page.getByRole("button", { name: `Switch to ${blockchain.name}` }).click();
  // Switched: the wallet button asks for the remainder.
  await expect(page.getByRole("button", { name: "Pay 15 USDC" })).toBeEnabled();
  await expect(page.getByText("Your wallet is on another network.")).toHaveCount(0);
});

test("a fiat-priced order leads with its price; the token amount follows, and Copy holds the exact token amount", async ({ page }) => {
  const res = await fetch(`${baseUrl()}/api/payment-orders/`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify({ price_amount: "10.00", price_currency: "EUR", currency: "ETH", blockchain: "base", order_info: "{}", nonce: Date.now() }),
  });
  const body = (await res.json()) as { data: { order_id: string; amount: string } };
  expect(res.status, JSON.stringify(body)).toBe(201);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`${baseUrl()}/pay/${body.data.order_id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay €10.00");
  await expect(page.getByTestId("subline")).toContainText(/^[\d.]+ ETH on Base/);
  await page.getByRole("button", { name: "Copy the amount" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(body.data.amount);
});
