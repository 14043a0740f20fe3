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

/** A store and its monthly plan. */
async function coffeeClub(): Promise<{ merchant: Merchant; plan: string }> {
  const owner = await createMerchant("Tidewater Coffee Club");
  const created = await api(
    "POST",
    "/api/subscription-plans/",
    { name: "Coffee of the month", blockchain: "base", currency: "USDC", amount: "12.50", interval_days: 30, trial_days: 7, periods: 12 },
    owner.token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { merchant: owner, plan: created.body.data.id };
}

test.beforeAll(async () => {
  ({ merchant, plan } = await coffeeClub());
  const chains = await api("GET", "/api/blockchains/", undefined, merchant.token);
  const list = (chains.body.results ?? chains.body.data?.results ?? chains.body.data) as { slug: string; chain_id: number; rpc_url: string }[];
  const base = list.find((c) => c.slug === "base")!;
  devnet = { rpcUrl: base.rpc_url, chainId: base.chain_id };
});

async function subscriptionFor(customer: string, store: { merchant: Merchant; plan: string } = { merchant, plan }) {
  const res = await api("POST", "/api/subscriptions/", { plan: store.plan, customer_address: customer }, store.merchant.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; pull_address: string; authorization: { method: string; value: string } };
}

/** Subscribes on the hosted page with the injected wallet, and cancels from the manage link it gives. */
async function subscribeAndCancel(page: Page, customer: string, screenshot: (name: string) => string) {
  // A store of its own: the permit's relay gas counts against the store's hourly gasless budget, which one
  // subscription's deploy nearly fills (GASLESS_GAS_PER_MERCHANT_PER_HOUR).
  const store = await coffeeClub();
  const sub = await subscriptionFor(customer, store);
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

  const after = await api("GET", `/api/subscriptions/${sub.id}/`, undefined, store.merchant.token);
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

/** A plan with its public link on: its page's URL. */
async function sharedPlan(body: Record<string, unknown> = {}) {
  const created = await api(
    "POST",
    "/api/subscription-plans/",
    { name: "Coffee club", blockchain: "base", currency: "USDC", amount: "9.00", interval_days: 30, trial_days: 14, public_link: true, ...body },
    merchant.token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const plan = created.body.data as { id: string; public_url: string };
  expect(new URL(plan.public_url).pathname).toBe(`/subscribe/plan/${plan.id}`);
  return { id: plan.id, url: `${baseUrl()}/subscribe/plan/${plan.id}` };
}

/** On the plan's public page: the terms, a wallet typed in (or read from the browser wallet), Continue, and the customer's own subscribe page. */
async function startFromPlanLink(page: Page, customer: string, fill: "type" | "browserWallet") {
  const plan = await sharedPlan();
  const created = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === `/api/hosted-plans/${plan.id}/subscriptions/`);
  await page.goto(plan.url);
  await expect(page.getByRole("heading", { level: 1, name: "Coffee club" })).toBeVisible();
  await expect(page.getByText("Tidewater Coffee Club").first()).toBeVisible();
  await expect(page.getByTestId("cap")).toHaveText("at most 9 USDC");
  await expect(page.getByText("How to cancel")).toBeVisible();
  await expectNoAxeViolations(page);
  if (fill === "browserWallet") await page.getByRole("button", { name: "Use my browser wallet's address" }).click();
  else await page.getByLabel("Your wallet address").fill(customer);
  await expect(page.getByLabel("Your wallet address")).toHaveValue(customer);
  await page.getByLabel("Email (optional)").fill("reader@example.com");
  await page.getByRole("button", { name: "Continue" }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  const { id } = ((await answer.json()) as { data: { id: string } }).data;
  await expect(page).toHaveURL(`${baseUrl()}/subscribe/${id}`);
  // Their own subscribe page: the same terms, for the wallet they gave, to sign with it.
  await expect(page.getByRole("heading", { level: 1, name: "Coffee club" })).toBeVisible();
  await expect(page.getByText(customer)).toBeVisible();
  await expect(page.getByRole("button", { name: "Connect wallet" })).toBeVisible();
  await expectNoAxeViolations(page);
  const sub = await api("GET", `/api/subscriptions/${id}/`, undefined, merchant.token);
  expect(sub.body.data).toMatchObject({ plan: plan.id, status: "trialing", customer_address: customer, customer_email: "reader@example.com" });
  return plan;
}

test("a plan's public link: the customer gives their wallet from the browser wallet and continues to their own subscribe page", async ({ page }) => {
  // Only eth_requestAccounts is asked of this wallet: no signature, so any address will do.
  const customer = "0x2546BcD3c84621e976D8185a91A922aE77ECEc30";
  await page.addInitScript(installInjectedWallet, { rpcUrl: devnet.rpcUrl, address: customer, chainId: devnet.chainId });
  await startFromPlanLink(page, customer, "browserWallet");
});

test.describe("a plan's public link on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test("typed wallet at 390×844, without sideways scrolling on either page", async ({ page }, testInfo) => {
    const customer = "0xbDA5747bFD65F08deb54cb465eB87D40e51B197E";
    const plan = await startFromPlanLink(page, customer, "type");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(plan.url);
    await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: testInfo.outputPath("phone-plan.png"), fullPage: true });
  });
});

test("a plan's public link: dark mode, German, a bad address stopped by the form; off is a 404 page, archived says so", async ({ page }) => {
  const plan = await sharedPlan();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(plan.url);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Your wallet address").fill("0x1234");
  await page.getByRole("button", { name: "Continue" }).click();
  // The browser's own check stops it: still here, nothing created.
  await expect(page).toHaveURL(plan.url);

  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "de", url: baseUrl() }]);
  await page.goto(plan.url);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("button", { name: "Weiter" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.context().clearCookies();

  expect((await api("PATCH", `/api/subscription-plans/${plan.id}/`, { status: "archived" }, merchant.token)).status).toBe(200);
  const archived = await page.goto(plan.url);
  expect(archived?.status()).toBe(200);
  await expect(page.getByTestId("plan-closed")).toHaveText("This plan takes no new subscribers.");
  await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  expect((await api("PATCH", `/api/subscription-plans/${plan.id}/`, { public_link: false }, merchant.token)).status).toBe(200);
  const off = await page.goto(plan.url);
  expect(off?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This subscription plan is not available" })).toBeVisible();
});
