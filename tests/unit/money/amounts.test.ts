import { describe, expect, test } from "vitest";
import { formatAmount, maxBaseUnits, parseAmount } from "@/lib/money/amounts";

const invalid = (text: unknown, decimals: number) => {
  try {
    parseAmount(text, decimals);
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return "accepted";
};

describe("parseAmount", () => {
  test.each([
    ["10", 6, 10_000_000n],
    ["10.5", 6, 10_500_000n],
    ["0.000001", 6, 1n],
    ["10.500000", 6, 10_500_000n],
    ["007.25", 6, 7_250_000n],
    ["1", 0, 1n],
    ["1.5", 18, 1_500_000_000_000_000_000n],
    ["0.000000000000000001", 18, 1n],
    ["123456789012345678901234567890.123456789012345678", 18, 123456789012345678901234567890123456789012345678n],
  ])("%s with %i decimals is %s base units", (text, decimals, expected) => {
    expect(parseAmount(text, decimals)).toBe(expected);
  });

  test("accepts exactly 2^256 - 1 base units and nothing above", () => {
    expect(parseAmount(maxBaseUnits.toString(), 0)).toBe(maxBaseUnits);
    expect(invalid((maxBaseUnits + 1n).toString(), 0)).toBe("INVALID_AMOUNT");
    expect(invalid(formatAmount(maxBaseUnits, 6), 6)).toBe("accepted");
    expect(invalid(formatAmount(maxBaseUnits + 1n, 6), 6)).toBe("INVALID_AMOUNT");
    expect(invalid("9".repeat(5000), 6)).toBe("INVALID_AMOUNT");
  });

  test.each([
    ["0", 6],
    ["0.0", 6],
    ["0.000000", 6],
    ["-1", 6],
    ["+1", 6],
    ["1e6", 6],
    ["1E6", 6],
    [".5", 6],
    ["5.", 6],
    ["1,5", 6],
    [" 1", 6],
    ["1 ", 6],
    ["", 6],
    ["0x10", 6],
    ["NaN", 6],
    ["Infinity", 6],
    ["1.5", 0],
    ["0.0000001", 6],
    ["1.0000000", 6],
    ["١٢", 6],
  ])("rejects %j with %i decimals as INVALID_AMOUNT", (text, decimals) => {
    expect(invalid(text, decimals)).toBe("INVALID_AMOUNT");
  });

  test.each([[10], [10.5], [null], [undefined], [true], [{}], [["1"]]])("rejects the non-string %j", (value) => {
    expect(invalid(value, 6)).toBe("INVALID_AMOUNT");
  });
});

describe("formatAmount", () => {
  test.each([
    [10_500_000n, 6, "10.5"],
    [10_000_000n, 6, "10"],
    [1n, 6, "0.000001"],
    [0n, 6, "0"],
    [0n, 0, "0"],
    [42n, 0, "42"],
    [1n, 18, "0.000000000000000001"],
    [1_230_000_000_000_000_000n, 18, "1.23"],
    [-1_500_000n, 6, "-1.5"],
  ])("%s base units with %i decimals is %s", (units, decimals, expected) => {
    expect(formatAmount(units, decimals)).toBe(expected);
  });

  test("never uses an exponent, even for the largest amounts", () => {
    const text = formatAmount(maxBaseUnits, 18);
    expect(text).toMatch(/^\d+\.\d+$/);
    expect(text.replace(".", "")).toBe(maxBaseUnits.toString());
  });

  test("round-trips with parseAmount", () => {
    for (const units of [1n, 999_999n, 10n ** 24n + 7n, maxBaseUnits]) {
      for (const decimals of [0, 6, 18]) expect(parseAmount(formatAmount(units, decimals), decimals)).toBe(units);
    }
  });
});
