import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { installInjectedWallet } from "./injected-wallet";
import { api, baseUrl } from "./support";

/** hardhat account 9: funded, unlocked on the devnet, used by no other e2e test; the merchant's paying wallet here. */
const merchantWallet = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

test("the payouts page pays a batch with the merchant's browser wallet: Sign with my wallet, one transaction, every leg confirmed", async ({ page }) => {
  const username = `payout_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  expect((await api("POST", "/api/auth/register/", { username, email: `${username}@example.com`, password, shop_name: "Payout Shop" })).status).toBe(201);
  const token = (await api("POST", "/api/auth/login/", { username, password })).body.access as string;
  // A wallet on base only for its confirmation threshold (1: the devnet mines a block per transaction, no more).
  const receiving = `0x${randomBytes(20).toString("hex")}`;
  expect(
    (await api("POST", "/api/merchant-wallets/", { blockchain: 2, wallet_address: receiving, confirmation_threshold: 1, is_active: true }, token)).status,
  ).toBe(201);
  const recipients = [0, 1, 2].map(() => `0x${randomBytes(20).toString("hex")}`);
  const created = await api(
    "POST",
    "/api/payouts/",
    { blockchain: "base", currency: "ETH", legs: recipients.map((address, i) => ({ address, amount: `0.00${i + 1}` })) },
    token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const batch = created.body.data;

  const chains = await api("GET", "/api/blockchains/", undefined, token);
  const base = (chains.body.results ?? chains.body.data).find((c: { slug: string }) => c.slug === "base");
  await page.addInitScript(installInjectedWallet, { rpcUrl: base.rpc_url, address: merchantWallet, chainId: base.chain_id });
  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto(`${baseUrl()}/dashboard/payouts`);

  await page.getByRole("button", { name: `Sign batch ${batch.id} with my wallet` }).click();
  await expect(page.getByText(/Batch sent: 0x[0-9a-f]{64}/)).toBeVisible();
  await expect.poll(async () => (await api("GET", `/api/payouts/${batch.id}/`, undefined, token)).body.data.status, { timeout: 60_000 }).toBe("confirmed");
  const done = (await api("GET", `/api/payouts/${batch.id}/`, undefined, token)).body.data;
  expect(done.from_address.toLowerCase()).toBe(merchantWallet.toLowerCase());
  expect(done.legs.map((leg: { status: string }) => leg.status)).toEqual(["confirmed", "confirmed", "confirmed"]);
  await page.reload();
  await expect(page.locator(`tr[data-payout-id="${batch.id}"]`)).toContainText("confirmed");
});
