import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { injectedWalletName, installInjectedWallet } from "./injected-wallet";
import { axeScan, baseUrl, createMerchant, createOrder, expectTransactionShown, faucet, getOrder, getPublicOrder, quietChain, type Merchant } from "./support";

/** hardhat account 5: funded with ETH, unlocked on the devnet, not used by the gateway (0 deploys, 1 faucet, 2 sweeper). */
const customer = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
/** hardhat account 1: the sandbox faucet, which the sandbox pay tool pays from. */
const sandboxFaucet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant();
});

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** Collects layout shifts not caused by input (Cumulative Layout Shift). */
async function watchLayoutShift(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: false });
  });
  return () => page.evaluate(() => (window as unknown as { __cls: number }).__cls);
}

const inFuture = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

test("renders the order, the QR code and a running countdown, and nothing private", async ({ page }, testInfo) => {
  const order = await createOrder(merchant, {
    amount: "10.5",
    order_info: '{"customer":"private-customer@example.com"}',
    webhook_url: "https://merchant.example.com/private-hook",
  });
  const response = await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  expect(response?.status()).toBe(200);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 10.5 USDC");
  await expect(page.getByText("Payment to Lighthouse Books")).toBeVisible();
  await expect(page.getByText("Base (local devnet)", { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId("address")).toHaveText(order.receiving_address);
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await expect(page.getByTestId("status")).toContainText("Waiting for payment");

  const qr = page.getByRole("img", { name: /QR code to pay 10\.5 USDC/ });
  await expect(qr).toHaveAttribute("alt", new RegExp(order.receiving_address));
  await expect(qr).toHaveAttribute("src", `/pay/${order.order_id}/qr.svg?due=10500000`);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const countdown = page.getByTestId("countdown");
  await expect(countdown).toHaveText(/^(29|30):\d\d/);
  const first = await countdown.innerText();
  await expect.poll(() => countdown.innerText(), { timeout: 5_000 }).not.toBe(first);

  const html = await page.content();
  for (const secret of ["private-customer@example.com", "private-hook", "order_info", "webhook_url", `"nonce"`, String(order.nonce)]) {
    expect(html).not.toContain(secret);
  }
  await shot(page, testInfo, "pending");

  // Unknown and numeric ids: the not-found page.
  const missing = await page.goto(`${baseUrl()}/pay/ORD-doesnotexist000000`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
  await shot(page, testInfo, "not-found");
});

test("a simulated payment moves through confirmations to confirmed and redirects, without layout shift", quietChain, async ({ page }, testInfo) => {
  const redirect = `${baseUrl()}/?paid=1`;
  const order = await createOrder(merchant, { amount: "3", redirect_url: redirect });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByTestId("status")).toContainText("Waiting for payment");
  const cls = await watchLayoutShift(page);

  await page.getByRole("button", { name: "Pay in full" }).click();
  await expect(page.getByTestId("status")).toContainText("Payment seen");
  await expect(page.getByTestId("confirmations")).toContainText(/[12] of 3 confirmations/);
  await expect(page.getByRole("progressbar", { name: "Confirmations" })).toHaveAttribute("aria-valuemax", "3");
  await shot(page, testInfo, "processing");

  await expect(page.getByTestId("status")).toContainText("Payment confirmed");
  await expect(page.getByTestId("tx-hash")).toBeVisible();
  await expect(page.getByTestId("redirect-notice")).toContainText("Returning you to Lighthouse Books");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paid 3 USDC");
  // The QR code, address and wallet have left; the page did not jump (what stays sits above them).
  await expect(page.getByRole("img", { name: /QR code/ })).toHaveCount(0);
  expect(await cls()).toBeLessThan(0.02);
  await shot(page, testInfo, "confirmed");

  const confirmed = await getOrder(merchant, order.order_id);
  expect(confirmed.status).toBe("confirmed");
  await expect(page.getByTestId("tx-hash")).toHaveAttribute("title", confirmed.transaction.transaction_hash);

  await page.waitForURL(redirect, { timeout: 15_000 });
});

test("pays through a browser wallet (EIP-6963, wagmi) and the order confirms", quietChain, async ({ page }, testInfo) => {
  const order = await createOrder(merchant, { amount: "12.25", currency: "USDC" });
  const { blockchain } = await getPublicOrder(order.order_id);
  expect(blockchain.rpc_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  await faucet(merchant, customer, "USDC", "100");
  await page.addInitScript(installInjectedWallet, { rpcUrl: blockchain.rpc_url, address: customer, chainId: blockchain.chain_id });

  const wagmiRequests: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") wagmiRequests.push(request.url());
  });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  const scriptsBefore = wagmiRequests.length;

  await page.getByRole("button", { name: "Connect wallet" }).click();
  // The wallet code is a separate chunk, loaded on demand.
  await expect.poll(() => wagmiRequests.length).toBeGreaterThan(scriptsBefore);
  await page.getByRole("button", { name: injectedWalletName }).click();
  await expect(page.getByText(`Connected: ${customer}`)).toBeVisible();
  await shot(page, testInfo, "wallet-connected");

  await page.getByRole("button", { name: "Pay 12.25 USDC" }).click();
  const sentByWallet = () => page.evaluate(() => (window as unknown as { __e2eWallet: { sent: string[] } }).__e2eWallet.sent);
  await expect.poll(sentByWallet).toHaveLength(1);
  const [hash] = (await sentByWallet()) as [string];
  await expectTransactionShown(page, hash);

  await expect(page.getByTestId("status")).toContainText("Payment seen");
  await shot(page, testInfo, "wallet-paid");
  await page.getByRole("button", { name: "Mine confirmations" }).click();
  await expect(page.getByTestId("status")).toContainText("Payment confirmed");

  const confirmed = await getOrder(merchant, order.order_id);
  expect(confirmed).toMatchObject({ status: "confirmed", amount_received: "12.25" });
  expect(confirmed.transaction.transaction_hash).toBe(hash);
  await shot(page, testInfo, "wallet-confirmed");
});

test("an order with no payment expires and says what to do", async ({ page }, testInfo) => {
  const order = await createOrder(merchant, { amount: "2", expires_at: inFuture(5) });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByTestId("status")).toContainText("Waiting for payment");
  await expect(page.getByTestId("status")).toContainText("This payment request has expired", { timeout: 30_000 });
  await expect(page.getByTestId("status")).toContainText("Do not send funds to this address now");
  await expect(page.getByRole("button", { name: "Pay in full" })).toBeDisabled();
  // Nothing to pay with is left on screen: no QR code, no address to copy, no wallet.
  await expect(page.getByRole("img", { name: /QR code/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy the deposit address" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Connect wallet" })).toHaveCount(0);
  await shot(page, testInfo, "expired");
});

