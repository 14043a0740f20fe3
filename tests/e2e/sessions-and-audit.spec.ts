import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { baseUrl } from "./support";

async function signIn(page: Page, username: string, password: string) {
  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("the sessions page revokes another browser's sign-in for real, and the audit log shows it, filtered and as CSV", async ({ page, browser }) => {
  const username = `e2e_sess_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  const registered = await fetch(`${baseUrl()}/api/auth/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, shop_name: "Session Stationers" }),
  });
  expect(registered.status).toBe(201);

  const other = await browser.newContext({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0" });
  const otherPage = await other.newPage();
  await signIn(otherPage, username, password);
  await signIn(page, username, password);

  await page.goto(`${baseUrl()}/dashboard/sessions`);
  const table = page.getByRole("table", { name: "Active sessions" });
  await expect(table.locator("tbody tr")).toHaveCount(2);
  const otherRow = table.locator('tr[data-current="false"]');
  await expect(otherRow).toContainText("Firefox 128 on macOS");
  await expect(table.locator('tr[data-current="true"]')).toContainText("This session");
  page.once("dialog", (dialog) => dialog.accept());
  await otherRow.getByRole("button", { name: "Revoke" }).click();
  await expect(table.locator("tbody tr")).toHaveCount(1);

  // The other browser is signed out on its next page.
  await otherPage.goto(`${baseUrl()}/dashboard/orders`);
  await expect(otherPage).toHaveURL(/\/sign-in/);
  await other.close();

  await page.goto(`${baseUrl()}/dashboard/audit-log?action=auth.session_revoked`);
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.locator("tbody tr")).toHaveCount(1);
  await expect(log.locator("tbody tr").first()).toContainText("Session revoked");
  await expect(log.locator("tbody tr").first()).toContainText(`${username} (dashboard)`);
  await page.goto(`${baseUrl()}/dashboard/audit-log?action=auth.login_succeeded`);
  await expect(log.locator("tbody tr")).toHaveCount(2);

  const csv = await page.request.get(`${baseUrl()}/dashboard/audit-log/export?action=auth.session_revoked`);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain("auth.session_revoked,session,");
});
