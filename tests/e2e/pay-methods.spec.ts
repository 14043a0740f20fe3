/**
 * The customer chooses how to pay on the hosted pay page (issue 27 item 1): the order's (chain,
 * token) methods as tiles; a choice changes the amount, the QR code and the deposit address; once
 * money arrives the choice is gone and the order is fixed to the method paid by. On a desktop and
 * on a phone, with axe at 0 violations.
 */
import { expect, test } from "@playwright/test";
import { addWallet, baseUrl, createMerchant, createOrder, expectNoAxeViolations, getPublicOrder, type Merchant } from "./support";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant("Method Books");
  await addWallet(merchant, 3); // polygon
});

async function sandboxPost(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.text()}`).toBeLessThan(300);
}

for (const device of [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true } },
]) {
  test.describe(`method choice on a ${device.name}`, () => {
    test.use(device.use);

    test("tiles per method; choosing one changes amount and address; paying fixes it", async ({ page }) => {
      test.setTimeout(120_000);
      const order = await createOrder(merchant, {
        amount: undefined,
        price_amount: "10.00",
        price_currency: "USD",
        accepted_methods: [
          { blockchain: "base", currency: "ETH" },
          { blockchain: "polygon", currency: "USDC" },
        ],
      });
      const polygon = order.accepted_methods.find((m) => m.blockchain === "polygon")!;
      await page.goto(`${baseUrl()}/pay/${order.order_id}`);

      const choice = page.getByRole("group", { name: "Pay with" });
      await expect(choice.getByRole("radio")).toHaveCount(3);
      await expect(choice.getByRole("radio", { checked: true })).toHaveValue("base:USDC");
      await expect(page.getByTestId("address")).toHaveText(order.receiving_address);
      await expectNoAxeViolations(page);

      // The customer picks USDC on polygon: the amount stays, the address and network change.
      await choice
        .getByTestId("pay-method")
        .filter({ hasText: /Polygon/ })
        .click();
      await expect(choice.getByRole("radio", { checked: true })).toHaveValue("polygon:USDC");
      await expect(page.getByTestId("address")).toHaveText(polygon.receiving_address);
      await expect(page.getByTestId("amount")).toHaveText(`${polygon.amount} USDC`);
      await expect(page.getByTestId("subline")).toContainText("Polygon");
      await expect(
        page.getByRole("img", {
          name: new RegExp(`QR code to pay ${polygon.amount.replace(".", "\\.")} USDC to the deposit address ${polygon.receiving_address}`),
        }),
      ).toBeVisible();
      await expectNoAxeViolations(page);

      // ETH on base: another amount, base's address again.
      await choice.getByTestId("pay-method").filter({ hasText: /ETH/ }).click();
      await expect(choice.getByRole("radio", { checked: true })).toHaveValue("base:ETH");
      await expect(page.getByTestId("address")).toHaveText(order.receiving_address);
      await expect(page.getByTestId("amount")).toContainText("ETH");

      // Back to polygon and pay there: the choice goes away, the order is fixed to polygon.
      await choice
        .getByTestId("pay-method")
        .filter({ hasText: /Polygon/ })
        .click();
      await expect(choice.getByRole("radio", { checked: true })).toHaveValue("polygon:USDC");
      await sandboxPost(`/api/sandbox/payment-orders/${order.order_id}/pay/`, {});
      await expect.poll(async () => (await getPublicOrder(order.order_id)).method_fixed, { timeout: 30_000 }).toBe(true);
      await expect(page.getByTestId("method-choice")).toHaveCount(0, { timeout: 15_000 });
      await expect(page.getByTestId("subline")).toContainText("Polygon");
      await expectNoAxeViolations(page);
    });
  });
}
