import { expect, test } from "@playwright/test";
import { axeScan, baseUrl } from "./support";

test("the landing page explains the gateway in three steps and leads to Sign up, Sign in and Docs; the site has a favicon", async ({ page }) => {
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment Gateway");
  await expect(page.getByRole("listitem")).toHaveCount(3);
  const links: Array<[string, string]> = [
    ["Sign up", "/sign-up"],
    ["Sign in", "/sign-in"],
    ["Docs", "/docs"],
  ];
  for (const [name, path] of links) {
    await expect(page.getByRole("link", { name, exact: true })).toHaveAttribute("href", path);
  }
  const results = await axeScan(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  expect(results.violations.map((v) => v.id)).toEqual([]);

  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toMatch(/^\/icon\.svg/);
  const res = await fetch(`${baseUrl()}${icon}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);

  await page.getByRole("link", { name: "Docs", exact: true }).click();
  await expect(page).toHaveURL(/\/docs$/);
  // Docs and dashboard lead to each other (issue 29).
  await expect(page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute(
    "href",
    "/dashboard",
  );
});

test("the API reference at /docs renders the live OpenAPI document with Scalar, from this server alone and without errors", async ({ page }) => {
  const elsewhere: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["http:", "https:"].includes(url.protocol)) return;
    if (url.origin !== new URL(baseUrl()).origin) elsewhere.push(request.url());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${baseUrl()}/docs`);
  // The document's title, and its operations in Scalar's sidebar, a group opened.
  await expect(page.getByRole("heading", { name: "Payment Gateway API", level: 1 })).toBeVisible({ timeout: 30_000 });
  const sidebar = page.getByRole("navigation", { name: "Sidebar for Payment Gateway API" });
  await sidebar.getByRole("button", { name: /^Payment orders/ }).click();
  await expect(sidebar.getByRole("button", { name: /^Create a payment order HTTP Method: POST/ })).toBeVisible();
  await expect(sidebar.getByRole("button", { name: /^List payment orders HTTP Method: GET/ })).toBeVisible();
  // No "Ask AI" (it would send the document to Scalar's service).
  await expect(page.getByRole("button", { name: "Ask AI" })).toHaveCount(0);
  expect(elsewhere).toEqual([]);
  expect(errors).toEqual([]);
});