test("at the deadline the page says time is up by itself, before the gateway has marked the order expired", async ({ page }) => {
  // Time enough to see it open on a loaded machine (4 s was not, at a load of 14).
  const order = await createOrder(merchant, { amount: "2", expires_at: inFuture(10) });
  // The gateway's answer while the order was still pending, served for every status request: the
  // moment between the deadline and the lifecycle pass that expires the order.
  const pending = await page.request.get(`${baseUrl()}/api/pay/${order.order_id}/`);
  const pendingBody = await pending.text();
  await page.route(`**/api/pay/${order.order_id}/`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: pendingBody }));
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  const status = page.getByTestId("status");
  await expect(status).toContainText("Waiting for payment");
  await expect(status).toContainText("Time is up", { timeout: 20_000 });
  await expect(status).toContainText("Checking for a payment that arrived at the last moment");
  await expect(page.getByTestId("countdown")).toHaveText(/^0?0:00/);
});

test("a partial payment that runs out of time is underpaid, with what arrived and what is missing", async ({ page }, testInfo) => {
  const order = await createOrder(merchant, { amount: "8", expires_at: inFuture(12) });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await page.getByRole("button", { name: "Pay half of what is missing" }).click();
  await expect(page.getByTestId("partial")).toContainText("4 USDC of 8 USDC arrived");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay the remaining 4 USDC");
  await shot(page, testInfo, "partial");
  await expect(page.getByTestId("status")).toContainText("Payment incomplete", { timeout: 30_000 });
  await expect(page.getByTestId("underpaid")).toContainText("Only 4 USDC of 8 USDC arrived");
  await shot(page, testInfo, "underpaid");
});

test("has no serious accessibility violations in the waiting and confirmed states", async ({ page }) => {
  const order = await createOrder(merchant, { amount: "1" });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await expect(page.getByTestId("status")).toContainText("Waiting for payment");
  const serious = async () => {
    const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  };
  expect(await serious()).toEqual([]);
  await page.getByRole("button", { name: "Pay in full" }).click();
  await expect(page.getByTestId("status")).toContainText("Payment confirmed");
  expect(await serious()).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, permissions: ["clipboard-read", "clipboard-write"] });

  test("fits the screen and works with the keyboard", async ({ page }, testInfo) => {
    const order = await createOrder(merchant, { amount: "0.015", currency: "ETH" });
    await page.goto(`${baseUrl()}/pay/${order.order_id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pay 0.015 ETH");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, testInfo, "phone");

    // Keyboard: tab to the address's copy button and press Enter (past the language links at the top).
    const copy = page.getByRole("button", { name: "Copy the deposit address" });
    for (let i = 0; i < 20 && !(await copy.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(copy).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(copy).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(order.receiving_address);

    // And on to the wallet button, which opens with the keyboard too.
    const connect = page.getByRole("button", { name: "Connect wallet" });
    for (let i = 0; i < 10 && !(await connect.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(connect).toBeFocused();
  });
});

test("an overpaid order lets the paying wallet sign a refund address; the merchant's order shows it was payer-signed", async ({ page }) => {
  const order = await createOrder(merchant, { amount: "1" });
  const paid = await fetch(`${baseUrl()}/api/sandbox/payment-orders/${order.order_id}/pay/`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify({ amount: "1.5" }),
  });
  expect(paid.status).toBe(201);
  await fetch(`${baseUrl()}/api/sandbox/mine/`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify({ blocks: 3, blockchain: "base" }),
  });
  await expect.poll(async () => (await getPublicOrder(order.order_id)).status, { timeout: 60_000 }).toBe("confirmed");
  // Without a wallet the page says who must sign.
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  const section = page.getByTestId("refund-address");
  await expect(section).toContainText("You paid more than the amount");
  await expect(section).toContainText("must be signed by the wallet you paid with");
  // The sandbox pay tool paid from the faucet (hardhat account 1, unlocked): that wallet signs (personal_sign on the devnet).
  const { blockchain } = await getPublicOrder(order.order_id);
  await page.addInitScript(installInjectedWallet, { rpcUrl: blockchain.rpc_url, address: sandboxFaucet, chainId: blockchain.chain_id });
  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await section.getByLabel("Your address").fill(customer);
  await section.getByRole("button", { name: "Sign and save refund address" }).click();
  await expect(section).toContainText(`Refund address left: ${customer}`);
  expect(await getOrder(merchant, order.order_id)).toMatchObject({ refund_address: customer, refund_address_signed_by: sandboxFaucet });
});
