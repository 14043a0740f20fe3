import { describe, expect, test } from "vitest";
import { paymentUri } from "@/lib/orders/payment-uri";

const lower = "0x8ba1f109551bd432803012645ac136ddd64dba72";
const checksummed = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";

describe("paymentUri (EIP-681)", () => {
  test("native coin: address, chain id and the amount in wei as a plain integer", () => {
    expect(paymentUri({ address: checksummed, chainId: 8453, nativeAmount: 1_500_000_000_000_000_000n })).toBe(
      `ethereum:${checksummed}@8453?value=1500000000000000000`,
    );
  });

  test("never writes the value with an exponent", () => {
    const uri = paymentUri({ address: checksummed, chainId: 1, nativeAmount: 10n ** 30n });
    expect(uri).toBe(`ethereum:${checksummed}@1?value=1${"0".repeat(30)}`);
    expect(uri.split("value=")[1]).toMatch(/^\d+$/);
  });

  test("tokens: only the deposit address and chain id, no token contract, no amount", () => {
    const uri = paymentUri({ address: lower, chainId: 137, nativeAmount: null });
    expect(uri).toBe(`ethereum:${checksummed}@137`);
    expect(uri).not.toContain("transfer");
    expect(uri).not.toContain("?");
  });

  test("checksums the address and refuses a malformed one or a negative amount", () => {
    expect(paymentUri({ address: lower, chainId: 31337 })).toBe(`ethereum:${checksummed}@31337`);
    expect(() => paymentUri({ address: "0x1234", chainId: 1 })).toThrow();
    expect(() => paymentUri({ address: lower, chainId: 1, nativeAmount: -1n })).toThrow();
  });
});
