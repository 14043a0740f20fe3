import { describe, expect, test, vi } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { setupTestDevnet } from "../helpers/devnet";
import { createMerchant, createWallet } from "../helpers/factories";
import { sessionModuleMock, signInAs } from "./session";

vi.mock("@/lib/auth/next-auth", () => sessionModuleMock);

const { createOrderAction } = await import("@/app/(dashboard)/dashboard/orders/actions");
const { updateToleranceAction } = await import("@/app/(dashboard)/dashboard/settings/actions");

setupTestDatabase();
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
    expect(token).toMatchObject({ ok: true, data: { amount: "12.5", currency: "USDC", price_amount: null, payment_url: expect.stringContaining("/pay/ORD-") } });

    const fiat = await createOrderAction(form({ blockchain: "base", currency: "USDC", price: "10", price_currency: "USD" }));
    expect(fiat).toMatchObject({ ok: true, data: { amount: "10.002001", price_amount: "10.00", price_currency: "USD", rate: "0.9998" } });

    const bad = await createOrderAction(form({ blockchain: "base", currency: "USDC", price: "", price_currency: "token" }));
    expect(bad).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", details: { amount: ["This field is required."] } } });
  });

  test("settings: the payment tolerance form saves basis points and refuses more than 10 %", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    expect(await updateToleranceAction(form({ payment_tolerance_bps: "25" }))).toEqual({ ok: true, data: { payment_tolerance_bps: 25 } });
    expect(await updateToleranceAction(form({ payment_tolerance_bps: "1001" }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
  });
});
