import { expect, test, type Page } from "@playwright/test";
import { installInjectedWallet } from "./injected-wallet";
import { api, baseUrl, createMerchant, expectNoAxeViolations, type Merchant } from "./support";

/**
 * Hardhat accounts 10 and 11: unlocked on the devnet (they sign typed data there), used by no other
 * browser test. One per test, so the two runs' permit nonces never race.
 */
const desktopCustomer = "0xBcd4042DE499D14e55001CcbB24a551F3b954096";
const phoneCustomer = "0x71bE63f3384f5fb98995898A86B02Fb2426c5788";

let merchant: Merchant;
let plan: string;
let devnet: { rpcUrl: string; chainId: number };

test.beforeAll(async () => {
  merchant = await createMerchant("Tidewater Coffee Club");
  const created = await api(
    "POST",
    "/api/subscription-plans/",
    { name: "Coffee of the month", blockchain: "base", currency: "USDC", amount: "12.50", interval_days: 30, trial_days: 7, periods: 12 },
    merchant.token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  plan = created.body.data.id;
  const chains = await api("GET", "/api/blockchains/", undefined, merchant.token);
  const list = (chains.body.results ?? chains.body.data?.results ?? chains.body.data) as { slug: string; chain_id: number; rpc_url: string }[];
  const base = list.find((c) => c.slug === "base")!;
  devnet = { rpcUrl: base.rpc_url, chainId: base.chain_id };
});

async function subscriptionFor(customer: string) {
  const res = await api("POST", "/api/subscriptions/", { plan, customer_address: customer }, merchant.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; pull_address: string; authorization: { method: string; value: string } };
}

/** Subscribes on the hosted page with the injected wallet, and cancels from the manage link it gives. */
async function subscribeAndCancel(page: Page, customer: string, screenshot: (name: string) => string) {
  const sub = await subscriptionFor(customer);
  expect(sub.authorization.method).toBe("permit");
  await page.addInitScript(installInjectedWallet, { rpcUrl: devnet.rpcUrl, address: customer, chainId: devnet.chainId });

  await page.goto(`${baseUrl()}/subscribe/${sub.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Coffee of the month" })).toBeVisible();
  await expect(page.getByTestId("cap")).toHaveText("at most 12.5 USDC");
  await expect(page.getByText("150 USDC")).toBeVisible(); // the whole allowance: 12 periods
  await expect(page.getByText("How to cancel")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Connect wallet" }).click();
  await expect(page.getByText(`Connected: ${customer}`)).toBeVisible();
  const authorized = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === `/api/hosted-subscriptions/${sub.id}/authorize/`,
  );
  await page.getByRole("button", { name: "Sign and subscribe" }).click();
  expect((await authorized).status()).toBe(200);
  const manage = page.getByTestId("manage-link");
  await expect(manage).toBeVisible();
  const wallet = await page.evaluate(() => (window as unknown as { __e2eWallet: { requests: string[]; sent: string[] } }).__e2eWallet);
  expect(wallet.requests).toContain("eth_signTypedData_v4");
  expect(wallet.sent).toEqual([]); // one signature, no transaction: the gateway paid the gas
  await expectNoAxeViolations(page);
  await page.screenshot({ path: screenshot("subscribed.png"), fullPage: true });

  const href = (await manage.getAttribute("href"))!;
  expect(new URL(href).pathname).toMatch(new RegExp(`^/subscribe/manage/${sub.id}\\.[A-Za-z0-9_-]{43}$`));
  // The bare id is no manage link.
  expect((await page.request.get(`${baseUrl()}/subscribe/manage/${sub.id}`)).status()).toBe(404);

  await page.goto(`${baseUrl()}${new URL(href).pathname}`);
  await expect(page.getByTestId("subscription-status")).toHaveText("In trial");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByTestId("subscription-status")).toHaveText("Canceled");
  await expect(page.getByText("Your subscription is canceled.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Revoke in wallet" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: screenshot("canceled.png"), fullPage: true });

  const after = await api("GET", `/api/subscriptions/${sub.id}/`, undefined, merchant.token);
  expect(after.body.data).toMatchObject({ status: "canceled" });
  expect(after.body.data.history.at(-1)).toMatchObject({ kind: "canceled", detail: { by: "customer" } });
  return sub;
}

test("a customer subscribes with one signature on the hosted page and cancels from the manage link", async ({ page }, testInfo) => {
  await subscribeAndCancel(page, desktopCustomer, (name) => testInfo.outputPath(name));
  // And revokes the allowance from the manage page: approve(pull contract, 0) from their wallet.
  await page.getByRole("button", { name: "Revoke in wallet" }).click();
  await expect(page.getByTestId("revoked")).toBeVisible();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test("subscribe and cancel at 390×844, without sideways scrolling", async ({ page }, testInfo) => {
    await subscribeAndCancel(page, phoneCustomer, (name) => testInfo.outputPath(`phone-${name}`));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test("dark mode: the subscribe page keeps its contrast", async ({ page }) => {
  const sub = await subscriptionFor(desktopCustomer);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`${baseUrl()}/subscribe/${sub.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("an unknown subscription is a plain 404 page", async ({ page }) => {
  const res = await page.goto(`${baseUrl()}/subscribe/SUB-0000000000000000`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This subscription is not available" })).toBeVisible();
});
