import { describe, expect, test } from "vitest";
import { findBlockchainBySlug } from "@/lib/chains/catalog";
import { paymentChoices } from "@/lib/dashboard/payment-choices";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet } from "../helpers/factories";
import { signInAs } from "./session";

const { createOrderAction } = await import("@/app/(dashboard)/dashboard/orders/actions");
const { updateToleranceAction } = await import("@/app/(dashboard)/dashboard/settings/actions");

const database = setupTestDatabase();
const getDb = () => database.db;
setupTestDevnet();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("dashboard orders page: create an order (any mode, not a sandbox tool)", () => {
  test("creates a token-priced and a fiat-priced order from the form", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    signInAs(merchant);

    const token = await createOrderAction(form({ blockchain: "base", currency: "USDC", price: "12.5", price_currency: "token", order_info: "" }));
    expect(token).toMatchObject({
      ok: true,
      data: { amount: "12.5", currency: "USDC", price_amount: null, payment_url: expect.stringContaining("/pay/ORD-"), qr_svg: expect.stringMatching(/^<svg/) },
    });

    const fiat = await createOrderAction(form({ blockchain: "base", currency: "USDC", price: "10", price_currency: "USD" }));
    expect(fiat).toMatchObject({ ok: true, data: { amount: "10.002001", price_amount: "10.00", price_currency: "USD", rate: "0.9998" } });

    const bad = await createOrderAction(form({ blockchain: "base", currency: "USDC", price: "", price_currency: "token" }));
    expect(bad).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { amount: ["This field is required."] } } });
  });

  test("a chain without a wallet: the merchant's words and a link to add one, not the API's; the form's choices start where a wallet is", async () => {
    const merchant = await createMerchant();
    await createWallet(merchant, { blockchain: 2 });
    signInAs(merchant);

    const refused = await createOrderAction(form({ blockchain: "ethereum", currency: "USDC", price: "5", price_currency: "token" }));
    const ethereum = findBlockchainBySlug("ethereum")!.name;
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "WALLET_NOT_CONFIGURED", fix: { label: `Add an ${ethereum} wallet`, href: "/dashboard/wallets" } },
    });
    if (refused.ok) throw new Error("unreachable");
    expect(refused.error.message).toContain(`no active wallet on ${ethereum}`);
    expect(refused.error.message).not.toMatch(/\/api\/|POST/);

    const choices = await paymentChoices(getDb(), merchant.id);
    expect(choices.defaultChain).toBe("base");
    expect(choices.chains[0]).toMatchObject({ slug: "base", hasWallet: true });
    expect(choices.chains.filter((c) => c.hasWallet).map((c) => c.slug)).toEqual(["base"]);
    expect(choices.linkOptions.map((o) => o.value.split(":")[0])).toEqual(choices.linkOptions.map(() => "base"));
    // Each chain offers only its own tokens: POL only where it is the chain's token.
    for (const chain of choices.chains) expect(chain.tokens, chain.slug).toEqual(findBlockchainBySlug(chain.slug)!.tokens.map((t) => t.symbol));

    // The default is a chain where the order goes through.
    expect(await createOrderAction(form({ blockchain: choices.defaultChain!, currency: "USDC", price: "5", price_currency: "token" }))).toMatchObject({
      ok: true,
    });
  });

  test("a merchant with no wallet (or only an inactive one) has no default chain and no link options", async () => {
    const merchant = await createMerchant();
    expect(await paymentChoices(getDb(), merchant.id)).toMatchObject({ defaultChain: null, linkOptions: [] });
    await createWallet(merchant, { blockchain: 3, is_active: false });
    expect(await paymentChoices(getDb(), merchant.id)).toMatchObject({ defaultChain: null, linkOptions: [] });
  });

  test("settings: the payment tolerance form saves basis points and refuses more than 10 %", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    expect(await updateToleranceAction(form({ payment_tolerance_bps: "25" }))).toEqual({ ok: true, data: { payment_tolerance_bps: 25 } });
    expect(await updateToleranceAction(form({ payment_tolerance_bps: "1001" }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
  });
});
