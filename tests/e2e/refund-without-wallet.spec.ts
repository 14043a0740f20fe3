import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { startSmtpSink, linkToken } from "../helpers/smtp-sink";
import { startAppServerOnTestDatabase, type AppServer } from "./app-server";
import { installInjectedWallet } from "./injected-wallet";
import { expectNoAxeViolations } from "./support";

/**
 * Issue 52 item 3: a real refund to an address given without a wallet. The customer (who would pay
 * from an exchange) gives an e-mail while the payment is due, overpays, asks the payment page for a
 * link, follows the link from the mail (a real SMTP server here: this spec starts its own app with
 * SMTP_URL, same build, its own devnet), names an address; the merchant sees how it was given, and
 * refunds the overpaid part to it with their browser wallet, confirmed on chain. The mail is the
 * customer's own: the store owner's outbox does not show it.
 */
let server: AppServer;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  sink = await startSmtpSink();
  server = await startAppServerOnTestDatabase({ distDir: process.env.E2E_DIST_DIR || ".next-e2e", devnet: true, env: { SMTP_URL: sink.url } });
});
test.afterAll(async () => {
  await server?.stop();
  await sink?.close();
});

/** hardhat account 6: funded and unlocked on this spec's own devnet; the merchant's payout wallet. */
const merchantWallet = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

async function api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto(`${server.baseUrl}/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a refund to an address given through the mailed link, no wallet on the customer's side (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const username = `rnw_${randomBytes(4).toString("hex")}`;
    const password = "correct horse battery staple";
    expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Exchange Tea" })).status).toBe(201);
    const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
    expect(
      (await api("PUT", "/api/branding/", { support_email: "help@exchange-tea.example", support_url: "https://exchange-tea.example/help" }, token)).status,
    ).toBe(200);
    expect(
      (await api("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: merchantWallet, confirmation_threshold: 1, is_active: true }, token))
        .status,
    ).toBe(201);
    const created = await api(
      "POST",
      "/api/payment-orders/",
      { amount: "3", currency: "USDC", blockchain: "base", order_info: "{}", nonce: viewport.width },
      token,
    );
    const orderId = created.body.data.order_id as string;

    // The customer: no browser wallet at all. While the payment is due, they give an e-mail for the receipt.
    const customer = await browser.newContext({ viewport, colorScheme: viewport.width < 500 ? "dark" : "light" });
    const pay = await customer.newPage();
    const email = `buyer_${randomBytes(4).toString("hex")}@example.com`;
    await pay.goto(`${server.baseUrl}/pay/${orderId}`);
    await expect(pay.getByTestId("store-support")).toContainText("help@exchange-tea.example");
    await pay.locator("#receipt-email").fill(email);
    await pay.getByRole("button", { name: "Save", exact: true }).click();
    await expect(pay.getByText(`We will e-mail your receipt to ${email}.`)).toBeVisible();

    // Paid from "an exchange": 5 USDC for a 3 USDC order (the sandbox faucet sends it).
    expect((await api("POST", `/api/sandbox/payment-orders/${orderId}/pay/`, { amount: "5" }, token)).status).toBe(201);
    await expect.poll(async () => (await api("GET", `/api/pay/${orderId}/`)).body.data.status, { timeout: 60_000 }).toBe("confirmed");
    await expect
      .poll(async () => (await api("GET", `/api/payment-orders/${orderId}/`, undefined, token)).body.data.sweep?.status, { timeout: 60_000 })
      .toBe("succeeded");

    const refundPart = pay.getByTestId("refund-address");
    await expect(refundPart).toBeVisible({ timeout: 20_000 });
    await expect(refundPart.getByTestId("store-support")).toContainText("help@exchange-tea.example");
    await refundPart.getByRole("button", { name: "E-mail me a link" }).click();
    await expect(refundPart.getByRole("status")).toContainText(`We sent a link to ${email[0]}•••@example.com`);
    await expectNoAxeViolations(pay);

    // The customer's inbox (a real SMTP server): the link, opened in the same browser.
    const mail = await sink.waitFor(email, /where should your refund go/, 1, 20_000);
    const linkUrl = `${server.baseUrl}/pay/${orderId}/refund-address?token=${linkToken(mail, "/refund-address")}`;
    const refundTo = `0x${randomBytes(20).toString("hex")}`;
    await pay.goto(linkUrl);
    await expect(pay.getByRole("heading", { name: "Where should your refund go?" })).toBeVisible();
    await expectNoAxeViolations(pay);
    await pay.getByLabel("Your address on").fill(refundTo);
    await pay.getByRole("button", { name: "Save refund address" }).click();
    await expect(pay.getByTestId("refund-link-saved")).toContainText("Exchange Tea will send your refund to");
    // Single use: opened again, the link says so.
    await pay.goto(linkUrl);
    await expect(pay.getByTestId("refund-link-page")).toContainText("already used");
    await customer.close();

    // The merchant: sees how the address was given, and refunds the 2 USDC paid over to it with their wallet.
    const merchant = await browser.newContext({ viewport });
    const page = await merchant.newPage();
    const order = (await api("GET", `/api/payment-orders/${orderId}/`, undefined, token)).body.data;
    expect(order).toMatchObject({ refund_address_source: "email_link", refund_address_given_by: email });
    const { blockchain } = (await api("GET", `/api/pay/${orderId}/`)).body.data;
    await page.addInitScript(installInjectedWallet, { rpcUrl: blockchain.rpc_url, address: merchantWallet, chainId: blockchain.chain_id });
    await signIn(page, username, password);
    // The link was the customer's credential: the owner's outbox does not hold it.
    await page.goto(`${server.baseUrl}/dashboard/outbox`);
    await expect(page.getByText("where should your refund go")).toHaveCount(0);
    await page.goto(`${server.baseUrl}/dashboard/orders/${orderId}`);
    await expect(page.getByTestId("refund-address-provenance")).toContainText(`one-time link e-mailed to ${email}`);
    const form = page.getByRole("form", { name: "Refund this order" });
    await expect(form.getByLabel("Refund address")).toHaveValue(order.refund_address);
    await form.getByLabel(/^Amount/).fill("2");
    await form.getByRole("button", { name: "Prepare refund" }).click();
    await expect(form).toContainText("Refund of 2 USDC prepared");
    await page.getByRole("button", { name: "Sign with my wallet" }).click();
    await expect(page.getByText(/Refund sent: 0x[0-9a-f]{64}/)).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(async () => (await api("GET", `/api/payment-orders/${orderId}/refunds/`, undefined, token)).body.data[0]?.status, { timeout: 60_000 })
      .toBe("confirmed");
    const [refund] = (await api("GET", `/api/payment-orders/${orderId}/refunds/`, undefined, token)).body.data;
    expect(refund).toMatchObject({ to_address: order.refund_address, amount: "2" });
    await merchant.close();
  });
}
