import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startAppServerOnTestDatabase, type AppServer } from "./app-server";

/**
 * WebAuthn refuses an IP address as the relying party, and the shared e2e server's APP_URL is
 * http://127.0.0.1:…; this spec starts its own server (same build, no devnet) at http://localhost:….
 */
let server: AppServer;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServerOnTestDatabase({ distDir: process.env.E2E_DIST_DIR || ".next-e2e", devnet: false, publicHost: "localhost" });
});
test.afterAll(async () => {
  await server?.stop();
});

test("a merchant adds a passkey in settings, then signs in with it as the second step", async ({ page }) => {
  const base = server.baseUrl;
  const username = `e2e_pk_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  const registered = await fetch(`${base}/api/auth/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, shop_name: "Passkey Pottery" }),
  });
  expect(registered.status).toBe(201);

  // Chromium's virtual authenticator stands in for the device's platform authenticator.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });

  const signInWithPassword = async () => {
    await page.goto(`${base}/sign-in`);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  await signInWithPassword();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`${base}/dashboard/settings`);
  const add = page.getByRole("form", { name: "Add a passkey" });
  await add.getByLabel("Passkey name").fill("Virtual key");
  await add.getByLabel("Current password").fill(password);
  await add.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Passkey “Virtual key” added.")).toBeVisible();
  const codes = ((await page.getByTestId("passkey-recovery-codes").locator("pre").textContent()) ?? "").trim().split("\n");
  expect(codes).toHaveLength(10);
  await expect(page.getByRole("list", { name: "Passkeys" })).toContainText("Virtual key");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);

  // Signed out, the password now leads to the second step, where the passkey completes it.
  await page.context().clearCookies();
  await signInWithPassword();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`${base}/dashboard/settings`);
  await expect(page.getByRole("list", { name: "Passkeys" })).toContainText("last used");
});
