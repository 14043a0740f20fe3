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

test("the API reference's repaired markup keeps Scalar's keyboard use: search, the client tabs and their More list, the endpoint lists", async ({ page }) => {
  await page.goto(`${baseUrl()}/docs`);
  await expect(page.getByRole("heading", { name: "Payment Gateway API", level: 1 })).toBeVisible({ timeout: 30_000 });

  // The search button is a button (no longer a search landmark): Enter opens the search, Escape brings focus back.
  const search = page.getByRole("button", { name: /^Open Search/ });
  await search.focus();
  await page.keyboard.press("Enter");
  const searchDialog = page.getByRole("dialog", { name: "Reference Search" });
  await expect(searchDialog.getByRole("combobox")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(search).toBeFocused();

  // The sidebar's entries say which is current with aria-current, never with aria-selected (their roles allow none).
  const sidebar = page.getByRole("navigation", { name: "Sidebar for Payment Gateway API" });
  await sidebar.getByRole("button", { name: /^Payment orders/ }).click();
  const create = sidebar.getByRole("button", { name: /^Create a payment order HTTP Method: POST/ });
  await create.click();
  await expect(create).toHaveAttribute("aria-current", "true");
  await expect(sidebar.locator("[aria-selected]")).toHaveCount(0);

  // The client tabs: only tabs, "More" one of them, selected while its client (our default, Node.js fetch) is.
  const clients = page.getByRole("tablist", { name: "Client Libraries" });
  const more = clients.getByRole("tab", { name: /Select from all clients/ });
  const owned = (await clients.ariaSnapshot()).split("\n").filter((line) => /^ {2}- /.test(line));
  expect(owned.length).toBeGreaterThan(2);
  expect(owned.filter((line) => !line.startsWith("  - tab "))).toEqual([]);
  await expect(more).toHaveAttribute("aria-selected", "true");
  await expect(clients.getByRole("tab", { selected: true })).toHaveCount(1);
  // Arrows move between the tabs and Enter selects one (Scalar's manual tabs), as before.
  await clients.getByRole("tab", { name: "Shell" }).focus();
  await page.keyboard.press("ArrowRight");
  const ruby = clients.getByRole("tab", { name: "Ruby" });
  await expect(ruby).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(ruby).toHaveAttribute("aria-selected", "true");
  await expect(more).toHaveAttribute("aria-selected", "false");
  // "More" opens the list of every client from the keyboard; a client chosen there selects "More" again.
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("listbox")).toBeVisible();
  await page.keyboard.type("Requests");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(more).toHaveAttribute("aria-selected", "true");
  await expect(ruby).toHaveAttribute("aria-selected", "false");
  await expect(page.getByRole("tabpanel").filter({ hasText: "Python Requests" })).toBeVisible();

  // Each endpoint list that scrolls (a long path) has a tab stop, and the keyboard scrolls it; one that does not, none.
  const lists = page.locator("ul.endpoints");
  const states = await lists.evaluateAll((els) => els.map((el) => ({ scrolls: el.scrollWidth > el.clientWidth + 1, tabindex: el.getAttribute("tabindex") })));
  expect(states.length).toBeGreaterThan(5);
  expect(states.filter((s) => s.scrolls).length).toBeGreaterThan(0);
  for (const state of states) expect(state.tabindex).toBe(state.scrolls ? "0" : null);
  const scrolling = lists.and(page.locator("[tabindex='0']")).first();
  await scrolling.scrollIntoViewIfNeeded();
  await scrolling.focus();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => scrolling.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});
