import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { installInjectedWallet } from "./injected-wallet";
import { api, baseUrl, getPublicOrder } from "./support";

/** hardhat account 6: funded, unlocked on the devnet, used by no other e2e test; the merchant's payout wallet here. */
const merchantWallet = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

test("the order page refunds with the merchant's browser wallet: prepare, Sign with my wallet, confirmed", async ({ page }) => {
  const username = `refund_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Refund Shop" })).status).toBe(201);
  const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
  expect(
    (await api("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: merchantWallet, confirmation_threshold: 1, is_active: true }, token)).status,
  ).toBe(201);
  const created = await api("POST", "/api/payment-orders/", { amount: "3", currency: "USDC", blockchain: "base", order_info: "{}", nonce: 1 }, token);
  const orderId = created.body.data.order_id as string;
  expect((await api("POST", `/api/sandbox/payment-orders/${orderId}/pay/`, {}, token)).status).toBe(201);
  await expect.poll(async () => (await getPublicOrder(orderId)).status, { timeout: 60_000 }).toBe("confirmed");
  // The sandbox sweeper flushes the deposit into the merchant's wallet.
  await expect
    .poll(async () => (await api("GET", `/api/payment-orders/${orderId}/`, undefined, token)).body.data.sweep?.status, { timeout: 60_000 })
    .toBe("succeeded");

  const { blockchain } = await getPublicOrder(orderId);
  await page.addInitScript(installInjectedWallet, { rpcUrl: blockchain.rpc_url, address: merchantWallet, chainId: blockchain.chain_id });
  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto(`${baseUrl()}/dashboard/orders/${orderId}`);

  const customer = `0x${randomBytes(20).toString("hex")}`;
  const form = page.getByRole("form", { name: "Refund this order" });
  await form.getByLabel(/^Amount/).fill("1.25");
  await form.getByLabel("Refund address").fill(customer);
  await form.getByRole("button", { name: "Prepare refund" }).click();
  await expect(form).toContainText("Refund of 1.25 USDC prepared");
  await page.getByRole("button", { name: "Sign with my wallet" }).click();
  await expect(page.getByText(/Refund sent: 0x[0-9a-f]{64}/)).toBeVisible();
  await expect
    .poll(async () => (await api("GET", `/api/payment-orders/${orderId}/refunds/`, undefined, token)).body.data[0]?.status, { timeout: 60_000 })
    .toBe("confirmed");
  await page.reload();
  await expect(page.locator("tr[data-refund]")).toContainText("confirmed");
});
