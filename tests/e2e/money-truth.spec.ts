/**
 * What the customer sees is the money truth (issue 52), on a phone (390×844) and a desktop (1280×800):
 * a payment that arrived after the deadline says what arrived, links its transaction and says what
 * happens next; a payment the network took back by a reorg says so, and that it is awaited again.
 * Real devnet payments and a real reorg (POST /api/sandbox/reorg/), on the quiet chain: a reorg takes
 * blocks away from under every other test on its devnet. Each page passes axe.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { baseUrl, createMerchant, createOrder, expectNoAxeViolations, getOrder, getPublicOrder, quietChain, type Merchant } from "./support";

let merchant: Merchant;
test.beforeAll(async () => {
  merchant = await createMerchant();
});

async function sandboxPost(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${merchant.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.text()}`).toBeLessThan(300);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

for (const device of [
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
]) {
  test.describe(`on a ${device.name}`, () => {
    test.use(device.use);

    test(
      "a late payment: what arrived, its transaction and what happens next; a reversed payment: the network took it back, awaited again",
      quietChain,
      async ({ page }, testInfo) => {
        test.setTimeout(180_000);
        // Late: the deadline passes with nothing paid, then 20 USDC arrive.
        const late = await createOrder(merchant, { amount: "4", expires_at: new Date(Date.now() + 6_000).toISOString() });
        await expect.poll(async () => (await getPublicOrder(late.order_id)).status, { timeout: 60_000 }).toBe("expired");
        await sandboxPost(`/api/sandbox/payment-orders/${late.order_id}/pay/`, { amount: "20" });
        await expect.poll(async () => (await getPublicOrder(late.order_id)).status, { timeout: 60_000 }).toBe("failed");
        const lateHash = (await getOrder(merchant, late.order_id)).not_counted[0].transaction_hash as string;

        await page.goto(`${baseUrl()}/pay/${late.order_id}`);
        const status = page.getByTestId("status");
        await expect(status.getByRole("heading", { name: "Payment arrived too late" })).toBeVisible();
        await expect(status).toContainText("20 USDC arrived after the payment window had closed, so it does not pay this order.");
        await expect(status).toContainText("can refund it");
        await expect(page.getByTestId("notice-tx")).toHaveAttribute("title", lateHash);
        await expectNoAxeViolations(page);
        await shot(page, testInfo, `${device.name}-late`);

        // Reversed: paid and confirmed, then a reorg takes the block away.
        const reversed = await createOrder(merchant, { amount: "5" });
        await sandboxPost(`/api/sandbox/payment-orders/${reversed.order_id}/pay/`, {});
        await sandboxPost("/api/sandbox/mine/", { blocks: 3, blockchain: "base" });
        await expect.poll(async () => (await getPublicOrder(reversed.order_id)).status, { timeout: 60_000 }).toBe("confirmed");
        await page.goto(`${baseUrl()}/pay/${reversed.order_id}`);
        await expect(page.getByTestId("status").getByRole("heading", { name: "Payment confirmed" })).toBeVisible();

        await sandboxPost("/api/sandbox/reorg/", { depth: 8, blockchain: "base" });
        await expect.poll(async () => (await getPublicOrder(reversed.order_id)).payment_reversed, { timeout: 60_000 }).toBe(true);
        // Opened again (a settled page stops polling): no more "Paid … Thank you!".
        await page.reload();
        await expect(page.getByTestId("status").getByRole("heading", { name: "The network reversed this payment" })).toBeVisible();
        await expect(page.getByTestId("status")).toContainText("waiting for it again");
        await expect(page.getByTestId("status")).not.toContainText("Thank you");
        await expect(page.getByTestId("status").getByRole("progressbar")).toHaveCount(0);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("The network reversed this payment");
        await expectNoAxeViolations(page);
        await shot(page, testInfo, `${device.name}-reversed`);
      },
    );
  });
}
