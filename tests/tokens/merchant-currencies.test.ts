/**
 * A store switches currencies on and off per chain (dashboard › Currencies): a currency switched off
 * is refused for new orders, accepted methods and payment links with UNSUPPORTED_CURRENCY, on that
 * chain only; only owners and admins switch, and each switch is audited.
 */
import { describe, expect, test } from "vitest";
import { POST as createLink } from "@/app/api/payment-links/route";
import { POST as postOrder } from "@/app/api/payment-orders/route";
import { setCurrencyAction } from "@/app/(dashboard)/dashboard/currencies/actions";
import { listAuditEntries } from "@/lib/audit/queries";
import { listMerchantTokens } from "@/lib/tokens/merchant-tokens";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet, randomAddress, type TestMerchant } from "../helpers/factories";
import { call } from "../helpers/request";
import { signInAs } from "../dashboard/session";

const testDb = setupTestDatabase();
setupTestDevnet();

let nonce = 1;
const order = (merchant: TestMerchant, body: Record<string, unknown>) =>
  call(postOrder, "POST", "/api/payment-orders/", { token: merchant.access, body: { nonce: Date.now() * 1000 + nonce++, order_info: "{}", ...body } });

async function storeWithWallets() {
  const merchant = await createMerchant();
  await createWallet(merchant, { blockchain: 1, wallet_address: randomAddress() });
  await createWallet(merchant, { blockchain: 2, wallet_address: randomAddress() });
  return merchant;
}

describe("currencies per chain", () => {
  test("a currency switched off on a chain is refused there, for orders, accepted methods and links; elsewhere it is taken", async () => {
    const merchant = await storeWithWallets();
    signInAs(merchant);
    expect(await setCurrencyAction({ blockchain: "base", currency: "usdt", enabled: "false" })).toEqual({
      ok: true,
      data: { blockchain: "base", currency: "USDT", enabled: false },
    });

    const refused = await order(merchant, { blockchain: "base", amount: "10", currency: "USDT" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "UNSUPPORTED_CURRENCY", message: expect.stringContaining("switched off on base") });
    expect((await order(merchant, { blockchain: "ethereum", amount: "10", currency: "USDT" })).status).toBe(201);
    expect((await order(merchant, { blockchain: "base", amount: "10", currency: "USDC" })).status).toBe(201);

    const method = await order(merchant, {
      blockchain: "ethereum",
      amount: "10",
      currency: "USDT",
      accepted_methods: [{ blockchain: "base", currency: "USDT" }],
    });
    expect(method.status).toBe(400);
    expect(method.body.error.code).toBe("UNSUPPORTED_CURRENCY");

    const link = await call(createLink, "POST", "/api/payment-links/", {
      token: merchant.access,
      body: { title: "Tea", amount: "5", options: [{ blockchain: "base", currency: "USDT" }] },
    });
    expect(link.status, JSON.stringify(link.body)).toBe(400);
    expect(link.body.error.code).toBe("UNSUPPORTED_CURRENCY");

    const listed = await listMerchantTokens(testDb.db, merchant.id);
    expect(listed.find((c) => c.blockchain === "base")!.tokens.find((t) => t.symbol === "USDT")).toMatchObject({ enabled: false, gasless: false });
    expect(listed.find((c) => c.blockchain === "base")!.tokens.find((t) => t.symbol === "USDC")).toMatchObject({ enabled: true, gasless: true });

    // Switched on again: taken again. Each change is audited once.
    expect(await setCurrencyAction({ blockchain: "base", currency: "USDT", enabled: "true" })).toMatchObject({ ok: true });
    expect(await setCurrencyAction({ blockchain: "base", currency: "USDT", enabled: "true" })).toMatchObject({ ok: true });
    expect((await order(merchant, { blockchain: "base", amount: "10", currency: "USDT" })).status).toBe(201);
    const audit = await listAuditEntries(testDb.db, merchant.id, {}, { limit: 10, offset: 0 });
    expect(audit.rows.filter((e) => e.action === "currency.switched").map((e) => [e.target, e.after])).toEqual([
      ["base:USDT", { enabled: true }],
      ["base:USDT", { enabled: false }],
    ]);
  });

  test("only owners and admins switch; another store is not affected", async () => {
    const merchant = await storeWithWallets();
    const other = await storeWithWallets();
    signInAs(merchant, { accountId: merchant.id, role: "developer" });
    expect(await setCurrencyAction({ blockchain: "base", currency: "USDC", enabled: "false" })).toMatchObject({
      ok: false,
      error: { code: "INSUFFICIENT_PERMISSIONS" },
    });
    signInAs(merchant);
    expect(await setCurrencyAction({ blockchain: "base", currency: "DOGE", enabled: "false" })).toMatchObject({
      ok: false,
      error: { code: "UNSUPPORTED_CURRENCY" },
    });
    expect(await setCurrencyAction({ blockchain: "base", currency: "USDC", enabled: "false" })).toMatchObject({ ok: true });
    expect((await order(merchant, { blockchain: "base", amount: "1", currency: "USDC" })).status).toBe(400);
    expect((await order(other, { blockchain: "base", amount: "1", currency: "USDC" })).status).toBe(201);
  });
});
