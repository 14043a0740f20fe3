import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { baseUrl } from "./support";

/** The authenticator app. */
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();

test("a merchant turns on TOTP in settings, then signs in with a recovery code in the second step", async ({ page, browser }) => {
  const username = `e2e_2fa_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  const registered = await fetch(`${baseUrl()}/api/auth/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, shop_name: "Two Factor Teas" }),
  });
  expect(registered.status).toBe(201);

  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`${baseUrl()}/dashboard/settings`);
  const setUp = page.getByRole("form", { name: "Set up two-factor authentication" });
  await setUp.getByLabel("Current password").fill(password);
  await setUp.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByTestId("totp-qr").locator("svg")).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const confirm = page.getByRole("form", { name: "Confirm two-factor authentication" });
  await confirm.getByLabel("Code from the app").fill(codeFor(secret));
  await confirm.getByRole("button", { name: "Turn on" }).click();
  const codes = ((await page.getByTestId("recovery-codes").locator("pre").textContent()) ?? "").trim().split("\n");
  expect(codes).toHaveLength(10);

  // Another browser: the password alone now leads to the code step.
  const other = await browser.newContext();
  const signIn = await other.newPage();
  await signIn.goto(`${baseUrl()}/sign-in`);
  await signIn.getByLabel("Username").fill(username);
  await signIn.getByLabel("Password").fill(password);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  const code = signIn.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await expect(signIn).toHaveURL(/\/sign-in/);
  await code.fill("000000");
  await signIn.getByRole("button", { name: "Verify" }).click();
  await expect(signIn.getByRole("form", { name: "Sign in" }).getByRole("alert")).toContainText("Invalid");
  await code.fill(codes[0]!);
  await signIn.getByRole("button", { name: "Verify" }).click();
  await expect(signIn).toHaveURL(/\/dashboard$/);
  await signIn.goto(`${baseUrl()}/dashboard/settings`);
  await expect(signIn.getByText("9 of 10 recovery codes left")).toBeVisible();
  await other.close();
});
