import { expect, test } from "@playwright/test";
import { injectedWalletName, installInjectedWallet } from "./injected-wallet";
import { baseUrl, createMerchant, createOrder, expectTransactionShown, faucet, getOrder, getPublicOrder, quietChain, type Merchant } from "./support";

/** hardhat account 8: unlocked on the devnet (it signs typed data there), used by no other browser test. */
const customer = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant();
});

async function ethBalance(rpcUrl: string, address: string): Promise<bigint> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [address, "latest"] }),
  });
  return BigInt(((await response.json()) as { result: string }).result);
}

test("pays without gas: the wallet only signs, the gateway relays, and the order confirms", quietChain, async ({ page }, testInfo) => {
  // Worth relaying at the devnet's gas price (about $0.34 a relay: GASLESS_MAX_COST_SHARE of 5% needs $7 or more).
  const order = await createOrder(merchant, { amount: "25", currency: "USDC" });
  const { blockchain, gasless } = await getPublicOrder(order.order_id);
  expect(gasless).toMatchObject({ name: "USD Coin", version: "2" });
  await faucet(merchant, customer, "USDC", "30");
  const ethBefore = await ethBalance(blockchain.rpc_url, customer);
  await page.addInitScript(installInjectedWallet, { rpcUrl: blockchain.rpc_url, address: customer, chainId: blockchain.chain_id });

  await page.goto(`${baseUrl()}/pay/${order.order_id}`);
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page.getByRole("button", { name: injectedWalletName }).click();
  await expect(page.getByText(`Connected: ${customer}`)).toBeVisible();

  const relayed = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname === `/api/pay/${order.order_id}/gasless/`,
  );
  await page.getByRole("button", { name: "Pay without gas" }).click();
  const hash = ((await (await relayed).json()) as { data: { transaction_hash: string } }).data.transaction_hash;
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
  await expectTransactionShown(page, hash);
  const wallet = await page.evaluate(() => (window as unknown as { __e2eWallet: { requests: string[]; sent: string[] } }).__e2eWallet);
  expect(wallet.requests).toContain("eth_signTypedData_v4");
  expect(wallet.sent).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("gasless-sent.png"), fullPage: true });

  await expect(page.getByTestId("status")).toContainText("Payment seen");
  await page.getByRole("button", { name: "Mine confirmations" }).click();
  await expect(page.getByTestId("status")).toContainText("Payment confirmed");
  const confirmed = await getOrder(merchant, order.order_id);
  expect(confirmed).toMatchObject({ status: "confirmed", amount_received: "25" });
  expect(confirmed.transaction.transaction_hash).toBe(hash);
  expect(await ethBalance(blockchain.rpc_url, customer)).toBe(ethBefore);
});
