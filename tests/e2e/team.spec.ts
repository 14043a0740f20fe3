import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { baseUrl } from "./support";

/** Issue 28 item 3: an owner invites a viewer from the Team page; the viewer joins with a new login and switches to the store. */
test("an owner invites a viewer; the viewer accepts with a new login, switches store and sees what a viewer may do", async ({ page, browser }) => {
  const owner = `e2e_owner_${randomBytes(4).toString("hex")}`;
  const password = "correct horse battery staple";
  const registered = await fetch(`${baseUrl()}/api/auth/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: owner, email: `${owner}@example.com`, password, shop_name: "Team Teas" }),
  });
  expect(registered.status).toBe(201);

  await page.goto(`${baseUrl()}/sign-in`);
  await page.getByLabel("Username").fill(owner);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const inviteeEmail = `e2e_viewer_${randomBytes(4).toString("hex")}@example.com`;
  await page.goto(`${baseUrl()}/dashboard/team`);
  const inviteForm = page.getByRole("form", { name: "Invite a member" });
  await inviteForm.getByLabel("Email").fill(inviteeEmail);
  await inviteForm.getByLabel("Role").selectOption("viewer");
  await inviteForm.getByRole("button", { name: "Send invitation" }).click();
  // This server sends no mail (no SMTP_URL): the link is handed to its sender this once.
  const link = (await inviteForm.getByTestId("invitation-link").textContent())?.trim();
  expect(link).toMatch(/\/invite\?token=[A-Za-z0-9_-]+$/);
  await expect(page.getByRole("table", { name: "Open invitations" })).toContainText(inviteeEmail);
  const invitePath = new URL(link!).pathname + new URL(link!).search;

  // The invitation is the invitee's: the sender's outbox does not show it (issue 49).
  await page.goto(`${baseUrl()}/dashboard/outbox`);
  await expect(page.getByText("/invite?token=")).toHaveCount(0);

  const other = await browser.newContext();
  const invitee = await other.newPage();
  await invitee.goto(`${baseUrl()}${invitePath}`);
  await expect(invitee.getByRole("heading", { name: "Join Team Teas" })).toBeVisible();
  const viewer = `e2e_viewer_${randomBytes(4).toString("hex")}`;
  const create = invitee.getByRole("form", { name: "Accept with a new login" });
  await create.getByLabel("Username").fill(viewer);
  await create.getByLabel("Password").fill(password);
  await create.getByRole("button", { name: "Create login and accept" }).click();
  await expect(invitee.getByRole("heading", { name: "Joined Team Teas" })).toBeVisible();
  await expect(invitee.getByRole("status")).toContainText("You are a member (viewer)");

  await invitee.goto(`${baseUrl()}/sign-in`);
  await invitee.getByLabel("Username").fill(viewer);
  await invitee.getByLabel("Password").fill(password);
  await invitee.getByRole("button", { name: "Sign in" }).click();
  await expect(invitee).toHaveURL(/\/dashboard$/);

  // Its own store first; the switcher moves the dashboard to Team Teas as a viewer.
  await invitee.goto(`${baseUrl()}/dashboard/team`);
  await expect(invitee.getByTestId("my-role")).toHaveText("owner");
  const switcher = invitee.getByRole("form", { name: "Switch store" }).first();
  await switcher.getByLabel("Store").selectOption({ label: "Team Teas (viewer)" });
  await switcher.getByRole("button", { name: "Switch" }).click();
  await expect(invitee.getByTestId("my-role")).toHaveText("viewer");
  await expect(invitee.getByRole("table", { name: "Members" })).toContainText(owner);
  await expect(invitee.getByRole("form", { name: "Invite a member" })).toHaveCount(0);
  await other.close();
});
