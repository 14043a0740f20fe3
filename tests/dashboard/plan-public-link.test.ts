/** The dashboard's plan list: a plan's public subscribe link, shared and stopped with the API's use-case, shown with Copy while shared. */
import { describe, expect, test, vi } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant, createWallet } from "../helpers/factories";
import { renderPage } from "../helpers/next-intl-server-en";
import { signInAs } from "./session";

// The page's client parts ask for the app router, which a static render has not mounted.
vi.mock("next/navigation", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/navigation")>()),
  useRouter: () => ({ push: () => undefined, replace: () => undefined, refresh: () => undefined, prefetch: () => undefined, back: () => undefined }),
  usePathname: () => "/dashboard/subscriptions",
  useSearchParams: () => new URLSearchParams(),
}));
vi.mock("next-intl/server", () => import("../helpers/next-intl-server-en"));

const { createPlanAction, setPlanPublicLinkAction } = await import("@/app/(dashboard)/dashboard/subscriptions/actions");
const { default: SubscriptionsPage } = await import("@/app/(dashboard)/dashboard/subscriptions/page");

setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

const render = async () => renderPage(await SubscriptionsPage({ searchParams: Promise.resolve({}) }));

describe("dashboard plan list: the public link", () => {
  test("off at first (Share link), shared (the link, Copy, Stop sharing), stopped again; another merchant's plan is refused", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant);
    signInAs(merchant);
    const plan = await createPlanAction(
      form({ name: "Tea club", token: "base:USDC", amount: "7.25", interval_days: "30", trial_days: "", periods: "", grace_days: "3", past_due_days: "7" }),
    );
    const planId = (plan as { data: { id: string } }).data.id;
    let html = await render();
    expect(html).toContain("Share link");
    expect(html).not.toContain(`/subscribe/plan/${planId}`);

    const shared = await setPlanPublicLinkAction(form({ id: planId, public_link: "on" }));
    expect(shared).toMatchObject({ ok: true, data: { id: planId, public_url: `http://localhost:3000/subscribe/plan/${planId}` } });
    html = await render();
    expect(html).toContain(`href="http://localhost:3000/subscribe/plan/${planId}"`);
    expect(html).toContain('aria-label="Copy the public link of Tea club"');
    expect(html).toContain("Stop sharing");

    expect(await setPlanPublicLinkAction(form({ id: planId, public_link: "off" }))).toMatchObject({ ok: true, data: { public_url: null } });
    expect(await render()).not.toContain(`/subscribe/plan/${planId}`);

    const other = await createMerchant();
    signInAs(other);
    expect(await setPlanPublicLinkAction(form({ id: planId, public_link: "on" }))).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect(await setPlanPublicLinkAction(form({ id: planId, public_link: "maybe" }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
  });
});
