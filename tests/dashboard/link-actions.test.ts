import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet } from "../helpers/factories";
import { signInAs } from "./session";

const { createLinkAction } = await import("@/app/(dashboard)/dashboard/links/actions");
const { GET: listLinks } = await import("@/app/api/payment-links/route");
const { call } = await import("../helpers/request");

setupTestDatabase();
setupTestDevnet();

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(key, v);
  return data;
}

describe("dashboard links page: a link offers only chains the merchant has a wallet on (issue 27)", () => {
  test("the form's link with a chain without an active wallet is refused with WALLET_NOT_CONFIGURED; with wallets it is saved", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    signInAs(merchant);
    const fields = { title: "Espresso beans", price: "24", price_currency: "token", options: ["base:USDC", "polygon:USDC"], max_quantity: "5" };

    const refused = await createLinkAction(form(fields));
    // In the merchant's words (issue 29): the network by name, a link to fix it, no API path.
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: "WALLET_NOT_CONFIGURED",
        message: expect.stringContaining("Polygon"),
        fix: { label: expect.stringMatching(/^Add a Polygon .*wallet$/), href: "/dashboard/wallets" },
      },
    });
    expect(JSON.stringify(refused)).not.toContain("/api/");
    expect((await call(listLinks, "GET", "/api/payment-links/", { token: merchant.access })).body.count).toBe(0);

    await createWallet(merchant, { blockchain: 3 });
    const saved = await createLinkAction(form(fields));
    expect(saved).toMatchObject({
      ok: true,
      data: { id: expect.stringMatching(/^LNK-/), url: expect.stringContaining("/link/LNK-"), qr_svg: expect.stringMatching(/^<svg/) },
    });
  });
});
