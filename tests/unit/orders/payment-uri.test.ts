import { describe, expect, test } from "vitest";
import { paymentRequestUri } from "@/lib/orders/payment-uri";

const to = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const usdc = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

describe("paymentRequestUri (EIP-681)", () => {
  test("native coin: deposit address, chain id and the amount in wei as a plain integer", () => {
    expect(paymentRequestUri({ to, chainId: 8453, tokenAddress: null, amount: 1_500_000_000_000_000_000n })).toBe(
      `ethereum:${to}@8453?value=1500000000000000000`,
    );
  });

  test("ERC-20 token: the token contract's transfer, with the deposit address and the amount in base units", () => {
    expect(paymentRequestUri({ to, chainId: 137, tokenAddress: usdc, amount: 15_000_000n })).toBe(
      `ethereum:${usdc}@137/transfer?address=${to}&uint256=15000000`,
    );
  });

  test("never writes an amount with an exponent", () => {
    const uri = paymentRequestUri({ to, chainId: 1, tokenAddress: null, amount: 10n ** 30n });
    expect(uri.split("value=")[1]).toBe(`1${"0".repeat(30)}`);
  });

  test("refuses a malformed address or token, a bad chain id and a negative amount", () => {
    expect(() => paymentRequestUri({ to: "0x1234", chainId: 1, tokenAddress: null, amount: 1n })).toThrow(/deposit address/);
    expect(() => paymentRequestUri({ to, chainId: 1, tokenAddress: "0xnope", amount: 1n })).toThrow(/token contract/);
    expect(() => paymentRequestUri({ to, chainId: 0, tokenAddress: null, amount: 1n })).toThrow(/chain id/);
    expect(() => paymentRequestUri({ to, chainId: 1, tokenAddress: null, amount: -1n })).toThrow(/negative/);
  });
});
