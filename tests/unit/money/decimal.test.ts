import { describe, expect, test } from "vitest";
import { decimalToBaseUnits, multiplyDecimal } from "@/lib/money/decimal";

describe("decimalToBaseUnits", () => {
  test("converts exactly, with or without a fraction", () => {
    expect(decimalToBaseUnits("15", 6)).toBe(15_000_000n);
    expect(decimalToBaseUnits("0.003177077686318523", 18)).toBe(3_177_077_686_318_523n);
    expect(decimalToBaseUnits("10.50", 6)).toBe(10_500_000n);
    expect(decimalToBaseUnits("0", 18)).toBe(0n);
  });

  test("refuses more precision than the token has and anything but a plain decimal", () => {
    expect(() => decimalToBaseUnits("1.0000001", 6)).toThrow(/decimal places/);
    for (const bad of ["", "1e18", "-1", " 1", "1.", ".5", "0x10"]) expect(() => decimalToBaseUnits(bad, 6), bad).toThrow();
  });
});

describe("multiplyDecimal: a link's price × quantity, exactly", () => {
  test.each([
    ["24", 3, "72"],
    ["24.50", 3, "73.5"],
    ["49.00", 2, "98"],
    ["0.05", 1, "0.05"],
    ["0.000001", 7, "0.000007"],
    ["0.1", 10, "1"],
    ["0.003177077686318523", 1000, "3.177077686318523"],
    [`1${"0".repeat(70)}`, 2, `2${"0".repeat(70)}`],
  ])("%s × %i = %s", (price, quantity, total) => {
    expect(multiplyDecimal(price, quantity)).toBe(total);
  });
});
